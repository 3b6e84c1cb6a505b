package noderesources

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

// The filter half of NodeResourcesFit as the framework runs it: PreFilter
// once per pod, then Filter per node.
func ExampleNewFit() {
	pl, err := NewFit(&config.NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com"}}, nil)
	if err != nil {
		panic(err)
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Status: api.NodeStatus{Allocatable: api.ResourceList{
		"cpu": resource.MustParse("1"), "memory": resource.MustParse("1Gi"), "pods": resource.MustParse("110"),
	}}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.PodSpec{Containers: []api.Container{{
		Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			"cpu": resource.MustParse("500m"), "memory": resource.MustParse("2Gi"), "example.com/fpga": resource.MustParse("1"),
		}},
	}}}}
	ctx, state := context.Background(), framework.NewCycleState()
	pl.(framework.PreFilterPlugin).PreFilter(ctx, state, pod, nil)
	st := pl.(framework.FilterPlugin).Filter(ctx, state, pod, cluster.NewNodeInfo(node))
	fmt.Println(pl.Name(), st.Code(), st.Reasons())
	// Output: NodeResourcesFit UnschedulableAndUnresolvable [Insufficient memory]
}
