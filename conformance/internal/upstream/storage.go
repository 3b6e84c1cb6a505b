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

	"github.com/schedkit/schedkit/internal/regression"
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

// informerOptions returns the framework options that give the plugins an
// informer factory whose listers hold objs (the informers are never
// started: their stores are filled directly), and the CSI manager over
// its CSINode lister.
func informerOptions(objs *regression.Objects) []runtime.Option {
	f := informers.NewSharedInformerFactory(nil, 0)
	core, storage := f.Core().V1(), f.Storage().V1()
	pvs := core.PersistentVolumes().Informer().GetIndexer()
	pvcs := core.PersistentVolumeClaims().Informer().GetIndexer()
	classes := storage.StorageClasses().Informer().GetIndexer()
	csiNodes := storage.CSINodes().Informer().GetIndexer()
	drivers := storage.CSIDrivers().Informer().GetIndexer()
	capacities := storage.CSIStorageCapacities().Informer().GetIndexer()
	// Listers the plugins ask for must exist before the framework is
	// built; VolumeAttachments stay empty.
	_ = storage.VolumeAttachments().Informer()
	if objs != nil {
		for _, o := range objs.PersistentVolumes {
			must(pvs.Add(MustConvert[v1.PersistentVolume](o)))
		}
		for _, o := range objs.PersistentVolumeClaims {
			must(pvcs.Add(MustConvert[v1.PersistentVolumeClaim](o)))
		}
		for _, o := range objs.StorageClasses {
			must(classes.Add(MustConvert[storagev1.StorageClass](o)))
		}
		for _, o := range objs.CSINodes {
			must(csiNodes.Add(MustConvert[storagev1.CSINode](o)))
		}
		for _, o := range objs.CSIDrivers {
			must(drivers.Add(MustConvert[storagev1.CSIDriver](o)))
		}
		for _, o := range objs.CSIStorageCapacities {
			must(capacities.Add(MustConvert[storagev1.CSIStorageCapacity](o)))
		}
	}
	return []runtime.Option{
		runtime.WithInformerFactory(f),
		runtime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(storage.CSINodes().Lister())),
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
