package upstream

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/client-go/informers"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

// InformerFactory returns an informer factory whose stores hold objects
// (*v1.Service, *v1.ReplicationController, *appsv1.ReplicaSet,
// *appsv1.StatefulSet, *v1.Namespace, and the storage kinds of
// ConvertStorage). The informers are never started,
// so no client is needed: plugins read the stores through listers.
func InformerFactory(objects []any) (informers.SharedInformerFactory, error) {
	f := informers.NewSharedInformerFactory(nil, 0)
	// Listers are taken by the plugins at construction: create every
	// informer the in-tree plugins use, even with no objects.
	stores := map[string]interface{ Add(any) error }{
		"Service":               f.Core().V1().Services().Informer().GetStore(),
		"ReplicationController": f.Core().V1().ReplicationControllers().Informer().GetStore(),
		"ReplicaSet":            f.Apps().V1().ReplicaSets().Informer().GetStore(),
		"StatefulSet":           f.Apps().V1().StatefulSets().Informer().GetStore(),
		"Namespace":             f.Core().V1().Namespaces().Informer().GetStore(),
		"PersistentVolume":      f.Core().V1().PersistentVolumes().Informer().GetStore(),
		"PersistentVolumeClaim": f.Core().V1().PersistentVolumeClaims().Informer().GetStore(),
		"StorageClass":          f.Storage().V1().StorageClasses().Informer().GetStore(),
		"CSINode":               f.Storage().V1().CSINodes().Informer().GetStore(),
		"CSIDriver":             f.Storage().V1().CSIDrivers().Informer().GetStore(),
		"CSIStorageCapacity":    f.Storage().V1().CSIStorageCapacities().Informer().GetStore(),
		"VolumeAttachment":      f.Storage().V1().VolumeAttachments().Informer().GetStore(),
	}
	for _, o := range objects {
		var kind string
		switch o.(type) {
		case *v1.Service:
			kind = "Service"
		case *v1.ReplicationController:
			kind = "ReplicationController"
		case *appsv1.ReplicaSet:
			kind = "ReplicaSet"
		case *appsv1.StatefulSet:
			kind = "StatefulSet"
		case *v1.Namespace:
			kind = "Namespace"
		case *v1.PersistentVolume:
			kind = "PersistentVolume"
		case *v1.PersistentVolumeClaim:
			kind = "PersistentVolumeClaim"
		case *storagev1.StorageClass:
			kind = "StorageClass"
		case *storagev1.CSINode:
			kind = "CSINode"
		case *storagev1.CSIDriver:
			kind = "CSIDriver"
		case *storagev1.CSIStorageCapacity:
			kind = "CSIStorageCapacity"
		case *storagev1.VolumeAttachment:
			kind = "VolumeAttachment"
		default:
			return nil, fmt.Errorf("informer factory: unsupported object %T", o)
		}
		if err := stores[kind].Add(o); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// ConvertWorkloads converts a plugins input's workloads to upstream
// objects for InformerFactory.
func ConvertWorkloads(w *regression.Workloads) []any {
	var out []any
	for _, o := range w.Services {
		out = append(out, MustConvert[v1.Service](o))
	}
	for _, o := range w.ReplicaSets {
		out = append(out, MustConvert[appsv1.ReplicaSet](o))
	}
	for _, o := range w.StatefulSets {
		out = append(out, MustConvert[appsv1.StatefulSet](o))
	}
	for _, o := range w.ReplicationControllers {
		out = append(out, MustConvert[v1.ReplicationController](o))
	}
	return out
}

// ObjectOptions returns the framework options that give upstream's
// plugins their informers over objects (see InformerFactory) and the CSI
// manager the volume plugins share.
func ObjectOptions(objects []any) ([]runtime.Option, error) {
	f, err := InformerFactory(objects)
	if err != nil {
		return nil, err
	}
	return append(storageOptions(f), runtime.WithInformerFactory(f)), nil
}
