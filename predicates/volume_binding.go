package predicates

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
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

// VolumeBindingStateKey is the CycleState key under which VolumeBinding's
// PreFilter stores the pod's resolved claims. The score half of the
// plugin (package priorities) reads it through its own interface: the
// value has the methods
//
//	HasClaims() bool
//	VolumeStorage(node *api.Node, add func(class string, requested, capacity int64, static bool)) error
//
// that reports the storage the pod would use on the node.
const VolumeBindingStateKey framework.StateKey = "PreFilter" + config.VolumeBindingName

// volumeBindingState is the pod's claims, resolved by PreFilter and
// never modified afterwards; vols is nil for a pod without claims.
type volumeBindingState struct {
	vols *podVolumes
}

// noClaimsState is what PreFilter stores for a pod without claims, as
// upstream stores an empty state: the score half then scores every node
// 0, as upstream's does.
var noClaimsState = &volumeBindingState{}

// Clone returns s: the state is never modified after PreFilter.
func (s *volumeBindingState) Clone() framework.StateData { return s }

// HasClaims reports whether the pod has claims (the score half scores a
// pod without claims 0 at once).
func (s *volumeBindingState) HasClaims() bool { return s.vols != nil }

// VolumeStorage calls add for what the Score of VolumeBinding groups by
// class on node: when the pod would bind available volumes there, each
// such volume (its class, the claim's request and the volume's capacity,
// static true); otherwise each claim to provision whose capacity was
// checked (its class, its request and the capacity object's capacity,
// static false). Sizes are in bytes, rounded up. It returns the binder's
// error, if any.
func (s *volumeBindingState) VolumeStorage(node *api.Node, add func(class string, requested, capacity int64, static bool)) error {
	if s.vols == nil {
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

// VolumeBindingPlugin is the filter half of VolumeBinding: PreFilter
// resolves the pod's claims (and rejects a pod whose claims are missing,
// lost, being deleted, not owned by it, or unbound with Immediate
// binding), Filter checks each node: bound claims' volumes must allow
// it, unbound WaitForFirstConsumer claims must find an available volume
// or be provisionable there. A bound GCE PD, AWS EBS, Cinder, Azure
// Disk or Portworx volume is checked translated to CSI on nodes whose CSINode lists
// its plugin in the AnnMigratedPlugins annotation (its zone labels or
// zone requirements become requirements on the CSI driver's zone key,
// as csi-translation-lib writes them; a volume that fails to translate
// is an error there). It reads claims, volumes, classes, CSI drivers,
// CSINodes and capacities from the snapshot's object store.
type VolumeBindingPlugin struct {
	h framework.Handle
}

var (
	_ framework.PreFilterPlugin = (*VolumeBindingPlugin)(nil)
	_ framework.FilterPlugin    = (*VolumeBindingPlugin)(nil)
)

// NewVolumeBinding is the factory of VolumeBinding's filter half. args
// is nil, a config.VolumeBindingArgs or a pointer to one; it is
// validated. The objects are read from h's snapshot at each PreFilter
// (none if h is nil).
func NewVolumeBinding(args any, h framework.Handle) (framework.Plugin, error) {
	if _, err := config.VolumeBindingArgsFrom(args); err != nil {
		return nil, err
	}
	return &VolumeBindingPlugin{h: h}, nil
}

// Name returns config.VolumeBindingName.
func (*VolumeBindingPlugin) Name() string { return config.VolumeBindingName }

func (pl *VolumeBindingPlugin) objects() *cluster.Objects {
	if pl.h == nil {
		return nil
	}
	s := pl.h.Snapshot()
	if s == nil {
		return nil
	}
	return s.Objects()
}

// prepareVolumeBinding is PreFilter's work: the state, or Skip for a pod
// without claims, or the rejection.
func prepareVolumeBinding(objs *cluster.Objects, pod *api.Pod) (*volumeBindingState, *framework.Status) {
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
	return &volumeBindingState{vols: vols}, nil
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
func (pl *VolumeBindingPlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	s, st := prepareVolumeBinding(pl.objects(), pod)
	if s == nil {
		if st.IsSkip() {
			state.Write(VolumeBindingStateKey, noClaimsState)
		}
		return nil, st
	}
	state.Write(VolumeBindingStateKey, s)
	return nil, nil
}

// PreFilterExtensions returns nil.
func (*VolumeBindingPlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node with UnschedulableAndUnresolvable and the
// reasons that apply, in upstream's order: ErrReasonNodeConflict,
// ErrReasonBindConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist;
// a binder error (a claim selector that does not compile, a claim to
// provision without a class or with a missing class) is an Error status.
// Without PreFilter state it resolves the pod's claims itself.
func (pl *VolumeBindingPlugin) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	var s *volumeBindingState
	if d, ok := state.Read(VolumeBindingStateKey); ok {
		s, _ = d.(*volumeBindingState)
	}
	if s == nil || s.vols == nil {
		var st *framework.Status
		if s, st = prepareVolumeBinding(pl.objects(), pod); s == nil {
			if st.IsSkip() {
				return nil
			}
			return st
		}
	}
	return s.filter(nodeInfo.Node())
}

func (s *volumeBindingState) filter(node *api.Node) *framework.Status {
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
	s, st := prepareVolumeBinding(objs, pod)
	if s == nil {
		if st.IsSkip() {
			return nil
		}
		return st
	}
	return s.filter(node)
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
	s, st := prepareVolumeBinding(objs, pod)
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
