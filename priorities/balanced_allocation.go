package priorities

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// BalancedAllocation is the NodeResourcesBalancedAllocation score of pod
// on nodeInfo (see BalancedAllocationScore) over the pod's and the node's
// actual requests. A pod that requests none of the resources scores 0.
// nil resources mean cpu and memory.
func BalancedAllocation(pod *api.Pod, nodeInfo *cluster.NodeInfo, resources []config.ResourceSpec) int64 {
	if len(resources) == 0 {
		resources = config.DefaultResourceSpec()
	}
	s := allocationScorer{resources: compileResources(resources), useRequested: true, featureAware: true}
	req := s.podRequests(pod)
	if isBestEffort(req) {
		return 0
	}
	return s.score(nodeInfo, req, "", nil)
}

func isBestEffort(podRequests []int64) bool {
	for _, r := range podRequests {
		if r != 0 {
			return false
		}
	}
	return true
}

const balancedStateKey framework.StateKey = "PreScore" + config.NodeResourcesBalancedAllocationName

// NodeResourcesBalancedAllocationPlugin is the
// NodeResourcesBalancedAllocation plugin: it favours nodes whose resource
// use the pod makes (or keeps) balanced.
type NodeResourcesBalancedAllocationPlugin struct {
	scorer allocationScorer
}

var (
	_ framework.PreScorePlugin = (*NodeResourcesBalancedAllocationPlugin)(nil)
	_ framework.ScorePlugin    = (*NodeResourcesBalancedAllocationPlugin)(nil)
)

// NewNodeResourcesBalancedAllocation is the NodeResourcesBalancedAllocation
// factory. args is nil, a config.NodeResourcesBalancedAllocationArgs or a
// pointer to one; it is defaulted and validated.
func NewNodeResourcesBalancedAllocation(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeResourcesBalancedAllocationArgs](args)
	if err != nil {
		return nil, err
	}
	return &NodeResourcesBalancedAllocationPlugin{scorer: allocationScorer{resources: compileResources(a.Resources), useRequested: true, featureAware: true}}, nil
}

// Name returns config.NodeResourcesBalancedAllocationName.
func (*NodeResourcesBalancedAllocationPlugin) Name() string {
	return config.NodeResourcesBalancedAllocationName
}

// PreScore stores the pod's requests, or returns Skip when the pod
// requests none of the scored resources, as upstream.
func (pl *NodeResourcesBalancedAllocationPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	st := pl.scorer.newPodRequestsState(pod)
	if isBestEffort(st.podRequests) {
		return skipStatus
	}
	state.Write(balancedStateKey, st)
	return nil
}

var skipStatus = framework.NewStatus(framework.Skip)

// Score scores the node. Without PreScore state it computes the pod's
// requests itself and scores a pod that requests nothing 0, as upstream.
func (pl *NodeResourcesBalancedAllocationPlugin) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, ok := state.Read(balancedStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.podRequests(pod)
		if isBestEffort(podRequests) {
			return 0, nil
		}
	}
	if len(pl.scorer.resources) == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.score(nodeInfo, podRequests, "", nil), nil
}

// ScoreExtensions returns nil.
func (*NodeResourcesBalancedAllocationPlugin) ScoreExtensions() framework.ScoreExtensions {
	return nil
}

var _ framework.FastPathPlugin = (*NodeResourcesBalancedAllocationPlugin)(nil)

// FastPath offers ScoreNodes and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore computes the
// pod's requests, and Score reads the node alone, so the scheduler may
// score a node as soon as it passes Filter.
func (pl *NodeResourcesBalancedAllocationPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true}
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *NodeResourcesBalancedAllocationPlugin) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
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
		podRequests = pl.scorer.podRequests(pod)
		if isBestEffort(podRequests) {
			clear(scores)
			return -1, nil
		}
	}
	if len(pl.scorer.resources) == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.scoreNodes(nodes, podRequests, "", nil, scores)
	return -1, nil
}
