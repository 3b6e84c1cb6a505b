package predicates

import (
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
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

// ClaimNotFound is the API server's NotFound text for a claim, as the
// listers report it.
func ClaimNotFound(name string) string {
	return fmt.Sprintf("persistentvolumeclaim %q not found", name)
}

// HasRestrictedVolume reports whether v is of a kind whose conflicts
// VolumeRestrictions checks (GCE PD, AWS EBS, RBD, iSCSI).
func HasRestrictedVolume(v *api.Volume) bool {
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
		if !HasRestrictedVolume(v) {
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
