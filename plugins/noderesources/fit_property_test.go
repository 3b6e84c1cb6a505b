package noderesources

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// The plugin's Filter (shared fixed-reason statuses, no allocation)
// agrees with the status built from FitsRequest's full list: same code,
// same reasons in the same order.
func TestPropertyFilterMatchesFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alloc := resourcegen.ResourceList().Draw(t, "allocatable")
		if alloc == nil {
			alloc = api.ResourceList{}
		}
		alloc[api.ResourcePods] = resource.NewQuantity(rapid.Int64Range(0, 4).Draw(t, "maxPods"), resource.DecimalSI)
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Status: api.NodeStatus{Allocatable: alloc}}
		var pods []*api.Pod
		for i := rapid.IntRange(0, 3).Draw(t, "pods"); i > 0; i-- {
			p := resourcegen.Pod().Draw(t, "existing")
			p.Name = fmt.Sprint("p", i)
			pods = append(pods, p)
		}
		ni := cluster.NewNodeInfo(node, pods...)
		pod := resourcegen.Pod().Draw(t, "pod")
		args := config.NodeResourcesFitArgs{}
		if rapid.Bool().Draw(t, "ignoreGPU") {
			args.IgnoredResourceGroups = []string{"example.com"}
		}
		p, err := NewFit(args, nil)
		if err != nil {
			t.Fatal(err)
		}
		state := framework.NewCycleState()
		p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, nil)
		got := p.(framework.FilterPlugin).Filter(context.Background(), state, pod, ni)

		req := predicates.PodFitRequest(pod)
		list := predicates.FitsRequest(&req, ni, args.IgnoredResources, args.IgnoredResourceGroups)
		var want *framework.Status
		if len(list) > 0 {
			code := framework.Unschedulable
			var reasons []string
			for _, r := range list {
				reasons = append(reasons, r.Reason)
				if r.Unresolvable {
					code = framework.UnschedulableAndUnresolvable
				}
			}
			want = framework.NewStatus(code, reasons...)
		}
		if !got.Equal(want) {
			t.Fatalf("Filter %v %q, FitsRequest %v %q", got.Code(), got.Reasons(), want.Code(), want.Reasons())
		}
		if len(args.IgnoredResourceGroups) == 0 && !predicates.NodeResourcesFit(pod, ni).Equal(want) {
			t.Fatalf("NodeResourcesFit disagrees")
		}
	})
}
