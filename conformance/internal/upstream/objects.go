package upstream

import (
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"

	"github.com/schedkit/schedkit/api"
)

// ConvertObjects converts the schedkit objects among objs (pointers to
// api types of the kinds InformerFactory holds) to upstream's types;
// other values (upstream objects already) are kept as they are.
func ConvertObjects(objs []any) []any {
	out := make([]any, 0, len(objs))
	for _, o := range objs {
		switch v := o.(type) {
		case *api.PersistentVolume:
			o = MustConvert[v1.PersistentVolume](v)
		case *api.PersistentVolumeClaim:
			o = MustConvert[v1.PersistentVolumeClaim](v)
		case *api.StorageClass:
			o = MustConvert[storagev1.StorageClass](v)
		case *api.CSINode:
			o = MustConvert[storagev1.CSINode](v)
		case *api.CSIDriver:
			o = MustConvert[storagev1.CSIDriver](v)
		case *api.CSIStorageCapacity:
			o = MustConvert[storagev1.CSIStorageCapacity](v)
		case *api.VolumeAttachment:
			o = MustConvert[storagev1.VolumeAttachment](v)
		case *api.Service:
			o = MustConvert[v1.Service](v)
		case *api.ReplicationController:
			o = MustConvert[v1.ReplicationController](v)
		case *api.ReplicaSet:
			o = MustConvert[appsv1.ReplicaSet](v)
		case *api.StatefulSet:
			o = MustConvert[appsv1.StatefulSet](v)
		case *api.Namespace:
			o = MustConvert[v1.Namespace](v)
		}
		out = append(out, o)
	}
	return out
}
