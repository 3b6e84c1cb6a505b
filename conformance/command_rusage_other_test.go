//go:build !unix

package conformance

import "os"

// maxRSS is not measured on this platform.
func maxRSS(*os.ProcessState) int64 { return 0 }
