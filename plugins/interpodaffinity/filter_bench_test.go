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
