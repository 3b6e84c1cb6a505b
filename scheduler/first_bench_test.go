package scheduler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// BenchmarkFirstDecision times the first decision of a plain pod on a
// fresh 5,000-node cluster with 1,000 pods bound (scheduler_perf's
// SchedulingBasic): each op builds the
// snapshot and the scheduler off the clock, collects garbage, then
// times one Schedule. It is the core module's twin of the conformance
// module's FirstDecision/SchedulingBasic rows. FIRST_CPUPROFILE names a
// file for a CPU profile of the run at 2 kHz (focus on Schedule and the
// engine's workers to see the decisions).
func BenchmarkFirstDecision(b *testing.B) {
	const numNodes, numPods = 5000, 1000
	nodes := perfNodes(numNodes, nil)
	bound := make([]*api.Pod, numPods)
	for i := range bound {
		bound[i] = perfPod(fmt.Sprintf("init-%05d", i), "sched-0", "basic", nil)
		bound[i].Spec.NodeName = nodes[i%numNodes].Name
	}
	pod := perfPod("measured", "sched-1", "basic", nil)
	if name := os.Getenv("FIRST_CPUPROFILE"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		runtime.SetCPUProfileRate(2000)
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	for _, bc := range []struct {
		name string
		opts []Option
	}{
		{"sampled", nil},
		{"all-nodes", []Option{WithPercentageOfNodesToScore(100)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				snap, err := cluster.NewSnapshot(nodes, bound)
				if err != nil {
					b.Fatal(err)
				}
				s, err := New(snap, append(bc.opts, WithParallelism(2), WithSeed(1))...)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				c0 := cpuTime()
				if _, err := s.Schedule(ctx, pod); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
