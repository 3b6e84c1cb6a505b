//go:build unix

package conformance

import (
	"os"
	"syscall"
)

// maxRSS is a finished child's peak resident set in bytes (Linux
// reports kilobytes).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) << 10
	}
	return 0
}
