package scheduler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// Why a pod fits nowhere, and the smallest verified change per node.
func ExampleScheduler_ExplainWhyNot() {
	cordoned := node("node-a", "8", nil)
	cordoned.Spec.Unschedulable = true
	tainted := node("node-c", "8", nil)
	tainted.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	snap, err := cluster.NewSnapshot([]*api.Node{cordoned, node("node-b", "2", nil), tainted}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ex, err := s.ExplainWhyNot(context.Background(), pod("big", "4"))
	if err != nil {
		panic(err)
	}
	fmt.Println(ex.WhyNot.Summary())
	for _, sg := range ex.WhyNot.Nodes {
		fmt.Printf("%s: %s\n", sg.Node, sg.Text)
	}
	fmt.Println("cheapest:", ex.WhyNot.Best.Node)
	// Output:
	// cpu exhausted on 1 node, node(s) were unschedulable on 1 node, taint dedicated=gpu:NoSchedule on 1 node
	// node-a: uncordon node node-a
	// node-b: lower the request of cpu to 2 (from 4)
	// node-c: tolerate taint dedicated=gpu:NoSchedule
	// cheapest: node-b
}

// Which score plugin decided where a pod went.
func ExampleExplanation_LeaveOneOut() {
	// The small node has the pod's image; the large one more room.
	small := node("small", "4", nil)
	small.Status.Images = []api.ContainerImage{{Names: []string{"registry.example/web:v1"}, SizeBytes: 800 << 20}}
	snap, err := cluster.NewSnapshot([]*api.Node{small, node("large", "16", nil)}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	web := pod("web", "1")
	web.Spec.Containers[0].Image = "registry.example/web:v1"
	ex, err := s.Explain(context.Background(), web)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", ex.Node)
	for _, inf := range ex.LeaveOneOut() {
		fmt.Printf("%s×%d: without it %s", inf.Plugin, inf.Weight, inf.Without)
		if inf.FlipWeight > 0 {
			fmt.Printf(", at weight %d %s wins", inf.FlipWeight, inf.FlipNode)
		}
		fmt.Println()
	}
	// Output:
	// winner: small
	// TaintToleration×3: without it small
	// NodeResourcesFit×1: without it small, at weight 4 large wins
	// VolumeBinding×1: without it small
	// NodeResourcesBalancedAllocation×1: without it small, at weight 6 large wins
	// ImageLocality×1: without it large
}
