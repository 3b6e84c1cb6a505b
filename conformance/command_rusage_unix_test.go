//go:build unix

package conformance

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// watchRSS samples the peak resident set (VmHWM in /proc/PID/status,
// Linux) of a running child every 10 ms until stop is called, and stop
// returns the last sample in bytes; 0 where /proc is not there. The
// child's rusage cannot say it: Linux carries the forking process's peak
// over the exec into the child's ru_maxrss.
func watchRSS(pid int) (stop func() int64) {
	done := make(chan struct{})
	last := make(chan int64, 1)
	go func() {
		var hwm int64
		path := fmt.Sprintf("/proc/%d/status", pid)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if b, err := os.ReadFile(path); err == nil {
				if i := bytes.Index(b, []byte("VmHWM:")); i >= 0 {
					f := bytes.Fields(b[i+len("VmHWM:"):])
					if len(f) > 0 {
						if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
							hwm = max(hwm, kb<<10)
						}
					}
				}
			}
			select {
			case <-done:
				last <- hwm
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-last
	}
}
