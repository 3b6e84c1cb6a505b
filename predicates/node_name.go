package predicates

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// ErrReasonNodeName is NodeName's reason, as upstream's nodename.ErrReason.
const ErrReasonNodeName = "node(s) didn't match the requested node name"

var nodeNameStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeName)

// NodeNameFits reports whether pod may run on node by name: the pod names
// no node (spec.nodeName is empty) or names this one.
func NodeNameFits(pod *api.Pod, node *api.Node) bool {
	return pod.Spec.NodeName == "" || node != nil && pod.Spec.NodeName == node.Name
}

// NodeName is the NodeName filter as a plain function: nil if the pod
// fits the node by name, else UnschedulableAndUnresolvable with
// ErrReasonNodeName.
func NodeName(pod *api.Pod, node *api.Node) *framework.Status {
	if NodeNameFits(pod, node) {
		return nil
	}
	return nodeNameStatus
}

// NodeNamePlugin is the NodeName plugin: PreFilter narrows the nodes to
// the one the pod names, Filter rejects every other node.
type NodeNamePlugin struct{}

var (
	_ framework.PreFilterPlugin = (*NodeNamePlugin)(nil)
	_ framework.FilterPlugin    = (*NodeNamePlugin)(nil)
)

// NewNodeName is the NodeName plugin factory. NodeName takes no
// arguments; args is ignored, as upstream ignores it.
func NewNodeName(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeNamePlugin{}, nil
}

// Name returns config.NodeNameName.
func (*NodeNamePlugin) Name() string { return config.NodeNameName }

// PreFilter returns the named node as the only node worth filtering when
// the pod names one.
func (*NodeNamePlugin) PreFilter(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if pod.Spec.NodeName != "" {
		return &framework.PreFilterResult{NodeNames: map[string]struct{}{pod.Spec.NodeName: {}}}, nil
	}
	return nil, nil
}

// PreFilterExtensions returns nil.
func (*NodeNamePlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter is NodeName(pod, nodeInfo.Node()).
func (*NodeNamePlugin) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return NodeName(pod, nodeInfo.Node())
}

var _ framework.FastPathPlugin = (*NodeNamePlugin)(nil)

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodeNamePlugin) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes}
}

// FilterNodes is Filter for each node; a pod that names no node fits
// them all.
func (*NodeNamePlugin) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	if pod.Spec.NodeName == "" {
		return
	}
	for i, ni := range nodes {
		statuses[i] = NodeName(pod, ni.Node())
	}
}
