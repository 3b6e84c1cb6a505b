package nodevolumelimits

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// Name is the plugin's name in a profile.
const Name = config.NodeVolumeLimitsName

// NodeVolumeLimits is the NodeVolumeLimits plugin (upstream's CSI
// limits plugin; classic names MaxCSIVolumeCountPred and the per-cloud
// MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount).
//
// It counts, per CSI driver, the distinct volumes (driver and volume
// handle) of the pod and of the pods on the node: claims bound to CSI
// volumes, bound in-tree volumes and inline in-tree volumes migrated to
// CSI (GCE PD, AWS EBS, Azure Disk, Cinder and Portworx, on nodes with a
// CSINode object), unbound claims through their StorageClass's
// provisioner, and
// generic ephemeral volumes (the claim "<pod>-<volume>", which must be
// controlled by the pod). The limits are the CSINode's per-driver
// allocatable counts; a node over one for a driver the pod adds volumes
// of is Unschedulable, ErrReasonMaxVolumeCountExceeded. A driver whose
// CSIDriver sets preventPodSchedulingIfMissing rejects nodes whose
// CSINode does not list it ("<driver> CSI driver is not installed on the
// node"). A missing claim of the pod rejects every node,
// UnschedulableAndUnresolvable ("looking up PVC <ns>/<name>: ...").
// The node's VolumeAttachments count as attached volumes too (see
// attachmentVolumes). PreFilter returns Skip for a pod without claims,
// ephemeral volumes or migratable inline volumes.
type NodeVolumeLimits struct {
	h framework.Handle
	// attached keeps, across cycles, the volumes attached to each node
	// of h's snapshot, derived once per NodeInfo and object generation.
	attached predicates.VolumeLimitsCache
}

var (
	_ framework.PreFilterPlugin = (*NodeVolumeLimits)(nil)
	_ framework.FilterPlugin    = (*NodeVolumeLimits)(nil)
)

// New is the NodeVolumeLimits plugin factory; it takes no
// arguments. Objects are looked up in h's snapshot's object store.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &NodeVolumeLimits{h: h}, nil
}

// Name returns Name.
func (pl *NodeVolumeLimits) Name() string { return Name }

var _ framework.EnqueueExtensions = (*NodeVolumeLimits)(nil)

// EventsToRegister returns AssignedPodDelete. A deleted pod frees the
// attachments it counted against the node's limits.
func (pl *NodeVolumeLimits) EventsToRegister() framework.ClusterEvent {
	return framework.AssignedPodDelete
}
