package dynamicresources

import (
	"fmt"
	"sync"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/framework"
)

// stateKey is where PreFilter stores the pod's claims.
const stateKey framework.StateKey = "DynamicResources"

// maxSubRequests is upstream's FirstAvailableDeviceRequestMaxSize: the
// first subrequest of a list scores 8, the last 1.
const maxSubRequests = 8

// stateData is the pod's claims for one cycle. Filter writes the node's
// allocation under mu; the rest is read only after PreFilter.
type stateData struct {
	// claims are the pod's claims in spec order, then the claim for its
	// extended resources backed by DRA, if any.
	claims []*api.ResourceClaim
	// numUser is how many of claims are the pod's own.
	numUser int
	// onNodes is, per claim, the compiled node selector of an allocated
	// claim; nil means the claim is not allocated or usable anywhere.
	onNodes []*affinity.NodeSelector
	// toAllocate are the indexes of the claims without allocation.
	toAllocate []int
	// allocator allocates the claims of toAllocate when the extended
	// resource claim is not among them; ext's variants do otherwise.
	allocator *dra.Allocator
	// ext is the pod's extended resources backed by DRA; nil if none.
	ext *extState
	// prioritized: a claim to allocate has a firstAvailable request, so
	// Score needs each node's allocation.
	prioritized bool
	// nodeInfo looks a node up in the snapshot.
	nodeInfo func(string) (*cluster.NodeInfo, bool)

	mu sync.Mutex
	// nodeAllocations holds the allocation found per node, one result
	// per claim to allocate, built when Score, Reserve or Allocations
	// first needs it.
	nodeAllocations map[string][]api.AllocationResult
	// nodeExt is, per node, the variant of the extended resource claim
	// allocated there.
	nodeExt map[string]*extVariant
	// unavailable are the allocated claims some node could not use.
	unavailable map[int]struct{}
}

// Clone shares the state: Filter's writes are per node and guarded.
func (s *stateData) Clone() framework.StateData { return s }

func (s *stateData) empty() bool { return s == nil || len(s.claims) == 0 }

// extClaim returns the extended resource claim, or nil.
func (s *stateData) extClaim() *api.ResourceClaim {
	if s.ext == nil {
		return nil
	}
	return s.claims[s.numUser]
}

func getState(cs *framework.CycleState) (*stateData, error) {
	v, ok := cs.Read(stateKey)
	if !ok {
		// Upstream returns the cycle state's own error, whose text
		// reaches the fit error when PostFilter runs without PreFilter
		// having run (a PreFilter before it was unresolvable).
		return nil, errNotFound
	}
	s, ok := v.(*stateData)
	if !ok {
		return nil, fmt.Errorf("unable to convert state into stateData")
	}
	return s, nil
}

var errNotFound = fmt.Errorf("not found")

// unresolvable is upstream's statusUnschedulable.
func unresolvable(reason string) *framework.Status {
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, reason)
}

// claimKey names a claim in the assumed state.
type claimKey struct{ namespace, name string }
