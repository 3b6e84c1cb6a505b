package volumerestrictions

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.VolumeRestrictionsName

// VolumeRestrictions is the VolumeRestrictions plugin (classic
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
type VolumeRestrictions struct {
	h framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*VolumeRestrictions)(nil)
	_ framework.PreFilterExtensions = (*VolumeRestrictions)(nil)
	_ framework.FilterPlugin        = (*VolumeRestrictions)(nil)
)

// New is the VolumeRestrictions plugin factory; it takes
// no arguments. Claims are looked up in h's snapshot's object store (none
// without a handle).
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeRestrictions{h: h}, nil
}

// Name returns Name.
func (pl *VolumeRestrictions) Name() string { return Name }

var _ framework.EnqueueExtensions = (*VolumeRestrictions)(nil)

// EventsToRegister returns NodeAdd and AssignedPodDelete. A new node has
// no conflicting disk, and a deleted pod frees its disks and claims.
func (pl *VolumeRestrictions) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.AssignedPodDelete
}
