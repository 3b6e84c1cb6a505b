package upstream

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/schedkit/schedkit/api"
)

// fillInformers puts schedkit objects (pointers to api types) into the
// stores of factory's informers, converted to upstream's types. The
// informers are never started: plugins read their listers and stores,
// which is all a scheduling cycle needs, without waiting for a sync.
// Kinds no in-tree plugin reads through an informer are ignored.
func fillInformers(factory informers.SharedInformerFactory, objs []any) error {
	for _, o := range objs {
		var store cache.Store
		var obj any
		switch v := o.(type) {
		case *api.PersistentVolume:
			store, obj = factory.Core().V1().PersistentVolumes().Informer().GetStore(), MustConvert[v1.PersistentVolume](v)
		case *api.PersistentVolumeClaim:
			store, obj = factory.Core().V1().PersistentVolumeClaims().Informer().GetStore(), MustConvert[v1.PersistentVolumeClaim](v)
		case *api.StorageClass:
			store, obj = factory.Storage().V1().StorageClasses().Informer().GetStore(), MustConvert[storagev1.StorageClass](v)
		case *api.CSINode:
			store, obj = factory.Storage().V1().CSINodes().Informer().GetStore(), MustConvert[storagev1.CSINode](v)
		case *api.CSIDriver:
			store, obj = factory.Storage().V1().CSIDrivers().Informer().GetStore(), MustConvert[storagev1.CSIDriver](v)
		case *api.CSIStorageCapacity:
			store, obj = factory.Storage().V1().CSIStorageCapacities().Informer().GetStore(), MustConvert[storagev1.CSIStorageCapacity](v)
		default:
			continue
		}
		if err := store.Add(obj); err != nil {
			return fmt.Errorf("informer store: %w", err)
		}
	}
	return nil
}
