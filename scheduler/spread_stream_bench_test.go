package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// spreadStreamCluster is scheduler_perf's topology_spreading cluster at
// n nodes: nodes in three zones, n plain pods bound round robin.
func spreadStreamCluster(b testing.TB, n int) *cluster.Snapshot {
	nodes := benchNodes(n)
	for i, nd := range nodes {
		nd.Labels = map[string]string{"kubernetes.io/hostname": nd.Name, "topology.kubernetes.io/zone": fmt.Sprintf("moon-%d", i%3+1)}
	}
	pods := benchPods(n)
	for i, p := range pods {
		p.Namespace = "init"
		p.Spec.NodeName = nodes[i%n].Name
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		panic(err)
	}
	return snap
}

// spreadStreamPod is the i-th measured pod of a spread stream: kind
// "preferred" (a zone ScheduleAnyway constraint, maxSkew 5) or
// "default" (a Service's pod: the system default constraints).
func spreadStreamPod(kind string, i int) *api.Pod {
	p := benchPods(1)[0]
	p.Name = fmt.Sprintf("%s-%05d", kind, i)
	p.UID = p.Name
	switch kind {
	case "preferred":
		p.Namespace = "measure"
		p.Labels = map[string]string{"color": "blue"}
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 5, TopologyKey: "topology.kubernetes.io/zone",
			WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": "blue"}}}}
	case "default":
		p.Namespace = "service-ns"
		p.Labels = map[string]string{"app": "scheduler-perf"}
	}
	return p
}

// BenchmarkSpreadStream is a stream of new spread pods, each scheduled
// and assumed before the next, at 500 and 5,000 nodes with every node
// scored (scheduler_perf's PreferredTopologySpreading and
// DefaultTopologySpreading, which the conformance module's
// BenchmarkStream runs beside upstream). An op is one pod.
func BenchmarkSpreadStream(b *testing.B) {
	for _, n := range []int{500, 5000} {
		for _, kind := range []string{"plain", "preferred", "default"} {
			b.Run(fmt.Sprintf("nodes=%d/%s", n, kind), func(b *testing.B) {
				snap := spreadStreamCluster(b, n)
				svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "service-0", Namespace: "service-ns", UID: "uid-service-0"},
					Spec: api.ServiceSpec{Selector: map[string]string{"app": "scheduler-perf"}}}
				if err := snap.AddObjects(svc); err != nil {
					b.Fatal(err)
				}
				s, err := New(snap, WithPercentageOfNodesToScore(100), WithParallelism(2), WithSeed(1))
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				ctx := context.Background()
				place := func(i int) {
					p := spreadStreamPod(kind, i)
					res, err := s.Schedule(ctx, p)
					if err != nil {
						b.Fatal(err)
					}
					if err := s.Assume(p, res.Node); err != nil {
						b.Fatal(err)
					}
				}
				place(0)
				b.ReportAllocs()
				i, cpu0 := 1, cpuTime()
				for b.Loop() {
					place(i)
					i++
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(i-1), "cpu-ns/op")
			})
		}
	}
}
