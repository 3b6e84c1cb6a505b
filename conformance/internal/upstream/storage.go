package upstream

import (
	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/client-go/informers"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodedeclaredfeatures"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumerestrictions"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumezone"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

// storagePlugins are the volume and node-feature plugins of the
// differential run (appended to Plugins in default-profile order by
// plugins.go).
var storagePlugins = []Plugin{
	{volumerestrictions.Name, runtime.FactoryAdapter(fts, volumerestrictions.New)},
	{nodevolumelimits.CSIName, runtime.FactoryAdapter(fts, nodevolumelimits.NewCSI)},
	{volumezone.Name, runtime.FactoryAdapter(fts, volumezone.New)},
	{nodedeclaredfeatures.Name, runtime.FactoryAdapter(fts, nodedeclaredfeatures.New)},
}

// ConvertStorage converts a plugins input's storage objects to upstream
// objects for InformerFactory (nil for nil).
func ConvertStorage(objs *regression.StorageObjects) []any {
	if objs == nil {
		return nil
	}
	var out []any
	for _, o := range objs.PersistentVolumes {
		out = append(out, MustConvert[v1.PersistentVolume](o))
	}
	for _, o := range objs.PersistentVolumeClaims {
		out = append(out, MustConvert[v1.PersistentVolumeClaim](o))
	}
	for _, o := range objs.StorageClasses {
		out = append(out, MustConvert[storagev1.StorageClass](o))
	}
	for _, o := range objs.CSINodes {
		out = append(out, MustConvert[storagev1.CSINode](o))
	}
	for _, o := range objs.CSIDrivers {
		out = append(out, MustConvert[storagev1.CSIDriver](o))
	}
	for _, o := range objs.CSIStorageCapacities {
		out = append(out, MustConvert[storagev1.CSIStorageCapacity](o))
	}
	for _, o := range objs.VolumeAttachments {
		out = append(out, MustConvert[storagev1.VolumeAttachment](o))
	}
	return out
}

// storageOptions returns the framework option that gives the volume
// plugins the CSI manager over f's CSINode lister.
func storageOptions(f informers.SharedInformerFactory) []runtime.Option {
	return []runtime.Option{
		runtime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(f.Storage().V1().CSINodes().Lister())),
	}
}
