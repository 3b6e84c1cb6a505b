package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/cluster"
)

// BenchmarkScheduleLoaded schedules and assumes requests-only pods on
// 5,000 nodes already running 150,000 pods (30 each), with default
// sampling and with every node scored, and reports the CPU time per
// decision (user+system, all threads) beside the wall time: the measure
// of whether helper goroutines pay.
func BenchmarkScheduleLoaded(b *testing.B) {
	const numNodes, perNode, numPods = 5000, 30, 5000
	nodes := benchNodes(numNodes)
	bound := benchPods(numNodes * perNode)
	for i, p := range bound {
		p.Name = fmt.Sprintf("bound-%06d", i)
		p.UID = p.Name
		p.Spec.NodeName = nodes[i%numNodes].Name
	}
	pods := benchPods(numPods)
	for _, bc := range []struct {
		name string
		opts []Option
	}{
		{"default-sampling", nil},
		{"all-nodes", []Option{WithPercentageOfNodesToScore(100)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			mk := func() *Scheduler {
				snap, err := cluster.NewSnapshot(nodes, bound)
				if err != nil {
					b.Fatal(err)
				}
				s, err := New(snap, bc.opts...)
				if err != nil {
					b.Fatal(err)
				}
				return s
			}
			s := mk()
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%numPods == 0 {
					b.StopTimer()
					s.Close()
					s = mk()
					b.StartTimer()
				}
				pod := pods[i%numPods]
				res, err := s.Schedule(ctx, pod)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Assume(pod, res.Node); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/pod")
		})
	}
}
