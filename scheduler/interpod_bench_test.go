package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// ipaBenchTerm is a term selecting app=<app> over topology key key.
func ipaBenchTerm(app, key string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: key}
}

// ipaBenchPods returns benchPods(n) bound round-robin to the nodes, with
// an app label of 50 and, for every other pod, pod (anti-)affinity: in
// turn required hostname anti-affinity, preferred zone affinity,
// required zone affinity and preferred hostname anti-affinity, each to
// its own app.
func ipaBenchPods(nodes []*api.Node, n int) []*api.Pod {
	pods := benchPods(n)
	for i, p := range pods {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
		app := fmt.Sprintf("app-%d", i%50)
		p.Labels = map[string]string{"app": app}
		if i%2 == 1 {
			continue
		}
		switch (i / 2) % 4 {
		case 0:
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{ipaBenchTerm(app, "kubernetes.io/hostname")}}}
		case 1:
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: ipaBenchTerm(app, "topology.kubernetes.io/zone")}}}}
		case 2:
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{ipaBenchTerm(app, "topology.kubernetes.io/zone")}}}
		case 3:
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 5, PodAffinityTerm: ipaBenchTerm(app, "kubernetes.io/hostname")}}}}
		}
	}
	return pods
}

// BenchmarkScheduleInterPodAffinity is one decision (not assumed, so
// every op sees the same cluster, after one warm-up decision) with the default profile at 5,000
// nodes and 10,000 or 100,000 bound pods, half of them with pod
// (anti-)affinity, for a plain pod and for pods with required
// anti-affinity, required affinity and preferred affinity.
func BenchmarkScheduleInterPodAffinity(b *testing.B) {
	nodes := benchNodes(5000)
	incoming := map[string]*api.Pod{}
	for _, kind := range []string{"plain", "requiredAntiAffinity", "requiredAffinity", "preferredAffinity"} {
		p := benchPods(1)[0]
		p.Name, p.UID = "incoming", "incoming"
		p.Labels = map[string]string{"app": "app-7"}
		switch kind {
		case "requiredAntiAffinity":
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{ipaBenchTerm("app-7", "kubernetes.io/hostname")}}}
		case "requiredAffinity":
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{ipaBenchTerm("app-7", "topology.kubernetes.io/zone")}}}
		case "preferredAffinity":
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: ipaBenchTerm("app-7", "kubernetes.io/hostname")}}}}
		}
		incoming[kind] = p
	}
	for _, numPods := range []int{10000, 100000} {
		existing := ipaBenchPods(nodes, numPods)
		snap, err := cluster.NewSnapshot(nodes, existing)
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(snap)
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range []string{"plain", "requiredAntiAffinity", "requiredAffinity", "preferredAffinity"} {
			b.Run(fmt.Sprintf("pods=%d/%s", numPods, kind), func(b *testing.B) {
				pod := incoming[kind]
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
		// The same pods, each scheduled and assumed: every cycle sees the
		// node the last one changed (on a copy of the snapshot).
		for _, kind := range []string{"requiredAntiAffinity", "requiredAffinity", "preferredAffinity"} {
			b.Run(fmt.Sprintf("pods=%d/%s+Assume", numPods, kind), func(b *testing.B) {
				snap2, err := cluster.NewSnapshot(nodes, existing)
				if err != nil {
					b.Fatal(err)
				}
				s2, err := New(snap2)
				if err != nil {
					b.Fatal(err)
				}
				// One decision and assume off the clock: the first
				// decision counts from scratch (see
				// BenchmarkInterPodAffinityPreFilter in predicates).
				warm := *incoming[kind]
				warm.Name, warm.UID = "warm-up", "warm-up"
				res, err := s2.Schedule(context.Background(), &warm)
				if err != nil {
					b.Fatal(err)
				}
				if err := s2.Assume(&warm, res.Node); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				i := 0
				cpu0 := cpuTime()
				for b.Loop() {
					p := *incoming[kind]
					p.Name = fmt.Sprintf("assumed-%d", i)
					p.UID = p.Name
					i++
					res, err := s2.Schedule(context.Background(), &p)
					if err != nil {
						b.Fatal(err)
					}
					if err := s2.Assume(&p, res.Node); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(i), "cpu-ns/op")
			})
		}
	}
}
