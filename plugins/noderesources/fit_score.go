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
// scheduler's non-zero defaults for cpu and memory) and, when a scored
// resource is an extended resource a DeviceClass backs, what scoring
// its devices needs (draScoring). It never skips.
func (pl *Fit) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	st := newPodRequestsState(&pl.scorer, pod)
	d, status := pl.dra.forPod()
	if status != nil {
		return status
	}
	st.dra = d
	state.Write(fitScoreStateKey, st)
	return nil
}

// scoreState returns the PreScore state, or computes it as upstream's
// Score does without one.
func (pl *Fit) scoreState(state *framework.CycleState, pod *api.Pod) (*podRequestsState, *framework.Status) {
	if d, ok := state.Read(fitScoreStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			return s, nil
		}
	}
	st := newPodRequestsState(&pl.scorer, pod)
	d, status := pl.dra.forPod()
	if status != nil {
		return nil, status
	}
	st.dra = d
	return st, nil
}

var errResourcesNotFound = framework.NewStatus(framework.Error, "resources not found")

// Score scores the node. Without PreScore state it computes the pod's
// requests itself, as upstream.
func (pl *Fit) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	st, status := pl.scoreState(state, pod)
	if status != nil {
		return 0, status
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.ScoreExt(nodeInfo, st.podRequests, pl.strategy, pl.shape, st.dra.amounts()), nil
}

// ScoreExtensions returns nil: scores are already in [0, 100].
func (pl *Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

// ScoreNodes is Score for each node, reading the state once.
func (pl *Fit) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	st, status := pl.scoreState(state, pod)
	if status != nil {
		return 0, status
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.ScoreNodesExt(nodes, st.podRequests, pl.strategy, pl.shape, scores, st.dra.amounts())
	return -1, nil
}
