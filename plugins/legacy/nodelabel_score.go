package legacy

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// nodeNotFound is the legacy score plugins' error for a NodeInfo
// without a node, as upstream words it.
var nodeNotFound = framework.NewStatus(framework.Error, "node not found")

// Score is NodeLabelScore with the plugin's preferences; without a node,
// an error, as upstream.
func (pl *NodeLabel) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	if node == nil {
		return 0, nodeNotFound
	}
	return priorities.NodeLabelScore(pl.args.PresentLabelsPreference, pl.args.AbsentLabelsPreference, node), nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (pl *NodeLabel) ScoreExtensions() framework.ScoreExtensions { return nil }
