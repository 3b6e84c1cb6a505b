package priorities

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/taints"
)

// TaintToleration is the raw TaintToleration score of pod on node: the
// number of the node's PreferNoSchedule taints that the pod does not
// tolerate. Lower is better; NormalizeScore reverses it onto [0, 100].
func TaintToleration(pod *api.Pod, node *api.Node) int64 {
	if node == nil {
		return 0
	}
	return int64(taints.CountIntolerablePreferNoSchedule(node.Spec.Taints, preferNoScheduleTolerations(pod.Spec.Tolerations)))
}

// preferNoScheduleTolerations keeps the tolerations that can tolerate a
// PreferNoSchedule taint (empty effect or PreferNoSchedule), as upstream's
// PreScore does; it returns tols itself when all can.
func preferNoScheduleTolerations(tols []api.Toleration) []api.Toleration {
	keep := 0
	for _, t := range tols {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			keep++
		}
	}
	if keep == len(tols) {
		return tols
	}
	out := make([]api.Toleration, 0, keep)
	for _, t := range tols {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			out = append(out, t)
		}
	}
	return out
}

const taintStateKey framework.StateKey = "PreScore" + config.TaintTolerationName

// taintState holds the pod's tolerations that matter for scoring.
type taintState struct {
	tolerations []api.Toleration
}

// Clone returns s: the state is never modified after PreScore.
func (s *taintState) Clone() framework.StateData { return s }

// TaintTolerationPlugin is the score half of TaintToleration: it prefers
// nodes with fewer intolerable PreferNoSchedule taints.
type TaintTolerationPlugin struct{}

var (
	_ framework.PreScorePlugin  = (*TaintTolerationPlugin)(nil)
	_ framework.ScorePlugin     = (*TaintTolerationPlugin)(nil)
	_ framework.ScoreExtensions = (*TaintTolerationPlugin)(nil)
)

// NewTaintToleration is the factory of TaintToleration's score half.
// TaintToleration takes no arguments; args is ignored.
func NewTaintToleration(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &TaintTolerationPlugin{}, nil
}

// Name returns config.TaintTolerationName.
func (*TaintTolerationPlugin) Name() string { return config.TaintTolerationName }

// PreScore keeps the pod's tolerations with an empty or PreferNoSchedule
// effect.
func (*TaintTolerationPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	state.Write(taintStateKey, &taintState{tolerations: preferNoScheduleTolerations(pod.Spec.Tolerations)})
	return nil
}

// Score counts the node's intolerable PreferNoSchedule taints. Without
// PreScore state it is an error, as upstream.
func (*TaintTolerationPlugin) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
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

var _ framework.FastPathPlugin = (*TaintTolerationPlugin)(nil)

// FastPath offers ScoreNodes, NormalizeByMax and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore reads the
// pod's tolerations alone, and Score the node's taints, so the scheduler
// may score a node as soon as it passes Filter.
func (pl *TaintTolerationPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true, NormalizeByMax: pl.NormalizeByMax}
}

// ScoreNodes is Score for each node, reading the state once.
func (*TaintTolerationPlugin) ScoreNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
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
func (pl *TaintTolerationPlugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore reverses the counts onto [0, 100]:
// DefaultNormalizeScore(MaxNodeScore, true, scores).
func (*TaintTolerationPlugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}

// NormalizeByMax is NormalizeScore for some of the nodes, given the
// cycle's highest count.
func (*TaintTolerationPlugin) NormalizeByMax(scores []int64, highest int64) {
	DefaultNormalizeByMax(framework.MaxNodeScore, true, scores, highest)
}
