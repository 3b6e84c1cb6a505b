package volumerestrictions

import (
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

var skipStatus = framework.NewStatus(framework.Skip)

// objectsOf returns the object store of h's snapshot, nil without one.
func objectsOf(h framework.Handle) *cluster.Objects {
	if h == nil {
		return nil
	}
	s := h.Snapshot()
	if s == nil {
		return nil
	}
	return s.View().Objects()
}

// volumeRestrictionsState is the pod's ReadWriteOncePod claims (by name)
// and how many uses of them by scheduled pods there are.
type volumeRestrictionsState struct {
	rwopClaims []string
	conflicts  int
}

// Clone copies the state: AddPod and RemovePod change the count.
func (s *volumeRestrictionsState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// usesOf counts the claim volumes of pod named like one of the pod's
// ReadWriteOncePod claims (by name alone, in any namespace, as
// upstream).
func (s *volumeRestrictionsState) usesOf(pod *api.Pod) int {
	n := 0
	for i := range pod.Spec.Volumes {
		if c := pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil && slices.Contains(s.rwopClaims, c.ClaimName) {
			n++
		}
	}
	return n
}

var (
	diskConflictStatus = framework.NewStatus(framework.Unschedulable, predicates.ErrReasonDiskConflict)
	rwopConflictStatus = framework.NewStatus(framework.Unschedulable, predicates.ErrReasonReadWriteOncePodConflict)
)
