package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Reasons of the VolumeBinding plugin (classic predicate
// CheckVolumeBinding), as upstream's.
const (
	// ErrReasonBindConflict: an unbound WaitForFirstConsumer claim has
	// no available volume on the node and cannot be provisioned there.
	ErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind"
	// ErrReasonNodeConflict: the volume of a bound claim does not allow
	// the node (its nodeAffinity). Older releases worded it "node(s) had
	// volume node affinity conflict".
	ErrReasonNodeConflict = "node(s) didn't match PersistentVolume's node affinity"
	// ErrReasonNotEnoughSpace: no CSIStorageCapacity the node can reach
	// has room for a claim to provision.
	ErrReasonNotEnoughSpace = "node(s) did not have enough free storage"
	// ErrReasonPVNotExist: a bound claim's volume does not exist.
	ErrReasonPVNotExist = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
	// ErrReasonUnboundImmediateClaims is PreFilter's reason when a claim
	// that binds Immediately (or is pre-bound to a volume) is not bound
	// yet.
	ErrReasonUnboundImmediateClaims = "pod has unbound immediate PersistentVolumeClaims"
)

var (
	unboundImmediateStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnboundImmediateClaims)
	// conflictStatuses holds the Filter status of every combination of
	// conflicts, reasons in upstream's order.
	conflictStatuses = func() (out [16]*framework.Status) {
		for f := 1; f < 16; f++ {
			var reasons []string
			for bit, r := range []string{ErrReasonNodeConflict, ErrReasonBindConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist} {
				if f&(1<<bit) != 0 {
					reasons = append(reasons, r)
				}
			}
			out[f] = framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
		}
		return out
	}()
)

// VolumeBindingState is the pod's claims, resolved by PreFilter and
// never modified afterwards; vols is nil for a pod without claims.
type VolumeBindingState struct {
	vols *podVolumes
}

// NoClaimsState is what PreFilter stores for a pod without claims, as
// upstream stores an empty state: the score half then scores every node
// 0, as upstream's does.
var NoClaimsState = &VolumeBindingState{}

// Clone returns s: the state is never modified after PreFilter.
func (s *VolumeBindingState) Clone() framework.StateData { return s }

// FitsEveryNode reports whether the pod's claims let every node pass
// Filter and score 0 there: all are bound to existing volumes without
// node affinity (as translated to CSI too). PreFilter decides it once,
// so that the per-node work is none.
func (s *VolumeBindingState) FitsEveryNode() bool { return s.vols != nil && s.vols.everyNode }

// HasClaims reports whether the pod has claims (the score half scores a
// pod without claims 0 at once).
func (s *VolumeBindingState) HasClaims() bool { return s.vols != nil }

// VolumeStorage calls add for what the Score of VolumeBinding groups by
// class on node: when the pod would bind available volumes there, each
// such volume (its class, the claim's request and the volume's capacity,
// static true); otherwise each claim to provision whose capacity was
// checked (its class, its request and the capacity object's capacity,
// static false). Sizes are in bytes, rounded up. It returns the binder's
// error, if any.
func (s *VolumeBindingState) VolumeStorage(node *api.Node, add func(class string, requested, capacity int64, static bool)) error {
	if s.vols == nil || s.vols.everyNode {
		return nil
	}
	nv := s.vols.scratchVolumes()
	defer s.vols.release(nv)
	if _, err := s.vols.find(node, nv); err != nil {
		return err
	}
	if len(nv.static) != 0 {
		for _, b := range nv.static {
			add(b.pv.pv.Spec.StorageClassName, b.claim.request.Value(), b.pv.capacity.Value(), true)
		}
		return nil
	}
	for _, d := range nv.dynamic {
		if d.capacity == nil {
			continue
		}
		var capacity int64
		if d.capacity.Capacity != nil {
			capacity = d.capacity.Capacity.Value()
		}
		add(derefString(d.claim.pvc.Spec.StorageClassName), d.claim.request.Value(), capacity, false)
	}
	return nil
}

// PrepareVolumeBinding is PreFilter's work: the state, or Skip for a pod
// without claims, or the rejection.
func PrepareVolumeBinding(objs *cluster.Objects, pod *api.Pod) (*VolumeBindingState, *framework.Status) {
	has, err := checkPodClaims(objs, pod)
	if err != nil {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, err.Error())
	}
	if !has {
		return nil, skipStatus
	}
	vols, immediate, err := resolvePodVolumes(objs, pod)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	if immediate > 0 {
		return nil, unboundImmediateStatus
	}
	return &VolumeBindingState{vols: vols}, nil
}

// Filter is VolumeBinding's Filter for one node.
func (s *VolumeBindingState) Filter(node *api.Node) *framework.Status {
	if s.vols.everyNode {
		return nil
	}
	nv := s.vols.scratchVolumes()
	defer s.vols.release(nv)
	conflicts, err := s.vols.find(node, nv)
	if err != nil {
		return framework.AsStatus(err)
	}
	return conflictStatuses[conflicts]
}

