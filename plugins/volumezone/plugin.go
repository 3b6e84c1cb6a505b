package volumezone

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.VolumeZoneName

// VolumeZone is the VolumeZone plugin (classic name
// NoVolumeZoneConflict). PreFilter resolves the pod's claims to their
// bound volumes' zone and region labels (topology.kubernetes.io and the
// legacy failure-domain.beta.kubernetes.io ones), skipping
// WaitForFirstConsumer claims not yet bound, and rejecting the pod,
// UnschedulableAndUnresolvable, for a missing claim, volume or class, a
// class without a binding mode, or an unbound Immediate claim, with
// upstream's texts. It returns Skip when no bound volume carries such a
// label. Filter rejects nodes whose labels do not match,
// UnschedulableAndUnresolvable with ErrReasonVolumeZoneConflict; a node
// without any zone or region label matches.
type VolumeZone struct {
	h framework.Handle
}

var (
	_ framework.PreFilterPlugin = (*VolumeZone)(nil)
	_ framework.FilterPlugin    = (*VolumeZone)(nil)
)

// New is the VolumeZone plugin factory; it takes no arguments.
// Objects are looked up in h's snapshot's object store.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeZone{h: h}, nil
}

// Name returns Name.
func (pl *VolumeZone) Name() string { return Name }

var _ framework.EnqueueExtensions = (*VolumeZone)(nil)

// EventsToRegister returns NodeAdd and NodeUpdate. A new node or a
// node's new zone labels may match the volumes' zones.
func (pl *VolumeZone) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
