package interpodaffinity

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// ipaBenchCluster is 5,000 nodes in 10 zones with pods bound round
// robin, half of them with required hostname anti-affinity or required
// zone affinity to their own app (one of 50).
func ipaBenchCluster(numPods int) ([]*api.Node, []*api.Pod) {
	var nodes []*api.Node
	for i := range 5000 {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, ipaNode(name, map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%10)}))
	}
	var pods []*api.Pod
	for i := range numPods {
		app := fmt.Sprintf("app-%d", i%50)
		b := mkPod("default", nodes[i%len(nodes)].Name, map[string]string{"app": app})
		switch i % 4 {
		case 0:
			b.ReqAnti(term("kubernetes.io/hostname", &api.LabelSelector{MatchLabels: map[string]string{"app": app}}))
		case 2:
			b.ReqAff(term("topology.kubernetes.io/zone", &api.LabelSelector{MatchLabels: map[string]string{"app": app}}))
		}
		p := b.Obj()
		p.Name = fmt.Sprintf("pod-%06d", i)
		pods = append(pods, p)
	}
	return nodes, pods
}

// BenchmarkInterPodAffinityPreFilter is PreFilter for a pod with required
// zone affinity at 5,000 nodes: "cold" with a new plugin every time (a
// full count, as upstream's), "warm" with the plugin's counts kept from
// the last cycle over the same nodes.
func BenchmarkInterPodAffinityPreFilter(b *testing.B) {
	pod := mkPod("default", "", map[string]string{"app": "app-7"}).ReqAff(term("topology.kubernetes.io/zone", &api.LabelSelector{MatchLabels: map[string]string{"app": "app-7"}})).Obj()
	for _, numPods := range []int{10000, 100000} {
		nodes, pods := ipaBenchCluster(numPods)
		snap, err := ipaSnapshot(nodes, pods, nil)
		if err != nil {
			b.Fatal(err)
		}
		infos := snap.View().Nodes()
		for _, warm := range []bool{false, true} {
			b.Run(fmt.Sprintf("pods=%d/warm=%v", numPods, warm), func(b *testing.B) {
				pl, _ := New(nil, ipaHandle{Snap: snap})
				if warm {
					pl.(*InterPodAffinity).PreFilter(context.Background(), framework.NewCycleState(), pod, infos)
				}
				b.ReportAllocs()
				for b.Loop() {
					if !warm {
						pl, _ = New(nil, ipaHandle{Snap: snap})
					}
					if _, st := pl.(*InterPodAffinity).PreFilter(context.Background(), framework.NewCycleState(), pod, infos); st != nil {
						b.Fatal(st)
					}
				}
			})
		}
	}
}

// BenchmarkInterPodAffinityFirstCount is a new plugin's PreFilter and
// PreScore (the first decision of a pod shape) at 2,000 nodes in 3
// zones for a pod with required hostname anti-affinity and preferred
// zone affinity to the 200 pods of app=target, among 40,000 or 400,000
// bound pods that its terms do not match. "index" finds the matching
// pods through the snapshot's pod index, "plain" reads every pod: the
// first's cost does not grow with the pods that do not match.
func BenchmarkInterPodAffinityFirstCount(b *testing.B) {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "target"}}
	pod := mkPod("default", "", map[string]string{"app": "target"}).ReqAnti(term("kubernetes.io/hostname", sel)).Obj()
	pod.Spec.Affinity.PodAffinity = &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{
		Weight: 10, PodAffinityTerm: term("topology.kubernetes.io/zone", sel)}}}
	var nodes []*api.Node
	for i := range 2000 {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, ipaNode(name, map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3)}))
	}
	for _, others := range []int{40000, 400000} {
		var pods []*api.Pod
		for i := range 200 + others {
			app := "target"
			if i >= 200 {
				app = fmt.Sprintf("other-%d", i%200)
			}
			p := mkPod("default", nodes[(i*7)%len(nodes)].Name, map[string]string{"app": app}).Obj()
			p.Name = fmt.Sprintf("pod-%06d", i)
			pods = append(pods, p)
		}
		snap, err := ipaSnapshot(nodes, pods, nil)
		if err != nil {
			b.Fatal(err)
		}
		infos := snap.View().Nodes()
		for _, plain := range []bool{false, true} {
			name := "index"
			if plain {
				name = "plain"
			}
			b.Run(fmt.Sprintf("pods=%d/%s", 200+others, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					pl, _ := New(nil, ipaHandle{Snap: snap})
					p := pl.(*InterPodAffinity)
					p.cache.noIndex = plain
					state := framework.NewCycleState()
					if _, st := p.PreFilter(context.Background(), state, pod, infos); st != nil {
						b.Fatal(st)
					}
					if st := p.PreScore(context.Background(), state, pod, infos); st != nil {
						b.Fatal(st)
					}
				}
			})
		}
	}
}
