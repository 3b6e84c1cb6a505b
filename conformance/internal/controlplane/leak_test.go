package controlplane

import (
	"flag"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"k8s.io/klog/v2"
)

func silenceKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}

// leakTolerance is how many goroutines may outlive a control plane: the
// process-wide ones that packages start once and keep (os/signal's
// receive loop, which the API server's signal handling starts, and one
// process-wide wait.BackoffUntil worker). The API server's watch
// cache also leaves a wake-up timer goroutine per waiting read, each of
// which ends within three seconds: checkGoroutines waits for them.
const leakTolerance = 4

// checkGoroutines fails t when, after a grace period, more than
// leakTolerance goroutines run beyond before; it logs the stacks of all.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	var n int
	deadline := time.Now().Add(30 * time.Second)
	for {
		runtime.GC()
		n = runtime.NumGoroutine()
		if n <= before+leakTolerance || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	t.Logf("goroutines: %d before, %d after stop", before, n)
	if n > before+leakTolerance {
		t.Errorf("%d goroutines left (tolerance %d):\n%s\nstacks:\n%s", n-before, leakTolerance, summarize(string(buf)), buf)
	} else {
		t.Logf("left after stop:\n%s\nstacks:\n%s", summarize(string(buf)), buf)
	}
}

// summarize is the first frame line of each goroutine's stack, counted.
func summarize(stacks string) string {
	counts := map[string]int{}
	var order []string
	for _, g := range strings.Split(stacks, "\n\n") {
		lines := strings.Split(g, "\n")
		if len(lines) < 2 {
			continue
		}
		key := lines[1]
		for i := 1; i+1 < len(lines); i += 2 {
			if !strings.HasPrefix(lines[i], "runtime.") && !strings.HasPrefix(lines[i], "sync.") && !strings.HasPrefix(lines[i], "internal/") {
				key = lines[i]
				break
			}
		}
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
	}
	var b strings.Builder
	for _, k := range order {
		b.WriteString("  ")
		b.WriteString(k)
		if counts[k] > 1 {
			b.WriteString(" ×")
			b.WriteString(itoa(counts[k]))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for n > 0 {
		d = append([]byte{byte('0' + n%10)}, d...)
		n /= 10
	}
	return string(d)
}
