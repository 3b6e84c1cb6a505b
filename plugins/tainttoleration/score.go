package tainttoleration

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
	"github.com/schedkit/schedkit/taints"
)

const taintStateKey framework.StateKey = "PreScore" + config.TaintTolerationName

// taintState holds the pod's tolerations that matter for scoring.
type taintState struct {
	tolerations []api.Toleration
}

// Clone returns s: the state is never modified after PreScore.
func (s *taintState) Clone() framework.StateData { return s }

// PreScore keeps the pod's tolerations with an empty or PreferNoSchedule
// effect.
func (pl *TaintToleration) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	state.Write(taintStateKey, &taintState{tolerations: priorities.PreferNoScheduleTolerations(pod.Spec.Tolerations)})
	return nil
}

// Score counts the node's intolerable PreferNoSchedule taints. Without
// PreScore state it is an error, as upstream.
func (pl *TaintToleration) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	d, ok := state.Read(taintStateKey)
	if !ok {
		return 0, taintStateMissing
	}
	s, ok := d.(*taintState)
	if !ok {
		return 0, taintStateMissing
	}
	node := nodeInfo.Node()
	if node == nil {
		return 0, nil
	}
	return int64(taints.CountIntolerablePreferNoSchedule(node.Spec.Taints, s.tolerations)), nil
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *TaintToleration) ScoreNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	d, ok := state.Read(taintStateKey)
	if !ok {
		return 0, taintStateMissing
	}
	s, ok := d.(*taintState)
	if !ok {
		return 0, taintStateMissing
	}
	for i, ni := range nodes {
		var n int64
		if ts := ni.Taints(); len(ts) > 0 {
			n = int64(taints.CountIntolerablePreferNoSchedule(ts, s.tolerations))
		}
		scores[i] = n
	}
	return -1, nil
}

var taintStateMissing = framework.NewStatus(framework.Error, `failed to read "PreScoreTaintToleration" from cycleState: not found`)

// ScoreExtensions returns the plugin, which normalizes.
func (pl *TaintToleration) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore reverses the counts onto [0, 100]:
// DefaultNormalizeScore(MaxNodeScore, true, scores).
func (pl *TaintToleration) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return priorities.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}

// NormalizeByMax is NormalizeScore for some of the nodes, given the
// cycle's highest count.
func (pl *TaintToleration) NormalizeByMax(scores []int64, highest int64) {
	priorities.DefaultNormalizeByMax(framework.MaxNodeScore, true, scores, highest)
}
