package nodeunschedulable

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// Filter is NodeUnschedulable(pod, nodeInfo.Node()).
func (pl *NodeUnschedulable) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return predicates.NodeUnschedulable(pod, nodeInfo.Node())
}

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodeUnschedulable) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, NodeLocalFilter: true}
}

// FilterNodes is Filter for each node.
func (pl *NodeUnschedulable) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	for i, ni := range nodes {
		if ni.Unschedulable() {
			statuses[i] = predicates.NodeUnschedulable(pod, ni.Node())
		}
	}
}
