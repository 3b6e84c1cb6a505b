package priorities

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
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
	s := AllocationScorer{resources: compileResources(resources), useRequested: true, featureAware: true}
	req := s.PodRequests(pod)
	if IsBestEffort(req) {
		return 0
	}
	return s.Score(nodeInfo, req, "", nil)
}

// IsBestEffort reports whether the pod requests none of the scored
// resources: BalancedAllocation skips such a pod.
func IsBestEffort(podRequests []int64) bool {
	for _, r := range podRequests {
		if r != 0 {
			return false
		}
	}
	return true
}
