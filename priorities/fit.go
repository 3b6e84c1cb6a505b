package priorities

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// LeastAllocated is the LeastAllocated score of pod on nodeInfo: per
// resource (free after the pod)*100/allocatable, weighted mean with
// integer division, over the non-zero requests of cpu and memory. nil
// resources mean cpu and memory with weight 1.
func LeastAllocated(pod *api.Pod, nodeInfo *cluster.NodeInfo, resources []config.ResourceSpec) int64 {
	return scoreOnce(pod, nodeInfo, config.LeastAllocated, resources, nil)
}

// MostAllocated is the MostAllocated score of pod on nodeInfo: per
// resource (used after the pod)*100/allocatable, weighted mean with
// integer division. nil resources mean cpu and memory with weight 1.
func MostAllocated(pod *api.Pod, nodeInfo *cluster.NodeInfo, resources []config.ResourceSpec) int64 {
	return scoreOnce(pod, nodeInfo, config.MostAllocated, resources, nil)
}

// RequestedToCapacityRatio is the RequestedToCapacityRatio score of pod on
// nodeInfo with the given shape (scores 0-10, scaled to 0-100). nil
// resources mean cpu and memory with weight 1.
func RequestedToCapacityRatio(pod *api.Pod, nodeInfo *cluster.NodeInfo, resources []config.ResourceSpec, shape []config.UtilizationShapePoint) int64 {
	return scoreOnce(pod, nodeInfo, config.RequestedToCapacityRatio, resources, ScaleShape(shape))
}

func scoreOnce(pod *api.Pod, nodeInfo *cluster.NodeInfo, t config.ScoringStrategyType, resources []config.ResourceSpec, shape FunctionShape) int64 {
	if len(resources) == 0 {
		resources = config.DefaultResourceSpec()
	}
	s := allocationScorer{resources: compileResources(resources)}
	return s.score(nodeInfo, s.podRequests(pod), t, shape)
}

const fitScoreStateKey framework.StateKey = "PreScore" + config.NodeResourcesFitName

// podRequestsState is the pod's request of each scored resource.
type podRequestsState struct {
	podRequests []int64
	// buf holds podRequests when there are few resources.
	buf [stackResources]int64
}

// newPodRequestsState returns the state of the pod's requests.
func (s *allocationScorer) newPodRequestsState(pod *api.Pod) *podRequestsState {
	st := &podRequestsState{}
	st.podRequests = s.podRequestsInto(pod, st.buf[:0])
	return st
}

// Clone returns s: the state is never modified after PreScore.
func (s *podRequestsState) Clone() framework.StateData { return s }

// NodeResourcesFitPlugin is the score half of NodeResourcesFit: it scores
// nodes with the configured strategy over the configured resources.
type NodeResourcesFitPlugin struct {
	strategy config.ScoringStrategyType
	scorer   allocationScorer
	shape    FunctionShape
}

var (
	_ framework.PreScorePlugin = (*NodeResourcesFitPlugin)(nil)
	_ framework.ScorePlugin    = (*NodeResourcesFitPlugin)(nil)
)

// NewNodeResourcesFit is the factory of NodeResourcesFit's score half.
// args is nil, a config.NodeResourcesFitArgs or a pointer to one; it is
// defaulted and validated (see config.ArgsFrom).
func NewNodeResourcesFit(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeResourcesFitArgs](args)
	if err != nil {
		return nil, err
	}
	return newNodeResourcesFit(a.ScoringStrategy)
}

func newNodeResourcesFit(s *config.ScoringStrategy) (*NodeResourcesFitPlugin, error) {
	if s == nil {
		return nil, fmt.Errorf("scoring strategy not specified")
	}
	pl := &NodeResourcesFitPlugin{strategy: s.Type, scorer: allocationScorer{resources: compileResources(s.Resources)}}
	switch s.Type {
	case config.LeastAllocated, config.MostAllocated:
	case config.RequestedToCapacityRatio:
		pl.shape = ScaleShape(s.RequestedToCapacityRatio.Shape)
	default:
		return nil, fmt.Errorf("scoring strategy %s is not supported", s.Type)
	}
	return pl, nil
}

// Name returns config.NodeResourcesFitName.
func (*NodeResourcesFitPlugin) Name() string { return config.NodeResourcesFitName }

// PreScore stores the pod's request of each scored resource (with the
// scheduler's non-zero defaults for cpu and memory). It never skips.
func (pl *NodeResourcesFitPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	state.Write(fitScoreStateKey, pl.scorer.newPodRequestsState(pod))
	return nil
}

var errResourcesNotFound = framework.NewStatus(framework.Error, "resources not found")

// Score scores the node. Without PreScore state it computes the pod's
// requests itself, as upstream.
func (pl *NodeResourcesFitPlugin) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	var podRequests []int64
	if d, ok := state.Read(fitScoreStateKey); ok {
		if s, ok := d.(*podRequestsState); ok {
			podRequests = s.podRequests
		}
	}
	if podRequests == nil {
		podRequests = pl.scorer.podRequests(pod)
	}
	if len(pl.scorer.resources) == 0 {
		return 0, errResourcesNotFound
	}
	return pl.scorer.score(nodeInfo, podRequests, pl.strategy, pl.shape), nil
}

// ScoreExtensions returns nil: scores are already in [0, 100].
func (*NodeResourcesFitPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }

var _ framework.FastPathPlugin = (*NodeResourcesFitPlugin)(nil)

// FastPath offers ScoreNodes and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore computes the
// pod's requests, and Score reads the node alone, so the scheduler may
// score a node as soon as it passes Filter.
func (pl *NodeResourcesFitPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true}
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *NodeResourcesFitPlugin) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
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
		podRequests = pl.scorer.podRequests(pod)
	}
	if len(pl.scorer.resources) == 0 {
		return 0, errResourcesNotFound
	}
	pl.scorer.scoreNodes(nodes, podRequests, pl.strategy, pl.shape, scores)
	return -1, nil
}
