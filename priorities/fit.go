package priorities

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
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
	s := AllocationScorer{resources: compileResources(resources)}
	return s.Score(nodeInfo, s.PodRequests(pod), t, shape)
}
