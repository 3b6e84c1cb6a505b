package priorities

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// NodeAffinity is the raw NodeAffinity score of pod on node: the sum of
// the weights of the pod's preferred node affinity terms the node matches
// (NormalizeScore scales the raw scores to [0, 100]). A pod whose
// preferred terms do not compile scores 0 and the error is returned.
func NodeAffinity(pod *api.Pod, node *api.Node) (int64, error) {
	terms, err := affinity.GetPreferredNodeAffinity(pod)
	if err != nil {
		return 0, err
	}
	return terms.Score(node), nil
}

const nodeAffinityStateKey framework.StateKey = "PreScore" + config.NodeAffinityName

// nodeAffinityState holds the pod's compiled preferred terms.
type nodeAffinityState struct {
	preferred *affinity.PreferredSchedulingTerms
}

// Clone returns s: the state is never modified after PreScore.
func (s *nodeAffinityState) Clone() framework.StateData { return s }

// NodeAffinityPlugin is the score half of NodeAffinity: it favours nodes
// that match the pod's (and the plugin's added) preferred terms.
type NodeAffinityPlugin struct {
	added *affinity.PreferredSchedulingTerms
}

var (
	_ framework.PreScorePlugin  = (*NodeAffinityPlugin)(nil)
	_ framework.ScorePlugin     = (*NodeAffinityPlugin)(nil)
	_ framework.ScoreExtensions = (*NodeAffinityPlugin)(nil)
)

// NewNodeAffinity is the factory of NodeAffinity's score half. args is
// nil, a config.NodeAffinityArgs or a pointer to one; it is validated.
func NewNodeAffinity(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeAffinityArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &NodeAffinityPlugin{}
	if a.AddedAffinity != nil && len(a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != 0 {
		pl.added, err = affinity.NewPreferredSchedulingTerms(a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return nil, fmt.Errorf("parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: %w", err)
		}
	}
	return pl, nil
}

// Name returns config.NodeAffinityName.
func (*NodeAffinityPlugin) Name() string { return config.NodeAffinityName }

// PreScore compiles the pod's preferred terms; it returns Skip when
// neither the pod nor the plugin has any, and an Error status when the
// pod's do not compile.
func (pl *NodeAffinityPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	preferred, err := affinity.GetPreferredNodeAffinity(pod)
	if err != nil {
		return framework.AsStatus(err)
	}
	if preferred == nil && pl.added == nil {
		return skipStatus
	}
	state.Write(nodeAffinityStateKey, &nodeAffinityState{preferred: preferred})
	return nil
}

// Score sums the weights of the added and the pod's preferred terms the
// node matches. Without PreScore state it compiles the pod's terms
// itself, as upstream.
func (pl *NodeAffinityPlugin) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	count := pl.added.Score(node)
	var s *nodeAffinityState
	if d, ok := state.Read(nodeAffinityStateKey); ok {
		s, _ = d.(*nodeAffinityState)
	}
	if s == nil {
		preferred, err := affinity.GetPreferredNodeAffinity(pod)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		s = &nodeAffinityState{preferred: preferred}
	}
	return count + s.preferred.Score(node), nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *NodeAffinityPlugin) ScoreExtensions() framework.ScoreExtensions { return pl }

var _ framework.FastPathPlugin = (*NodeAffinityPlugin)(nil)

// FastPath offers ScoreNodes, NormalizeByMax and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore reads the
// pod alone, and Score the node, so the scheduler may score a node as soon
// as it passes Filter.
func (pl *NodeAffinityPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true, NormalizeByMax: pl.NormalizeByMax}
}

// ScoreNodes is Score for each node, reading the state (or compiling the
// pod's terms) once.
func (pl *NodeAffinityPlugin) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	var s *nodeAffinityState
	if d, ok := state.Read(nodeAffinityStateKey); ok {
		s, _ = d.(*nodeAffinityState)
	}
	if s == nil {
		preferred, err := affinity.GetPreferredNodeAffinity(pod)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		s = &nodeAffinityState{preferred: preferred}
	}
	for i, ni := range nodes {
		node := ni.Node()
		scores[i] = pl.added.Score(node) + s.preferred.Score(node)
	}
	return -1, nil
}

// NormalizeScore scales the sums to [0, 100]:
// DefaultNormalizeScore(MaxNodeScore, false, scores).
func (*NodeAffinityPlugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}

// NormalizeByMax is NormalizeScore for some of the nodes, given the
// cycle's highest sum.
func (*NodeAffinityPlugin) NormalizeByMax(scores []int64, highest int64) {
	DefaultNormalizeByMax(framework.MaxNodeScore, false, scores, highest)
}
