package predicates

import (
	"context"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// VolumeRestrictions' reasons, as upstream's volumerestrictions package.
const (
	// ErrReasonDiskConflict: a GCE PD, AWS EBS, RBD or iSCSI volume of the
	// pod conflicts with one of a pod on the node (the classic
	// NoDiskConflict predicate).
	ErrReasonDiskConflict = "node(s) had no available disk"
	// ErrReasonReadWriteOncePodConflict: a ReadWriteOncePod claim of the
	// pod is already used by another pod.
	ErrReasonReadWriteOncePodConflict = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
)

var (
	diskConflictStatus = framework.NewStatus(framework.Unschedulable, ErrReasonDiskConflict)
	rwopConflictStatus = framework.NewStatus(framework.Unschedulable, ErrReasonReadWriteOncePodConflict)
)

const volumeRestrictionsStateKey framework.StateKey = "PreFilter" + config.VolumeRestrictionsName

// objectsOf returns the object store of h's snapshot (nil, an empty
// store, without a handle).
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

// claimNotFound is the API server's NotFound text for a claim, as the
// listers report it.
func claimNotFound(name string) string {
	return fmt.Sprintf("persistentvolumeclaim %q not found", name)
}

// hasRestrictedVolume reports whether v is of a kind whose conflicts
// VolumeRestrictions checks (GCE PD, AWS EBS, RBD, iSCSI).
func hasRestrictedVolume(v *api.Volume) bool {
	return v.GCEPersistentDisk != nil || v.AWSElasticBlockStore != nil || v.RBD != nil || v.ISCSI != nil
}

// VolumesConflict reports whether volume v of a pod to place conflicts
// with one of the volumes of existing: the same GCE PD unless both are
// read-only, the same AWS EBS volume ID, the same iSCSI IQN unless both
// are read-only, or the same RBD image (a shared monitor, the same pool
// and image) unless both are read-only.
func VolumesConflict(v *api.Volume, existing *api.Pod) bool {
	for i := range existing.Spec.Volumes {
		ev := &existing.Spec.Volumes[i]
		if a, b := v.GCEPersistentDisk, ev.GCEPersistentDisk; a != nil && b != nil &&
			a.PDName == b.PDName && !(a.ReadOnly && b.ReadOnly) {
			return true
		}
		if a, b := v.AWSElasticBlockStore, ev.AWSElasticBlockStore; a != nil && b != nil && a.VolumeID == b.VolumeID {
			return true
		}
		if a, b := v.ISCSI, ev.ISCSI; a != nil && b != nil && a.IQN == b.IQN && !(a.ReadOnly && b.ReadOnly) {
			return true
		}
		if a, b := v.RBD, ev.RBD; a != nil && b != nil && a.RBDPool == b.RBDPool && a.RBDImage == b.RBDImage &&
			!(a.ReadOnly && b.ReadOnly) && shareAny(a.CephMonitors, b.CephMonitors) {
			return true
		}
	}
	return false
}

// shareAny reports whether a and b have an element in common.
func shareAny(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// NoDiskConflict is the disk half of the VolumeRestrictions filter as a
// plain function (the classic NoDiskConflict predicate): true unless a
// GCE PD, AWS EBS, RBD or iSCSI volume of pod conflicts with a volume of
// a pod on the node (see VolumesConflict).
func NoDiskConflict(pod *api.Pod, nodeInfo *cluster.NodeInfo) bool {
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		if !hasRestrictedVolume(v) {
			continue
		}
		for _, p := range nodeInfo.Pods {
			if VolumesConflict(v, p.Pod) {
				return false
			}
		}
	}
	return true
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

// VolumeRestrictionsPlugin is the VolumeRestrictions plugin (classic
// name NoDiskConflict). PreFilter looks up the pod's claims (a missing
// claim rejects the pod, UnschedulableAndUnresolvable, with the API
// server's "persistentvolumeclaim "<name>" not found") and counts the
// uses of its ReadWriteOncePod claims by scheduled pods; it returns Skip
// for a pod without GCE PD, AWS EBS, RBD or iSCSI volumes whose
// ReadWriteOncePod claims are unused. Filter rejects, Unschedulable, a
// node where a disk conflicts (ErrReasonDiskConflict), and every node
// while a ReadWriteOncePod claim is in use
// (ErrReasonReadWriteOncePodConflict); preemption's AddPod and RemovePod
// keep the count.
type VolumeRestrictionsPlugin struct {
	h framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*VolumeRestrictionsPlugin)(nil)
	_ framework.PreFilterExtensions = (*VolumeRestrictionsPlugin)(nil)
	_ framework.FilterPlugin        = (*VolumeRestrictionsPlugin)(nil)
)

// NewVolumeRestrictions is the VolumeRestrictions plugin factory; it takes
// no arguments. Claims are looked up in h's snapshot's object store (none
// without a handle).
func NewVolumeRestrictions(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeRestrictionsPlugin{h: h}, nil
}

// Name returns config.VolumeRestrictionsName.
func (*VolumeRestrictionsPlugin) Name() string { return config.VolumeRestrictionsName }

// PreFilter looks up the pod's claims and counts the uses of its
// ReadWriteOncePod ones among the scheduled pods of nodes.
func (pl *VolumeRestrictionsPlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if len(pod.Spec.Volumes) == 0 {
		return nil, skipStatus
	}
	needsCheck := false
	var rwop []string
	var objs *cluster.Objects
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		needsCheck = needsCheck || hasRestrictedVolume(v)
		if v.PersistentVolumeClaim == nil {
			continue
		}
		if objs == nil {
			objs = objectsOf(pl.h)
		}
		name := v.PersistentVolumeClaim.ClaimName
		pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, name)
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, claimNotFound(name))
		}
		if slices.Contains(pvc.Spec.AccessModes, api.ReadWriteOncePod) && !slices.Contains(rwop, pvc.Name) {
			rwop = append(rwop, pvc.Name)
		}
	}
	conflicts := 0
	for _, name := range rwop {
		if claimInUse(nodes, pod.Namespace+"/"+name) {
			conflicts++
		}
	}
	if !needsCheck && conflicts == 0 {
		return nil, skipStatus
	}
	state.Write(volumeRestrictionsStateKey, &volumeRestrictionsState{rwopClaims: rwop, conflicts: conflicts})
	return nil, nil
}

