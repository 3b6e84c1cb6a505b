package nodename

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// PreFilter returns the named node as the only node worth filtering when
// the pod names one.
func (pl *NodeName) PreFilter(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if pod.Spec.NodeName != "" {
		return &framework.PreFilterResult{NodeNames: map[string]struct{}{pod.Spec.NodeName: {}}}, nil
	}
	return nil, nil
}

// PreFilterExtensions returns nil.
func (pl *NodeName) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter is NodeName(pod, nodeInfo.Node()).
func (pl *NodeName) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return predicates.NodeName(pod, nodeInfo.Node())
}

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodeName) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, NodeLocalFilter: true}
}

// FilterNodes is Filter for each node; a pod that names no node fits
// them all.
func (pl *NodeName) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	if pod.Spec.NodeName == "" {
		return
	}
	for i, ni := range nodes {
		statuses[i] = predicates.NodeName(pod, ni.Node())
	}
}
