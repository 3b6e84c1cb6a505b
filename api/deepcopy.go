package api

import "reflect"

// deepCopy returns a copy of v that shares no maps, slices or pointers
// with it, nil for nil. It walks the types, so fields added later are
// copied too. Structs with unexported fields (time.Time, quantities)
// are immutable values and are copied whole.
func deepCopy[T any](v *T) *T {
	if v == nil {
		return nil
	}
	out := new(T)
	deepCopyValue(reflect.ValueOf(out).Elem(), reflect.ValueOf(v).Elem())
	return out
}

// deepCopyValue sets dst (settable) to a deep copy of src; both have the
// same type.
func deepCopyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			deepCopyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(src.Type().Key()).Elem()
			deepCopyValue(k, it.Key())
			v := reflect.New(src.Type().Elem()).Elem()
			deepCopyValue(v, it.Value())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	case reflect.Struct:
		t := src.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				dst.Set(src)
				return
			}
		}
		for i := range t.NumField() {
			deepCopyValue(dst.Field(i), src.Field(i))
		}
	default:
		dst.Set(src)
	}
}

// DeepCopy returns a copy of the Pod that shares nothing with it; nil
// for nil.
func (x *Pod) DeepCopy() *Pod { return deepCopy(x) }

// DeepCopy returns a copy of the Node that shares nothing with it; nil
// for nil.
func (x *Node) DeepCopy() *Node { return deepCopy(x) }

// DeepCopy returns a copy of the Namespace that shares nothing with it; nil
// for nil.
func (x *Namespace) DeepCopy() *Namespace { return deepCopy(x) }

// DeepCopy returns a copy of the LimitRange that shares nothing with it; nil
// for nil.
func (x *LimitRange) DeepCopy() *LimitRange { return deepCopy(x) }

// DeepCopy returns a copy of the PriorityClass that shares nothing with it; nil
// for nil.
func (x *PriorityClass) DeepCopy() *PriorityClass { return deepCopy(x) }

// DeepCopy returns a copy of the PodDisruptionBudget that shares nothing with it; nil
// for nil.
func (x *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget { return deepCopy(x) }

// DeepCopy returns a copy of the ResourceQuota that shares nothing with it; nil
// for nil.
func (x *ResourceQuota) DeepCopy() *ResourceQuota { return deepCopy(x) }

// DeepCopy returns a copy of the PersistentVolume that shares nothing with it; nil
// for nil.
func (x *PersistentVolume) DeepCopy() *PersistentVolume { return deepCopy(x) }

// DeepCopy returns a copy of the PersistentVolumeClaim that shares nothing with it; nil
// for nil.
func (x *PersistentVolumeClaim) DeepCopy() *PersistentVolumeClaim { return deepCopy(x) }

// DeepCopy returns a copy of the StorageClass that shares nothing with it; nil
// for nil.
func (x *StorageClass) DeepCopy() *StorageClass { return deepCopy(x) }

// DeepCopy returns a copy of the CSINode that shares nothing with it; nil
// for nil.
func (x *CSINode) DeepCopy() *CSINode { return deepCopy(x) }

// DeepCopy returns a copy of the CSIDriver that shares nothing with it; nil
// for nil.
func (x *CSIDriver) DeepCopy() *CSIDriver { return deepCopy(x) }

// DeepCopy returns a copy of the CSIStorageCapacity that shares nothing with it; nil
// for nil.
func (x *CSIStorageCapacity) DeepCopy() *CSIStorageCapacity { return deepCopy(x) }

// DeepCopy returns a copy of the VolumeAttachment that shares nothing with it; nil
// for nil.
func (x *VolumeAttachment) DeepCopy() *VolumeAttachment { return deepCopy(x) }

// DeepCopy returns a copy of the Service that shares nothing with it; nil
// for nil.
func (x *Service) DeepCopy() *Service { return deepCopy(x) }

// DeepCopy returns a copy of the ReplicationController that shares nothing with it; nil
// for nil.
func (x *ReplicationController) DeepCopy() *ReplicationController { return deepCopy(x) }

// DeepCopy returns a copy of the ReplicaSet that shares nothing with it; nil
// for nil.
func (x *ReplicaSet) DeepCopy() *ReplicaSet { return deepCopy(x) }

// DeepCopy returns a copy of the StatefulSet that shares nothing with it; nil
// for nil.
func (x *StatefulSet) DeepCopy() *StatefulSet { return deepCopy(x) }

// DeepCopy returns a copy of the ControllerRevision that shares nothing with it; nil
// for nil.
func (x *ControllerRevision) DeepCopy() *ControllerRevision { return deepCopy(x) }

// DeepCopy returns a copy of the Deployment that shares nothing with it; nil
// for nil.
func (x *Deployment) DeepCopy() *Deployment { return deepCopy(x) }

// DeepCopy returns a copy of the DaemonSet that shares nothing with it; nil
// for nil.
func (x *DaemonSet) DeepCopy() *DaemonSet { return deepCopy(x) }

// DeepCopy returns a copy of the Job that shares nothing with it; nil
// for nil.
func (x *Job) DeepCopy() *Job { return deepCopy(x) }

// DeepCopy returns a copy of the CronJob that shares nothing with it; nil
// for nil.
func (x *CronJob) DeepCopy() *CronJob { return deepCopy(x) }

// DeepCopy returns a copy that shares nothing with x; nil for nil.
func (x *DeviceClass) DeepCopy() *DeviceClass { return deepCopy(x) }

// DeepCopy returns a copy that shares nothing with x; nil for nil.
func (x *ResourceSlice) DeepCopy() *ResourceSlice { return deepCopy(x) }

// DeepCopy returns a copy that shares nothing with x; nil for nil.
func (x *ResourceClaim) DeepCopy() *ResourceClaim { return deepCopy(x) }

// DeepCopy returns a copy that shares nothing with x; nil for nil.
func (x *ResourceClaimTemplate) DeepCopy() *ResourceClaimTemplate { return deepCopy(x) }

// DeepCopy returns a copy that shares nothing with x; nil for nil.
func (x *DeviceTaintRule) DeepCopy() *DeviceTaintRule { return deepCopy(x) }
