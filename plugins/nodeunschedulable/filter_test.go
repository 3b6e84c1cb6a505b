package nodeunschedulable

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Pins upstream nodeunschedulable/node_unschedulable_test.go
// TestNodeUnschedulable.
func TestNodeUnschedulable(t *testing.T) {
	tests := []struct {
		name       string
		pod        *api.Pod
		node       *api.Node
		wantStatus *framework.Status
	}{
		{
			name:       "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
			pod:        &api.Pod{},
			node:       &api.Node{Spec: api.NodeSpec{Unschedulable: true}},
			wantStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were unschedulable"),
		},
		{
			name: "Schedule pod to normal node",
			pod:  &api.Pod{},
			node: &api.Node{Spec: api.NodeSpec{Unschedulable: false}},
		},
		{
			name: "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
			pod: &api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{
				{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule},
			}}},
			node: &api.Node{Spec: api.NodeSpec{Unschedulable: true}},
		},
		// Beyond upstream's table: an Exists toleration of every key
		// tolerates the unschedulable taint; a NoExecute one does not.
		{
			name: "wildcard toleration",
			pod:  &api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{{Operator: api.TolerationOpExists}}}},
			node: &api.Node{Spec: api.NodeSpec{Unschedulable: true}},
		},
		{
			name: "toleration of another effect",
			pod: &api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{
				{Key: "node.kubernetes.io/unschedulable", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
			}}},
			node:       &api.Node{Spec: api.NodeSpec{Unschedulable: true}},
			wantStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were unschedulable"),
		},
	}
	p, _ := New(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.(framework.FilterPlugin).Filter(context.Background(), nil, tc.pod, cluster.NewNodeInfo(tc.node))
			checkStatus(t, "Filter", got, tc.wantStatus)
		})
	}
}
