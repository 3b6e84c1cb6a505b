package scheduler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// Replicas with required pod anti-affinity on kubernetes.io/hostname
// spread one per node, as the InterPodAffinity plugin of the default
// profile requires; a third replica on two nodes does not fit.
func ExampleScheduler_Schedule_podAntiAffinity() {
	var nodes []*api.Node
	for _, n := range []string{"node-a", "node-b"} {
		nodes = append(nodes, node(n, "8", map[string]string{"kubernetes.io/hostname": n}))
	}
	snap, _ := cluster.NewSnapshot(nodes, nil)
	s, _ := scheduler.New(snap)
	replica := func(name string) *api.Pod {
		p := pod(name, "1")
		p.Labels = map[string]string{"app": "web"}
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				TopologyKey:   "kubernetes.io/hostname",
			}},
		}}
		return p
	}
	for _, name := range []string{"web-0", "web-1", "web-2"} {
		p := replica(name)
		res, err := s.Schedule(context.Background(), p)
		if err != nil {
			fmt.Println(name, err)
			continue
		}
		_ = s.Assume(p, res.Node)
		fmt.Println(name, "->", res.Node)
	}
	// Output:
	// web-0 -> node-a
	// web-1 -> node-b
	// web-2 0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.
}
