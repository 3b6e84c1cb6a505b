package customplugin

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Score is 100 on spot nodes, 0 elsewhere.
func (pl PreferSpot) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, n *cluster.NodeInfo) (int64, *framework.Status) {
	if lifecycle(n) == "spot" {
		return framework.MaxNodeScore, nil
	}
	return 0, nil
}

// ScoreExtensions returns nil: the scores are already in [0, 100].
func (pl PreferSpot) ScoreExtensions() framework.ScoreExtensions { return nil }
