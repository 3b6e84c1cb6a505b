package noderesources

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// stackResources is how many scored resources a podRequestsState holds
// without allocating.
const stackResources = 8

// podRequestsState is the pod's request of each scored resource.
type podRequestsState struct {
	podRequests []int64
	// dra scores the extended resources DRA backs; nil if none is.
	dra *draScore
	// buf holds podRequests when there are few resources.
	buf [stackResources]int64
}

// newPodRequestsState returns the state of the pod's requests.
func newPodRequestsState(s *priorities.AllocationScorer, pod *api.Pod) *podRequestsState {
	st := &podRequestsState{}
	st.podRequests = s.PodRequestsInto(pod, st.buf[:0])
	return st
}

// Clone returns s: the state is never modified after PreScore.
func (s *podRequestsState) Clone() framework.StateData { return s }
