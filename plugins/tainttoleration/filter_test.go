package tainttoleration

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Pins upstream tainttoleration/taint_toleration_test.go
// TestTaintTolerationFilter (the cases with the comparison-operator
// feature gate off, its default) and
// TestTaintTolerationFilterWithFeatureGate (gate disabled).
func TestTaintTolerationFilter(t *testing.T) {
	untolerated := framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
	tests := []struct {
		name       string
		pod        *api.Pod
		node       *api.Node
		wantStatus *framework.Status
	}{
		{
			name:       "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
			pod:        podWithTolerations("pod1", []api.Toleration{}),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}),
			wantStatus: untolerated,
		},
		{
			name: "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}),
		},
		{
			name:       "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
			pod:        podWithTolerations("pod1", []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}}),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}),
			wantStatus: untolerated,
		},
		{
			name: "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "foo", Operator: "Exists", Effect: "NoSchedule"}}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "foo", Value: "bar", Effect: "NoSchedule"}}),
		},
		{
			name: "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"},
				{Key: "foo", Operator: "Exists", Effect: "NoSchedule"},
			}),
			node: nodeWithTaints("nodeA", []api.Taint{
				{Key: "dedicated", Value: "user2", Effect: "NoSchedule"},
				{Key: "foo", Value: "bar", Effect: "NoSchedule"},
			}),
		},
		{
			name:       "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
			pod:        podWithTolerations("pod1", []api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}}),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "foo", Value: "bar", Effect: "NoSchedule"}}),
			wantStatus: untolerated,
		},
		{
			name: "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar"}}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "foo", Value: "bar", Effect: "NoSchedule"}}),
		},
		{
			name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "PreferNoSchedule"}}),
		},
		{
			name: "The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
			pod:  podWithTolerations("pod1", []api.Toleration{}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "PreferNoSchedule"}}),
		},
		// TestTaintTolerationFilterWithFeatureGate, gate disabled.
		{
			name:       "Pod with Gt toleration cannot be scheduled when feature gate is disabled",
			pod:        podWithTolerations("pod1", []api.Toleration{{Key: "node.kubernetes.io/sla", Operator: "Gt", Value: "750", Effect: "NoSchedule"}}),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "node.kubernetes.io/sla", Value: "950", Effect: "NoSchedule"}}),
			wantStatus: untolerated,
		},
		{
			name:       "Pod with Lt toleration cannot be scheduled when feature gate is disabled",
			pod:        podWithTolerations("pod1", []api.Toleration{{Key: "node.kubernetes.io/sla", Operator: "Lt", Value: "950", Effect: "NoSchedule"}}),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "node.kubernetes.io/sla", Value: "800", Effect: "NoSchedule"}}),
			wantStatus: untolerated,
		},
		{
			name: "Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: "NoSchedule"},
				{Key: "node.kubernetes.io/sla", Operator: "Gt", Value: "750", Effect: "NoSchedule"},
			}),
			node: nodeWithTaints("nodeA", []api.Taint{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}),
		},
		{
			name: "Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: "NoSchedule"},
				{Key: "node.kubernetes.io/sla", Operator: "Gt", Value: "750", Effect: "NoSchedule"},
			}),
			node: nodeWithTaints("nodeA", []api.Taint{
				{Key: "dedicated", Value: "user1", Effect: "NoSchedule"},
				{Key: "node.kubernetes.io/sla", Value: "950", Effect: "NoSchedule"},
			}),
			wantStatus: untolerated,
		},
		// Beyond upstream's table: NoExecute counts too.
		{
			name:       "untolerated NoExecute taint",
			pod:        podWithTolerations("pod1", nil),
			node:       nodeWithTaints("nodeA", []api.Taint{{Key: "k", Effect: "NoExecute"}}),
			wantStatus: untolerated,
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
