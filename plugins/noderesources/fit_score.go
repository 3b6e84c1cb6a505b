package noderesources

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

const fitScoreStateKey framework.StateKey = "PreScore" + config.NodeResourcesFitName

// PreScore stores the pod's request of each scored resource (with the
// scheduler's non-zero defaults for cpu and memory). It never skips.
func (pl *Fit) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	state.Write(fitScoreStateKey, newPodRequestsState(&pl.scorer, pod))
	return nil
}

var errResourcesNotFound = framework.NewStatus(framework.Error, "resources not found")

// Score scores the node. Without PreScore state it computes the pod's
// requests itself, as upstream.
func (pl *Fit) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, ok := state.Read(fitScoreStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.PodRequests(pod)
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.Score(nodeInfo, podRequests, pl.strategy, pl.shape), nil
}

// ScoreExtensions returns nil: scores are already in [0, 100].
func (pl *Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

// ScoreNodes is Score for each node, reading the state once.
func (pl *Fit) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	var podRequests []int64
	if d, ok := state.Read(fitScoreStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.PodRequests(pod)
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.ScoreNodes(nodes, podRequests, pl.strategy, pl.shape, scores)
	return -1, nil
}
