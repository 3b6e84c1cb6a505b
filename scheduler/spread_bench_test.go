package scheduler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/podtopologyspread"
)

// spreadBenchCluster is 5,000 benchNodes (10 zones) holding numPods
// requests-only pods spread evenly over the nodes, every other one
// labelled app=spread (the incoming pod's spread selector).
func spreadBenchCluster(b *testing.B, numPods int) *cluster.Snapshot {
	b.Helper()
	nodes := benchNodes(5000)
	pods := benchPods(numPods)
	for i, p := range pods {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
		p.Name = fmt.Sprintf("pod-%06d", i)
		p.UID = p.Name
		if i%2 == 0 {
			p.Labels = map[string]string{"app": "spread"}
		} else {
			p.Labels = map[string]string{"app": "other"}
		}
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		b.Fatal(err)
	}
	return snap
}

// spreadBenchPod is the incoming pod of the spread benchmarks: a zone
// constraint with DoNotSchedule (maxSkew 1) and a hostname constraint
// with ScheduleAnyway (maxSkew 1), both over app=spread.
func spreadBenchPod() *api.Pod {
	pod := benchPods(2)[1]
	pod.Name, pod.UID = "incoming", "incoming"
	pod.Labels = map[string]string{"app": "spread"}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel},
		{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: sel},
	}
	return pod
}

var spreadBenchSizes = []int{10000, 100000}

// BenchmarkSpreadDecision is one scheduling decision (Schedule, not
// assumed, so every op sees the same cluster) of spreadBenchPod with the
// default profile on 5,000 nodes holding 10,000 or 100,000 pods, half of
// them matching the spread selector; with default sampling and with
// every node scored.
func BenchmarkSpreadDecision(b *testing.B) {
	for _, n := range spreadBenchSizes {
		snap := spreadBenchCluster(b, n)
		for _, bc := range []struct {
			name string
			opts []Option
		}{
			{"default-sampling", nil},
			{"all-nodes", []Option{WithPercentageOfNodesToScore(100)}},
		} {
			b.Run(fmt.Sprintf("pods=%d/%s", n, bc.name), func(b *testing.B) {
				s, err := New(snap, bc.opts...)
				if err != nil {
					b.Fatal(err)
				}
				pod := spreadBenchPod()
				ctx := context.Background()
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := s.Schedule(ctx, pod); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

type spreadBenchHandle struct{ s *cluster.Snapshot }

func (h spreadBenchHandle) Snapshot() *cluster.Snapshot { return h.s }

// BenchmarkSpreadPhases times PodTopologySpread's extension points alone
// for spreadBenchPod at 10,000 and 100,000 pods: PreFilter and PreScore
// once per op (per pod work, which may grow with the pods), and Filter
// and Score over every node, node by node and through FilterNodes and
// ScoreNodes (the engine's fast path), reported per node (which must
// not grow).
func BenchmarkSpreadPhases(b *testing.B) {
	for _, n := range spreadBenchSizes {
		snap := spreadBenchCluster(b, n)
		h := spreadBenchHandle{snap}
		p, err := podtopologyspread.New(nil, h)
		if err != nil {
			b.Fatal(err)
		}
		filter := p.(*podtopologyspread.PodTopologySpread)
		score := filter
		nodes := snap.View().Nodes()
		pod := spreadBenchPod()
		ctx := context.Background()
		prepared := func(b *testing.B) *framework.CycleState {
			state := framework.NewCycleState()
			if _, st := filter.PreFilter(ctx, state, pod, nodes); !st.IsSuccess() {
				b.Fatal(st)
			}
			if st := score.PreScore(ctx, state, pod, nodes); !st.IsSuccess() {
				b.Fatal(st)
			}
			return state
		}
		b.Run(fmt.Sprintf("pods=%d/PreFilter", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, st := filter.PreFilter(ctx, framework.NewCycleState(), pod, nodes); !st.IsSuccess() {
					b.Fatal(st)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		b.Run(fmt.Sprintf("pods=%d/PreScore", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if st := score.PreScore(ctx, framework.NewCycleState(), pod, nodes); !st.IsSuccess() {
					b.Fatal(st)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		perNode := func(b *testing.B, cpu time.Duration) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(nodes)), "ns/node")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(nodes)), "cpu-ns/node")
		}
		b.Run(fmt.Sprintf("pods=%d/Filter-per-node", n), func(b *testing.B) {
			state := prepared(b)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				for _, ni := range nodes {
					filter.Filter(ctx, state, pod, ni)
				}
			}
			perNode(b, cpuTime()-cpu0)
		})
		b.Run(fmt.Sprintf("pods=%d/FilterNodes-per-node", n), func(b *testing.B) {
			state := prepared(b)
			statuses := make([]*framework.Status, len(nodes))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				clear(statuses)
				filter.FilterNodes(ctx, state, pod, nodes, statuses)
			}
			perNode(b, cpuTime()-cpu0)
		})
		b.Run(fmt.Sprintf("pods=%d/ScoreNodes-per-node", n), func(b *testing.B) {
			state := prepared(b)
			scores := make([]int64, len(nodes))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if i, st := score.ScoreNodes(ctx, state, pod, nodes, scores); i >= 0 {
					b.Fatal(st)
				}
			}
			perNode(b, cpuTime()-cpu0)
		})
		b.Run(fmt.Sprintf("pods=%d/Score-per-node", n), func(b *testing.B) {
			state := prepared(b)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				for _, ni := range nodes {
					if _, st := score.Score(ctx, state, pod, ni); !st.IsSuccess() {
						b.Fatal(st)
					}
				}
			}
			perNode(b, cpuTime()-cpu0)
		})
	}
}
