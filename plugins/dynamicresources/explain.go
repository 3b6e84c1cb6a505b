package dynamicresources

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// NodeDevices returns the pod's claims of cs in spec order, each with
// the allocation it has on ni: an allocated claim's own, or the one the
// allocator finds there for a claim to allocate, searched once per node
// and kept in cs (nil when no allocation fits there). ok is false when PreFilter did
// not resolve claims into cs. explain reads it to show the devices each
// request gets per node.
func NodeDevices(ctx context.Context, cs *framework.CycleState, ni *cluster.NodeInfo) (claims []*api.ResourceClaim, allocations []*api.AllocationResult, ok bool) {
	s, err := getState(cs)
	if err != nil || s.empty() {
		return nil, nil, false
	}
	var found []api.AllocationResult
	have := false
	if s.allocator != nil {
		found, _, have = s.nodeResults(ctx, ni)
	}
	allocations = make([]*api.AllocationResult, len(s.claims))
	next := 0
	for i, c := range s.claims {
		if a := c.Status.Allocation; a != nil {
			allocations[i] = a
			continue
		}
		if have && next < len(found) {
			allocations[i] = &found[next]
		}
		next++
	}
	return s.claims, allocations, true
}