// claimInUse reports whether a pod on one of nodes uses the claim
// "namespace/name" (upstream's StorageInfos().IsPVCUsedByPods over the
// snapshot). It runs only for pods with ReadWriteOncePod claims.
func claimInUse(nodes []*cluster.NodeInfo, key string) bool {
	for _, ni := range nodes {
		if ni.PVCRefCounts[key] > 0 {
			return true
		}
	}
	return false
}

// PreFilterExtensions returns the plugin: AddPod and RemovePod keep the
// ReadWriteOncePod use count.
func (pl *VolumeRestrictionsPlugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

func readVolumeRestrictionsState(state *framework.CycleState) (*volumeRestrictionsState, *framework.Status) {
	d, ok := state.Read(volumeRestrictionsStateKey)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("cannot read %q from cycleState", volumeRestrictionsStateKey))
	}
	s, ok := d.(*volumeRestrictionsState)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("%+v convert to volumerestrictions.state error", d))
	}
	return s, nil
}

// AddPod counts podToAdd's uses of the pod's ReadWriteOncePod claims.
func (pl *VolumeRestrictionsPlugin) AddPod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToAdd *cluster.PodInfo, _ *cluster.NodeInfo) *framework.Status {
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	s.conflicts += s.usesOf(podToAdd.Pod)
	return nil
}

// RemovePod discounts podToRemove's uses of the pod's ReadWriteOncePod
// claims.
func (pl *VolumeRestrictionsPlugin) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *cluster.PodInfo, _ *cluster.NodeInfo) *framework.Status {
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	s.conflicts -= s.usesOf(podToRemove.Pod)
	return nil
}

// Filter rejects the node on a disk conflict, and any node while one of
// the pod's ReadWriteOncePod claims is in use.
func (pl *VolumeRestrictionsPlugin) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if !NoDiskConflict(pod, nodeInfo) {
		return diskConflictStatus
	}
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	if s.conflicts > 0 {
		return rwopConflictStatus
	}
	return nil
}
