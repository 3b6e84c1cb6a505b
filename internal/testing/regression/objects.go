package regression

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// StorageObjects are the objects of a plugins input besides nodes and
// pods: the storage objects the volume plugins look up.
type StorageObjects struct {
	PersistentVolumes      []*api.PersistentVolume      `json:"persistentVolumes,omitempty"`
	PersistentVolumeClaims []*api.PersistentVolumeClaim `json:"persistentVolumeClaims,omitempty"`
	StorageClasses         []*api.StorageClass          `json:"storageClasses,omitempty"`
	CSINodes               []*api.CSINode               `json:"csiNodes,omitempty"`
	CSIDrivers             []*api.CSIDriver             `json:"csiDrivers,omitempty"`
	CSIStorageCapacities   []*api.CSIStorageCapacity    `json:"csiStorageCapacities,omitempty"`
	VolumeAttachments      []*api.VolumeAttachment      `json:"volumeAttachments,omitempty"`
}

// All lists the objects (nil for nil).
func (o *StorageObjects) All() []any {
	if o == nil {
		return nil
	}
	var out []any
	for _, x := range o.PersistentVolumes {
		out = append(out, x)
	}
	for _, x := range o.PersistentVolumeClaims {
		out = append(out, x)
	}
	for _, x := range o.StorageClasses {
		out = append(out, x)
	}
	for _, x := range o.CSINodes {
		out = append(out, x)
	}
	for _, x := range o.CSIDrivers {
		out = append(out, x)
	}
	for _, x := range o.CSIStorageCapacities {
		out = append(out, x)
	}
	for _, x := range o.VolumeAttachments {
		out = append(out, x)
	}
	return out
}

// newSnapshot builds the snapshot of a plugins input: its nodes, pods,
// objects, workloads and namespaces.
func newSnapshot(in *PluginsInput) (*cluster.Snapshot, error) {
	snap, err := cluster.NewSnapshot(in.Nodes, in.Pods)
	if err != nil {
		return nil, err
	}
	if objs := in.Objects.All(); len(objs) > 0 {
		if err := snap.AddObjects(objs...); err != nil {
			return nil, err
		}
	}
	if err := in.Workloads.addTo(snap); err != nil {
		return nil, err
	}
	for _, ns := range in.Namespaces {
		if err := snap.AddObject(ns); err != nil {
			return nil, err
		}
	}
	return snap, nil
}
