package resource

import (
	"reflect"

	"github.com/schedkit/schedkit/api"
)

// DeepCopyPod returns a copy of pod that shares no maps, slices, pointers
// or quantity storage with it, so that changing either never changes the
// other. It returns nil for nil.
//
// The copy is made by walking the types, so fields added to package api
// later are copied too. Structs with unexported fields (time.Time) are
// copied as values, and quantities are cloned.
func DeepCopyPod(pod *api.Pod) *api.Pod {
	if pod == nil {
		return nil
	}
	out := new(api.Pod)
	deepCopyValue(reflect.ValueOf(out).Elem(), reflect.ValueOf(pod).Elem())
	return out
}

// DeepCopyLimitRange returns a copy of lr that shares nothing with it. It
// returns nil for nil.
func DeepCopyLimitRange(lr *api.LimitRange) *api.LimitRange {
	if lr == nil {
		return nil
	}
	out := new(api.LimitRange)
	deepCopyValue(reflect.ValueOf(out).Elem(), reflect.ValueOf(lr).Elem())
	return out
}

var quantityType = reflect.TypeFor[Quantity]()

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
		if src.Type() == quantityType {
			dst.Set(reflect.ValueOf(clone(src.Interface().(Quantity))))
			return
		}
		t := src.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				// Opaque value types such as time.Time: copy whole.
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
