package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

func ExampleFits() {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Status: api.NodeStatus{Allocatable: api.ResourceList{
		"cpu": resource.MustParse("2"), "memory": resource.MustParse("4Gi"), "pods": resource.MustParse("110"),
	}}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "big"}, Spec: api.PodSpec{Containers: []api.Container{{
		Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			"cpu": resource.MustParse("3"), "memory": resource.MustParse("1Gi"), "nvidia.com/gpu": resource.MustParse("1"),
		}},
	}}}}
	for _, r := range Fits(pod, cluster.NewNodeInfo(node)) {
		fmt.Printf("%s: requested %d, used %d, capacity %d, unresolvable %v\n", r.Reason, r.Requested, r.Used, r.Capacity, r.Unresolvable)
	}
	st := NodeResourcesFit(pod, cluster.NewNodeInfo(node))
	fmt.Println(st.Code(), st.Reasons())
	// Output:
	// Insufficient cpu: requested 3000, used 0, capacity 2000, unresolvable true
	// Insufficient nvidia.com/gpu: requested 1, used 0, capacity 0, unresolvable true
	// UnschedulableAndUnresolvable [Insufficient cpu Insufficient nvidia.com/gpu]
}
