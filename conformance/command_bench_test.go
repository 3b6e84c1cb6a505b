package conformance

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/conformance/internal/upstream"
)

// dumpOrders are the two orders of the dump's pending pods.
var dumpOrders = []struct {
	name  string
	burst int
}{{"interleaved", 1}, {"bursts-of-5", 5}}

// buildSchedkit builds the command into dir and returns its path.
func buildSchedkit(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "schedkit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/schedkit")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/schedkit: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkCommand is the whole command on the generated dump (2,000
// nodes, 40,000 bound pods, 500 pending pods of 20 shapes, interleaved or
// in bursts of 5): `schedkit simulate -f dump.json` and `schedkit explain
// -f dump.json` run as a process (reading, admission, workload expansion,
// every decision, the output written to /dev/null), timed wall and CPU
// (the child's rusage: user and system), with its peak RSS (VmHWM); against
// upstream placing the same 500 pods one by one from the objects in
// memory (its cache built off the clock), every node scored as the
// command does without --config. ns/pod and cpu-ns/pod are per pending
// pod. Command/<order>/decisions/schedkit is schedkit's side of the
// same in-process comparison: Schedule and Assume of the 500 pods from
// the objects in memory, its snapshot built off the clock. Names:
// Command/<order>/<simulate|explain|decisions>/schedkit and
// Command/<order>/upstream (the row the three compare with).
func BenchmarkCommand(b *testing.B) {
	dir := b.TempDir()
	bin := ""
	if *benchSideFlag != "upstream" {
		bin = buildSchedkit(b, dir)
	}
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	const nodes, bound, pending = 2000, 40000, 500
	for _, o := range dumpOrders {
		d := genDump(nodes, bound, pending, o.burst, 1)
		path := filepath.Join(dir, o.name+".json")
		if err := writeDump(path, d); err != nil {
			b.Fatal(err)
		}
		for _, sub := range []string{"simulate", "explain"} {
			b.Run(o.name+"/"+sub+"/schedkit", func(b *testing.B) {
				skipSide(b, "schedkit")
				// Off the clock: the run must place every pending pod.
				var out bytes.Buffer
				check := exec.Command(bin, sub, "-f", path)
				check.Stdout = &out
				check.Stderr = &out
				if err := check.Run(); err != nil {
					b.Fatalf("%s: %v\n%s", sub, err, tail(out.String()))
				}
				// The summary line: "500 pod(s): 500 placed, 0 preempting, 0 unschedulable, 0 gated".
				if sub == "simulate" && (!strings.Contains(out.String(), ": 500 placed, ") || !strings.Contains(out.String(), " 0 unschedulable")) {
					b.Fatalf("simulate did not place the 500 pods:\n%s", tail(out.String()))
				}
				devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
				if err != nil {
					b.Fatal(err)
				}
				defer devnull.Close()
				var wall, cpu time.Duration
				var rss int64
				n := 0
				for b.Loop() {
					cmd := exec.Command(bin, sub, "-f", path)
					cmd.Stdout = devnull
					t0 := time.Now()
					if err := cmd.Start(); err != nil {
						b.Fatal(err)
					}
					stop := watchRSS(cmd.Process.Pid)
					err := cmd.Wait()
					wall += time.Since(t0)
					rss = max(rss, stop())
					if err != nil {
						b.Fatal(err)
					}
					ps := cmd.ProcessState
					cpu += ps.UserTime() + ps.SystemTime()
					n++
				}
				b.ReportMetric(float64(wall.Nanoseconds())/float64(n*pending), "ns/pod")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(n*pending), "cpu-ns/pod")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
				if rss > 0 {
					b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
				}
			})
		}
		b.Run(o.name+"/decisions/schedkit", func(b *testing.B) {
			skipSide(b, "schedkit")
			var st streamStats
			pods := 0
			for b.Loop() {
				b.StopTimer()
				k, err := newSkStream(d.nodes, d.bound, d.objects, 100, par)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				t0, c0, m0 := startStats()
				for _, p := range d.pending {
					if node, err := k.place(ctx, p); err != nil || node == "" {
						b.Fatalf("schedkit: %s/%s: %q %v", p.Namespace, p.Name, node, err)
					}
				}
				st.add(t0, c0, m0)
				b.StopTimer()
				k.Close()
				pods += len(d.pending)
				b.StartTimer()
			}
			st.report(b, pods)
		})
		b.Run(o.name+"/upstream", func(b *testing.B) {
			skipSide(b, "upstream")
			vn, vp := upstream.ConvertCluster(d.nodes, d.bound)
			_, vs := upstream.ConvertCluster(nil, d.pending)
			objs := d.upstreamObjects()
			var st streamStats
			pods := 0
			for b.Loop() {
				b.StopTimer()
				u, err := newUpStream(vn, vp, objs, 100, par)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				t0, c0, m0 := startStats()
				for _, p := range vs {
					node, _, err := u.place(p, "")
					if err != nil || node == "" {
						b.Fatalf("upstream: %s/%s: %q %v", p.Namespace, p.Name, node, err)
					}
				}
				st.add(t0, c0, m0)
				b.StopTimer()
				u.Close()
				pods += len(vs)
				b.StartTimer()
			}
			st.report(b, pods)
		})
	}
}

// tail is the last lines of a command's output, for messages.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

// TestCommandDumpAgrees places a small version of the command's dump
// (200 nodes, 4,000 bound pods, 100 pending pods of the 20 shapes, both
// orders) on both sides in lockstep, every node scored.
func TestCommandDumpAgrees(t *testing.T) {
	for _, o := range dumpOrders {
		t.Run(o.name, func(t *testing.T) {
			d := genDump(200, 4000, 100, o.burst, 1)
			lockstep(t, d.nodes, d.bound, d.objects, d.upstreamObjects(), d.pending, 100)
		})
	}
}
