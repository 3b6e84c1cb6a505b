package noderesources

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const balancedStateKey framework.StateKey = "PreScore" + config.NodeResourcesBalancedAllocationName

// BalancedAllocation is the
// NodeResourcesBalancedAllocation plugin: it favours nodes whose resource
// use the pod makes (or keeps) balanced.
type BalancedAllocation struct {
	scorer priorities.AllocationScorer
}

var (
	_ framework.PreScorePlugin = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin    = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation is the NodeResourcesBalancedAllocation
// factory. args is nil, a config.NodeResourcesBalancedAllocationArgs or a
// pointer to one; it is defaulted and validated.
func NewBalancedAllocation(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeResourcesBalancedAllocationArgs](args)
	if err != nil {
		return nil, err
	}
	return &BalancedAllocation{scorer: priorities.NewBalancedScorer(a.Resources)}, nil
}

// Name returns BalancedAllocationName.
func (pl *BalancedAllocation) Name() string {
	return BalancedAllocationName
}

// PreScore stores the pod's requests, or returns Skip when the pod
// requests none of the scored resources, as upstream.
func (pl *BalancedAllocation) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	st := newPodRequestsState(&pl.scorer, pod)
	if priorities.IsBestEffort(st.podRequests) {
		return skipStatus
	}
	state.Write(balancedStateKey, st)
	return nil
}

var skipStatus = framework.NewStatus(framework.Skip)

// Score scores the node. Without PreScore state it computes the pod's
// requests itself and scores a pod that requests nothing 0, as upstream.
func (pl *BalancedAllocation) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, ok := state.Read(balancedStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.PodRequests(pod)
		if priorities.IsBestEffort(podRequests) {
			return 0, nil
		}
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.Score(nodeInfo, podRequests, "", nil), nil
}

// ScoreExtensions returns nil.
func (pl *BalancedAllocation) ScoreExtensions() framework.ScoreExtensions {
	return nil
}

var _ framework.FastPathPlugin = (*BalancedAllocation)(nil)

// FastPath offers ScoreNodes and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore computes the
// pod's requests, and Score reads the node alone, so the scheduler may
// Score a node as soon as it passes Filter.
func (pl *BalancedAllocation) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true}
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *BalancedAllocation) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	var podRequests []int64
	if d, ok := state.Read(balancedStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.PodRequests(pod)
		if priorities.IsBestEffort(podRequests) {
			clear(scores)
			return -1, nil
		}
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.ScoreNodes(nodes, podRequests, "", nil, scores)
	return -1, nil
}

// ScoredResources returns the resources the plugin balances.
func (pl *BalancedAllocation) ScoredResources() []api.ResourceName { return pl.scorer.Resources() }
