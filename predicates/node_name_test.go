package predicates

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Pins upstream nodename/node_name_test.go TestNodeName.
func TestNodeName(t *testing.T) {
	tests := []struct {
		pod        *api.Pod
		node       *api.Node
		name       string
		wantStatus *framework.Status
	}{
		{pod: &api.Pod{}, node: &api.Node{}, name: "no host specified"},
		{pod: &api.Pod{Spec: api.PodSpec{NodeName: "foo"}}, node: &api.Node{ObjectMeta: api.ObjectMeta{Name: "foo"}}, name: "host matches"},
		{pod: &api.Pod{Spec: api.PodSpec{NodeName: "bar"}}, node: &api.Node{ObjectMeta: api.ObjectMeta{Name: "foo"}}, name: "host doesn't match",
			wantStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match the requested node name")},
	}
	p, err := NewNodeName(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.(framework.FilterPlugin).Filter(context.Background(), nil, tc.pod, cluster.NewNodeInfo(tc.node))
			checkStatus(t, "Filter", got, tc.wantStatus)
			checkStatus(t, "NodeName", NodeName(tc.pod, tc.node), tc.wantStatus)
		})
	}
}

// Pins upstream TestNodeName_PreFilter.
func TestNodeNamePreFilter(t *testing.T) {
	p := &NodeNamePlugin{}
	res, st := p.PreFilter(context.Background(), nil, &api.Pod{Spec: api.PodSpec{NodeName: "foo"}}, nil)
	if !st.IsSuccess() {
		t.Fatal(st)
	}
	if diff := cmp.Diff(&framework.PreFilterResult{NodeNames: map[string]struct{}{"foo": {}}}, res); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
	res, st = p.PreFilter(context.Background(), nil, &api.Pod{}, nil)
	if res != nil || !st.IsSuccess() {
		t.Errorf("unassigned pod: got %v, %v", res, st)
	}
	if p.Name() != "NodeName" || p.PreFilterExtensions() != nil {
		t.Error("name or extensions")
	}
}

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
	p, _ := NewNodeUnschedulable(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.(framework.FilterPlugin).Filter(context.Background(), nil, tc.pod, cluster.NewNodeInfo(tc.node))
			checkStatus(t, "Filter", got, tc.wantStatus)
		})
	}
}

func nodeWithTaints(name string, ts []api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Taints: ts}}
}

func podWithTolerations(name string, tols []api.Toleration) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{Tolerations: tols}}
}

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
	p, _ := NewTaintToleration(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.(framework.FilterPlugin).Filter(context.Background(), nil, tc.pod, cluster.NewNodeInfo(tc.node))
			checkStatus(t, "Filter", got, tc.wantStatus)
		})
	}
}

func ExampleNodeUnschedulable() {
	cordoned := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Spec: api.NodeSpec{Unschedulable: true}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	st := NodeUnschedulable(pod, cordoned)
	fmt.Println(st.Code(), st.Message())

	pod.Spec.Tolerations = []api.Toleration{{Key: TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	fmt.Println(NodeUnschedulable(pod, cordoned).IsSuccess())
	// Output:
	// UnschedulableAndUnresolvable node(s) were unschedulable
	// true
}

func ExampleTaintToleration() {
	node := nodeWithTaints("n1", []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	fmt.Println(TaintToleration(pod, node))
	taint, _ := UntoleratedTaint(pod, node)
	fmt.Println(taint.Key, taint.Value, taint.Effect)
	// Output:
	// UnschedulableAndUnresolvable: node(s) had untolerated taint(s)
	// dedicated gpu NoSchedule
}
