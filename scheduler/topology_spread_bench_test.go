package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// ptsBenchConstraint spreads the pods labelled app=<app> over key.
func ptsBenchConstraint(app, key string, action api.UnsatisfiableConstraintAction) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: 5, TopologyKey: key, WhenUnsatisfiable: action,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}}
}

// ptsBenchPods returns benchPods(n) bound round-robin to the nodes,
// with an app label of 50 and, for every other pod, a topology spread
// constraint over its own app: in turn zone DoNotSchedule, hostname
// ScheduleAnyway, hostname DoNotSchedule and zone ScheduleAnyway.
func ptsBenchPods(nodes []*api.Node, n int) []*api.Pod {
	pods := benchPods(n)
	keys := []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname", "kubernetes.io/hostname", "topology.kubernetes.io/zone"}
	actions := []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway, api.DoNotSchedule, api.ScheduleAnyway}
	for i, p := range pods {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
		app := fmt.Sprintf("app-%d", i%50)
		p.Labels = map[string]string{"app": app}
		if i%2 == 1 {
			continue
		}
		k := (i / 2) % 4
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{ptsBenchConstraint(app, keys[k], actions[k])}
	}
	return pods
}

// ptsBenchKinds are the incoming pods of BenchmarkScheduleTopologySpread.
var ptsBenchKinds = []string{"plain", "zoneDoNotSchedule", "hostnameDoNotSchedule", "zoneScheduleAnyway", "hostnameScheduleAnyway"}

func ptsBenchIncoming(kind string) *api.Pod {
	p := benchPods(1)[0]
	p.Name, p.UID = "incoming", "incoming"
	p.Labels = map[string]string{"app": "app-7"}
	switch kind {
	case "zoneDoNotSchedule":
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{ptsBenchConstraint("app-7", "topology.kubernetes.io/zone", api.DoNotSchedule)}
	case "hostnameDoNotSchedule":
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{ptsBenchConstraint("app-7", "kubernetes.io/hostname", api.DoNotSchedule)}
	case "zoneScheduleAnyway":
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{ptsBenchConstraint("app-7", "topology.kubernetes.io/zone", api.ScheduleAnyway)}
	case "hostnameScheduleAnyway":
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{ptsBenchConstraint("app-7", "kubernetes.io/hostname", api.ScheduleAnyway)}
	}
	return p
}

// BenchmarkScheduleTopologySpread (after BenchmarkScheduleInterPodAffinity;
// BenchmarkSpreadDecision in spread_bench_test.go has one two-constraint
// pod) is one decision with the default
// profile at 5,000 nodes and 10,000 or 100,000 bound pods, half of them
// with topology spread constraints, for a plain pod and for pods with one
// zone or hostname constraint, DoNotSchedule or ScheduleAnyway, selecting
// a fiftieth of the pods: not assumed (every op sees the same cluster,
// after one warm-up decision), then each decision assumed (every cycle
// sees the node the last one changed, on a copy of the snapshot).
func BenchmarkScheduleTopologySpread(b *testing.B) {
	nodes := benchNodes(5000)
	for _, numPods := range []int{10000, 100000} {
		existing := ptsBenchPods(nodes, numPods)
		snap, err := cluster.NewSnapshot(nodes, existing)
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(snap)
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range ptsBenchKinds {
			b.Run(fmt.Sprintf("pods=%d/%s", numPods, kind), func(b *testing.B) {
				pod := ptsBenchIncoming(kind)
				// One decision off the clock, so that the plugins' kept
				// counts are warm, as in a run of replicas.
				if _, err := s.Schedule(context.Background(), pod); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu0, n := cpuTime(), 0
				for b.Loop() {
					n++
					if _, err := s.Schedule(context.Background(), pod); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
			})
		}
		for _, kind := range ptsBenchKinds[1:] {
			b.Run(fmt.Sprintf("pods=%d/%s+Assume", numPods, kind), func(b *testing.B) {
				snap2, err := cluster.NewSnapshot(nodes, existing)
				if err != nil {
					b.Fatal(err)
				}
				s2, err := New(snap2)
				if err != nil {
					b.Fatal(err)
				}
				warm := ptsBenchIncoming(kind)
				warm.Name, warm.UID = "warm-up", "warm-up"
				res, err := s2.Schedule(context.Background(), warm)
				if err != nil {
					b.Fatal(err)
				}
				if err := s2.Assume(warm, res.Node); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				i := 0
				cpu0 := cpuTime()
				for b.Loop() {
					p := ptsBenchIncoming(kind)
					p.Name = fmt.Sprintf("assumed-%d", i)
					p.UID = p.Name
					i++
					res, err := s2.Schedule(context.Background(), p)
					if err != nil {
						b.Fatal(err)
					}
					if err := s2.Assume(p, res.Node); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(i), "cpu-ns/op")
			})
		}
	}
}
