package autoscaler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/autoscaler"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

func node(name, cpu string, taints ...api.Taint) *api.Node {
	alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("16Gi"), api.ResourcePods: quantity.MustParse("110")}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Spec: api.NodeSpec{Taints: taints}, Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
}

func pod(name, cpu, node string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", Controller: new(true)}}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}},
	}
}

// Five pending pods of 3 cpus on a full cluster: the least-waste
// expander prefers 4-cpu nodes (one pod each wastes less than two on an
// 8-cpu node and one left over), and a pod that needs 12 cpus fits no
// group.
func ExamplePlanScaleUp() {
	snap, err := cluster.NewSnapshot([]*api.Node{node("node-a", "4")}, []*api.Pod{pod("running", "4", "node-a")})
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	var pending []*api.Pod
	for i := range 3 {
		pending = append(pending, pod(fmt.Sprintf("web-%d", i), "3", ""))
	}
	pending = append(pending, pod("big", "12", ""))
	up, err := autoscaler.PlanScaleUp(context.Background(), s, pending, autoscaler.ScaleUpOptions{
		Groups:   []autoscaler.NodeGroup{{Name: "small", Template: node("small", "4")}, {Name: "large", Template: node("large", "8")}},
		Expander: autoscaler.LeastWaste,
	})
	if err != nil {
		panic(err)
	}
	for _, n := range up.Nodes {
		fmt.Println("add", n.Node.Name)
	}
	for _, pl := range up.Placements {
		fmt.Printf("%s → %q\n", pl.Pod.Name, pl.Node)
	}
	for _, nh := range up.NotHelped {
		fmt.Println(nh.Pod.Name, "fits no group:", nh.Reasons["small"])
	}
	// Output:
	// add template-node-for-small-0
	// add template-node-for-small-1
	// add template-node-for-small-2
	// web-0 → "template-node-for-small-0"
	// web-1 → "template-node-for-small-1"
	// web-2 → "template-node-for-small-2"
	// big → ""
	// big fits no group: NodeResourcesFit: Insufficient cpu
}

// Three nodes, two of them lightly used: node-c's pod moves where the
// scheduler's scores send it (node-b, the least allocated), then node-b's
// pods have no room left anywhere.
func ExamplePlanScaleDown() {
	snap, err := cluster.NewSnapshot(
		[]*api.Node{node("node-a", "4"), node("node-b", "4"), node("node-c", "4")},
		[]*api.Pod{pod("a", "3", "node-a"), pod("b", "1500m", "node-b"), pod("c", "1", "node-c")})
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	down, err := autoscaler.PlanScaleDown(context.Background(), s, autoscaler.ScaleDownOptions{UtilizationThreshold: 0.5})
	if err != nil {
		panic(err)
	}
	for _, r := range down.Removed {
		for _, m := range r.Moves {
			fmt.Printf("remove %s: %s → %s\n", r.Node, m.Pod.Name, m.To)
		}
	}
	for _, k := range down.Kept {
		fmt.Printf("keep %s: %s\n", k.Node, k.Reason)
	}
	// Output:
	// remove node-c: c → node-b
	// keep node-a: NotUnderutilized
	// keep node-b: NoPlaceToMovePods
}
