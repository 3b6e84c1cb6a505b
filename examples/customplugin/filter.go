package customplugin

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// retiring is Filter's status for a retiring node. It is shared and never
// modified, so Filter allocates nothing.
var retiring = framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) are retiring")

// Filter rejects a node labelled lifecycle=retiring.
func (pl PreferSpot) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, n *cluster.NodeInfo) *framework.Status {
	if lifecycle(n) == "retiring" {
		return retiring
	}
	return nil
}

// FilterNodes is Filter for each node.
func (pl PreferSpot) FilterNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	for i, n := range nodes {
		statuses[i] = pl.Filter(ctx, state, pod, n)
	}
}
