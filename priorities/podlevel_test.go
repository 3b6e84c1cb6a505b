package priorities

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

// TestFitScoreIgnoresPodLevelResources pins a v1.37.2 quirk: NewFit builds
// its resourceAllocationScorer from the scoring strategy alone, so the
// scorer's enablePodLevelResources (and enableInPlacePodVerticalScaling)
// stay false and NodeResourcesFit scores the containers' requests, while
// NodeResourcesBalancedAllocation, built with the feature gates, uses the
// pod-level requests. (Found by the conformance differential; fixture
// plugins/seed-fit-score-pod-level.json.)
func TestFitScoreIgnoresPodLevelResources(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
	node.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
	ni := cluster.NewNodeInfo(node)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "d"}}
	pod.Spec.Resources = &api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse("2"), "memory": resource.MustParse("2Gi")}}
	pod.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("128Mi")}}}}
	// Containers: cpu (4000-100)*100/4000 = 97, memory 98 → (97+98)/2 = 97.
	// Pod level would give cpu 50, memory 75 → 62.
	if got := LeastAllocated(pod, ni, nil); got != 97 {
		t.Errorf("LeastAllocated = %d, want 97 (container requests)", got)
	}
	// Balanced: with the pod-level requests the fractions are 0.5 and
	// 0.25, std 0.125, score with pod 87; the empty node scores 100
	// without it; 50 + (50+87-100)/2 = 68. (The container requests would
	// give 50 + (50+99-100)/2 = 74.)
	if got := BalancedAllocation(pod, ni, nil); got != 68 {
		t.Errorf("BalancedAllocation = %d, want 68 (pod-level requests)", got)
	}
}
