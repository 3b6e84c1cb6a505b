package volumebinding

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

func (pl *VolumeBinding) objects() *cluster.Objects {
	if pl.h == nil {
		return nil
	}
	s := pl.h.Snapshot()
	if s == nil {
		return nil
	}
	return s.Objects()
}

// PreFilter returns Skip for a pod without persistentVolumeClaim or
// ephemeral volumes (storing a shared empty state, so that the score
// half scores every node 0 as upstream's does). Otherwise it resolves the claims and stores them,
// or rejects the pod with UnschedulableAndUnresolvable: a missing claim
// (`persistentvolumeclaim "data" not found`, or for an ephemeral volume
// `waiting for ephemeral volume controller to create the
// persistentvolumeclaim "pod-vol"`), a lost or deleted claim, an
// ephemeral volume's claim the pod does not own, or
// ErrReasonUnboundImmediateClaims. A class without a volumeBindingMode
// is an Error.
func (pl *VolumeBinding) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	s, st := predicates.PrepareVolumeBinding(pl.objects(), pod)
	if s == nil {
		if st.IsSkip() {
			state.Write(stateKey, predicates.NoClaimsState)
		}
		return nil, st
	}
	state.Write(stateKey, s)
	return nil, nil
}

// PreFilterExtensions returns nil.
func (pl *VolumeBinding) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node with UnschedulableAndUnresolvable and the
// reasons that apply, in upstream's order: ErrReasonNodeConflict,
// ErrReasonBindConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist;
// a binder error (a claim selector that does not compile, a claim to
// provision without a class or with a missing class) is an Error status.
// Without PreFilter state it resolves the pod's claims itself.
func (pl *VolumeBinding) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	var s *predicates.VolumeBindingState
	if d, ok := state.Read(stateKey); ok {
		s, _ = d.(*predicates.VolumeBindingState)
	}
	if s == nil || !s.HasClaims() {
		var st *framework.Status
		if s, st = predicates.PrepareVolumeBinding(pl.objects(), pod); s == nil {
			if st.IsSkip() {
				return nil
			}
			return st
		}
	}
	return s.Filter(nodeInfo.Node())
}
