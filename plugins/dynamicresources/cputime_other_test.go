//go:build !unix

package dynamicresources

import "time"

// cpuTime is 0 where the process's CPU time is not read.
func cpuTime() time.Duration { return 0 }
