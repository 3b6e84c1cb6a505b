package dynamicresources

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// SkipScore reports whether the pod has no claims to allocate or use:
// its Score is then 0 on every node, upstream's too, so leaving it out
// changes no total and keeps such pods on the scheduler's fast path.
// Upstream's plugin has no PreScore; this is the framework's
// ScoreSkipper, asked once per cycle.
func (pl *DynamicResources) SkipScore(cs *framework.CycleState, _ *api.Pod) bool {
	s, err := getState(cs)
	return err == nil && s.empty()
}

// Score is upstream's prioritized-list score (DRAPrioritizedList is GA):
// for every firstAvailable request, 8 minus the index of the subrequest
// the node's allocation chose; a node without allocation scores 0.
func (pl *DynamicResources) Score(ctx context.Context, cs *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	s, err := getState(cs)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	if s.empty() {
		return 0, nil
	}
	if len(s.toAllocate) == 0 {
		// Upstream scores from Filter's allocations, which a pod with
		// nothing to allocate does not have.
		return 0, nil
	}
	if !s.prioritized {
		// Only allocated claims can score; their status says how.
		return computeScoreAllocated(s.claims)
	}
	results, _, ok := s.nodeResults(ctx, ni)
	if !ok {
		return 0, nil
	}
	score, err := computeScore(s.claims, results)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return score, nil
}

// computeScore sums the subrequest scores of the claims, the allocated
// ones from their status and the others from results, in order.
func computeScore(claims []*api.ResourceClaim, results []api.AllocationResult) (int64, error) {
	var score int64
	next := 0
	for _, c := range claims {
		alloc := c.Status.Allocation
		if alloc == nil {
			if next >= len(results) {
				return 0, fmt.Errorf("number of allocations %d is smaller than number of claims needing allocation", len(results))
			}
			alloc = &results[next]
			next++
		}
		for _, r := range c.Spec.Devices.Requests {
			if r.Exactly != nil {
				continue
			}
			for i, sub := range r.FirstAvailable {
				ref := r.Name + "/" + sub.Name
				for _, d := range alloc.Devices.Results {
					if strings.Contains(d.Request, "/") && d.Request == ref {
						score += int64(maxSubRequests - i)
						break
					}
				}
			}
		}
	}
	return score, nil
}

// computeScoreAllocated is computeScore when no claim to allocate has a
// firstAvailable request: the allocated claims' subrequests score.
func computeScoreAllocated(claims []*api.ResourceClaim) (int64, *framework.Status) {
	var score int64
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		n, err := computeScore([]*api.ResourceClaim{c}, nil)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		score += n
	}
	return score, nil
}

// ScoreExtensions returns the plugin: scores are normalised to 0..100.
func (pl *DynamicResources) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore scales the scores so that the highest is 100.
func (pl *DynamicResources) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return priorities.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}
