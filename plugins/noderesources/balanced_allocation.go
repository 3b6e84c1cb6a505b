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
	dra    *draScoring
}

var (
	_ framework.PreScorePlugin = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin    = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation is the NodeResourcesBalancedAllocation
// factory. args is nil, a config.NodeResourcesBalancedAllocationArgs or a
// pointer to one; it is defaulted and validated.
func NewBalancedAllocation(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeResourcesBalancedAllocationArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &BalancedAllocation{scorer: priorities.NewBalancedScorer(a.Resources)}
	pl.dra = newDRAScoring(h, pl.scorer.Resources())
	return pl, nil
}

// Name returns BalancedAllocationName.
func (pl *BalancedAllocation) Name() string {
	return BalancedAllocationName
}

// PreScore stores the pod's requests, or returns Skip when the pod
// requests none of the scored resources, as upstream. Extended
// resources DRA backs are scored as Fit scores them (draScoring).
func (pl *BalancedAllocation) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	st := newPodRequestsState(&pl.scorer, pod)
	if priorities.IsBestEffort(st.podRequests) {
		return skipStatus
	}
	d, status := pl.dra.forPod()
	if status != nil {
		return status
	}
	st.dra = d
	state.Write(balancedStateKey, st)
	return nil
}

// scoreState returns the PreScore state, or computes it as upstream's
// Score does without one; nil for a pod that requests nothing scored.
func (pl *BalancedAllocation) scoreState(state *framework.CycleState, pod *api.Pod) (*podRequestsState, *framework.Status) {
	if d, ok := state.Read(balancedStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			return s, nil
		}
	}
	st := newPodRequestsState(&pl.scorer, pod)
	if priorities.IsBestEffort(st.podRequests) {
		return nil, nil
	}
	d, status := pl.dra.forPod()
	if status != nil {
		return nil, status
	}
	st.dra = d
	return st, nil
}

var skipStatus = framework.NewStatus(framework.Skip)

// Score scores the node. Without PreScore state it computes the pod's
// requests itself and scores a pod that requests nothing 0, as upstream.
func (pl *BalancedAllocation) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	st, status := pl.scoreState(state, pod)
	if status != nil || st == nil {
		return 0, status
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.ScoreExt(nodeInfo, st.podRequests, "", nil, st.dra.amounts()), nil
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
	st, status := pl.scoreState(state, pod)
	if status != nil {
		return 0, status
	}
	if st == nil {
		clear(scores)
		return -1, nil
	}
	if pl.scorer.NumResources() == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.ScoreNodesExt(nodes, st.podRequests, "", nil, scores, st.dra.amounts())
	return -1, nil
}

// ScoredResources returns the resources the plugin balances.
func (pl *BalancedAllocation) ScoredResources() []api.ResourceName { return pl.scorer.Resources() }