// CheckVolumeBinding is the VolumeBinding filter as a plain function
// (the classic predicate of that name) over an object store: nil if the
// pod's claims allow the node (or the pod has none), else PreFilter's
// or Filter's status.
func CheckVolumeBinding(objs *cluster.Objects, pod *api.Pod, node *api.Node) *framework.Status {
	s, st := PrepareVolumeBinding(objs, pod)
	if s == nil {
		if st.IsSkip() {
			return nil
		}
		return st
	}
	return s.Filter(node)
}

// VolumeBindingDecision is what VolumeBinding's Reserve assumes when a
// pod is placed on a node: the volumes it binds and the claims it asks
// to be provisioned there.
type VolumeBindingDecision struct {
	// Volumes are copies of the available volumes chosen for the pod's
	// claims, each with claimRef naming its claim (and the
	// pv.kubernetes.io/bound-by-controller annotation, unless it was
	// pre-bound), as upstream's GetBindVolumeToClaim makes them. Volumes
	// already bound to their claim are not listed.
	Volumes []*api.PersistentVolume
	// Claims are copies of the claims to provision, annotated with
	// volume.kubernetes.io/selected-node.
	Claims []*api.PersistentVolumeClaim
}

// Empty reports whether the decision changes nothing.
func (d VolumeBindingDecision) Empty() bool { return len(d.Volumes) == 0 && len(d.Claims) == 0 }

// PlanPodVolumes returns what VolumeBinding's Reserve would assume for
// pod on node, given the objects: nothing when the pod has no claims or
// all are bound, and an error when the node does not pass VolumeBinding.
// The objects are not modified.
func PlanPodVolumes(objs *cluster.Objects, pod *api.Pod, node *api.Node) (VolumeBindingDecision, error) {
	var d VolumeBindingDecision
	s, st := PrepareVolumeBinding(objs, pod)
	if s == nil {
		if st.IsSkip() {
			return d, nil
		}
		return d, st.AsError()
	}
	var nv nodeVolumes
	conflicts, err := s.vols.find(node, &nv)
	if err != nil {
		return d, err
	}
	if conflicts != 0 {
		return d, conflictStatuses[conflicts].AsError()
	}
	for _, b := range nv.static {
		if pv, dirty := bindVolumeToClaim(b.pv.pv, b.claim.pvc); dirty {
			d.Volumes = append(d.Volumes, pv)
		}
	}
	for _, p := range nv.dynamic {
		c := *p.claim.pvc
		c.Annotations = cloneAnnotations(c.Annotations)
		c.Annotations[api.AnnSelectedNode] = node.Name
		d.Claims = append(d.Claims, &c)
	}
	return d, nil
}

func cloneAnnotations(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// bindVolumeToClaim is upstream's GetBindVolumeToClaim: a copy of pv
// whose claimRef names pvc, marked bound by the controller unless pv was
// already bound to pvc; dirty is false when nothing had to change.
func bindVolumeToClaim(pv *api.PersistentVolume, pvc *api.PersistentVolumeClaim) (*api.PersistentVolume, bool) {
	out := *pv
	dirty := false
	if r := pv.Spec.ClaimRef; r == nil || r.Name != pvc.Name || r.Namespace != pvc.Namespace || r.UID != pvc.UID {
		out.Spec.ClaimRef = &api.ObjectReference{
			Kind: "PersistentVolumeClaim", APIVersion: "v1",
			Namespace: pvc.Namespace, Name: pvc.Name, UID: pvc.UID, ResourceVersion: pvc.ResourceVersion,
		}
		dirty = true
	}
	if !volumeBoundToClaim(pv, pvc) {
		if _, ok := pv.Annotations[api.AnnBoundByController]; !ok {
			out.Annotations = cloneAnnotations(pv.Annotations)
			out.Annotations[api.AnnBoundByController] = "yes"
			dirty = true
		}
	}
	return &out, dirty
}

// AssumePodVolumes applies to snap what VolumeBinding's Reserve assumes
// for pod placed on nodeName (see PlanPodVolumes): the chosen volumes
// are updated to name their claims, so that later pods of the same
// simulation cannot take them, and the claims to provision are
// annotated with the selected node, so that later pods sharing them must
// go to that node. Scheduler calls it after placing a pod when its
// profile has VolumeBinding. A pod without claims costs one pass over its
// volumes. If the node does not pass VolumeBinding nothing is changed and
// the error says why.
func AssumePodVolumes(snap *cluster.Snapshot, pod *api.Pod, nodeName string) error {
	if !HasPVCs(pod) {
		return nil
	}
	ni, ok := snap.Get(nodeName)
	if !ok {
		return fmt.Errorf("%w: node %q", cluster.ErrNotFound, nodeName)
	}
	d, err := PlanPodVolumes(snap.Objects(), pod, ni.Node())
	if err != nil {
		return err
	}
	for _, pv := range d.Volumes {
		if err := snap.UpdateObject(pv); err != nil {
			return err
		}
	}
	for _, pvc := range d.Claims {
		if err := snap.UpdateObject(pvc); err != nil {
			return err
		}
	}
	return nil
}

var skipStatus = framework.NewStatus(framework.Skip)
