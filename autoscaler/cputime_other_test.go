//go:build !unix

package autoscaler

import "time"

// cpuTime is not measured here; the budget test then judges wall time.
func cpuTime() time.Duration { return 0 }
