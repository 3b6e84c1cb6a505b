package nodeaffinity

import (
	"context"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const scoreStateKey framework.StateKey = "PreScore" + config.NodeAffinityName

// scoreState holds the pod's compiled preferred terms.
type scoreState struct {
	preferred *affinity.PreferredSchedulingTerms
}

// Clone returns s: the state is never modified after PreScore.
func (s *scoreState) Clone() framework.StateData { return s }

// PreScore compiles the pod's preferred terms; it returns Skip when
// neither the pod nor the plugin has any, and an Error status when the
// pod's do not compile.
func (pl *NodeAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	preferred, err := affinity.GetPreferredNodeAffinity(pod)
	if err != nil {
		return framework.AsStatus(err)
	}
	if preferred == nil && pl.addedPreferred == nil {
		return skipStatus
	}
	state.Write(scoreStateKey, &scoreState{preferred: preferred})
	return nil
}

// Score sums the weights of the added and the pod's preferred terms the
// node matches. Without PreScore state it compiles the pod's terms
// itself, as upstream.
func (pl *NodeAffinity) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	count := pl.addedPreferred.Score(node)
	var s *scoreState
	if d, ok := state.Read(scoreStateKey); ok {
		s, _ = d.(*scoreState)
	}
	if s == nil {
		preferred, err := affinity.GetPreferredNodeAffinity(pod)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		s = &scoreState{preferred: preferred}
	}
	return count + s.preferred.Score(node), nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *NodeAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// ScoreNodes is Score for each node, reading the state (or compiling the
// pod's terms) once.
func (pl *NodeAffinity) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	var s *scoreState
	if d, ok := state.Read(scoreStateKey); ok {
		s, _ = d.(*scoreState)
	}
	if s == nil {
		preferred, err := affinity.GetPreferredNodeAffinity(pod)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		s = &scoreState{preferred: preferred}
	}
	for i, ni := range nodes {
		node := ni.Node()
		scores[i] = pl.addedPreferred.Score(node) + s.preferred.Score(node)
	}
	return -1, nil
}

// NormalizeScore scales the sums to [0, 100]:
// DefaultNormalizeScore(MaxNodeScore, false, scores).
func (pl *NodeAffinity) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return priorities.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}

// NormalizeByMax is NormalizeScore for some of the nodes, given the
// cycle's highest sum.
func (pl *NodeAffinity) NormalizeByMax(scores []int64, highest int64) {
	priorities.DefaultNormalizeByMax(framework.MaxNodeScore, false, scores, highest)
}

var skipStatus = framework.NewStatus(framework.Skip)
