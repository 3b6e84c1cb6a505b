package predicates

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/taints"
)

// TaintNodeUnschedulable is the key of the taint a cordoned node carries
// and that a pod tolerates to run on one anyway.
const TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"

// ErrReasonNodeUnschedulable is NodeUnschedulable's reason, as upstream's
// ErrReasonUnschedulable.
const ErrReasonNodeUnschedulable = "node(s) were unschedulable"

var unschedulableStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeUnschedulable)

// NodeUnschedulable is the NodeUnschedulable filter as a plain function:
// nil unless the node is cordoned (spec.unschedulable) and the pod does
// not tolerate the node.kubernetes.io/unschedulable:NoSchedule taint, in
// which case UnschedulableAndUnresolvable with
// ErrReasonNodeUnschedulable.
func NodeUnschedulable(pod *api.Pod, node *api.Node) *framework.Status {
	if node == nil || !node.Spec.Unschedulable {
		return nil
	}
	if taints.TolerationsTolerate(pod.Spec.Tolerations, api.Taint{Key: TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return nil
	}
	return unschedulableStatus
}

// NodeUnschedulablePlugin is the NodeUnschedulable plugin.
type NodeUnschedulablePlugin struct{}

var _ framework.FilterPlugin = (*NodeUnschedulablePlugin)(nil)

// NewNodeUnschedulable is the NodeUnschedulable factory. It takes no
// arguments; args is ignored.
func NewNodeUnschedulable(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeUnschedulablePlugin{}, nil
}

// Name returns config.NodeUnschedulableName.
func (*NodeUnschedulablePlugin) Name() string { return config.NodeUnschedulableName }

// Filter is NodeUnschedulable(pod, nodeInfo.Node()).
func (*NodeUnschedulablePlugin) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return NodeUnschedulable(pod, nodeInfo.Node())
}

var _ framework.FastPathPlugin = (*NodeUnschedulablePlugin)(nil)

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodeUnschedulablePlugin) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes}
}

// FilterNodes is Filter for each node.
func (*NodeUnschedulablePlugin) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	for i, ni := range nodes {
		if ni.Unschedulable() {
			statuses[i] = NodeUnschedulable(pod, ni.Node())
		}
	}
}
