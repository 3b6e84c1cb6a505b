//go:build !deepcopygen

package api

import (
	"reflect"
	"testing"
	"time"

	"github.com/schedkit/schedkit/quantity"
)

// deepCopyReflect is the reference the generated DeepCopy methods
// follow: a copy of v that shares no maps, slices or pointers with it,
// nil for nil. Structs with unexported fields (time.Time, quantities)
// are immutable values and are copied whole.
func deepCopyReflect[T any](v *T) *T {
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
		if opaqueStruct(src.Type()) {
			dst.Set(src)
			return
		}
		for i := range src.NumField() {
			deepCopyValue(dst.Field(i), src.Field(i))
		}
	default:
		dst.Set(src)
	}
}

// DeepCopy copies everything and shares nothing: changing the copy's
// maps, slices and pointers leaves the original as it was.
func TestPodDeepCopy(t *testing.T) {
	yes := true
	prio := int32(5)
	now := NewTime(time.Unix(100, 0))
	p := &Pod{ObjectMeta: ObjectMeta{Name: "p", Labels: map[string]string{"a": "b"},
		OwnerReferences: []OwnerReference{{Name: "rs", Controller: &yes}}, DeletionTimestamp: &now}}
	p.Spec.Priority = &prio
	p.Spec.Containers = []Container{{Name: "c", Resources: ResourceRequirements{Requests: ResourceList{"cpu": quantity.MustParse("1")}}}}
	p.Spec.Volumes = []Volume{{Name: "v", EmptyDir: &EmptyDirVolumeSource{}}}
	c := p.DeepCopy()
	if !reflect.DeepEqual(c, p) {
		t.Fatalf("copy differs:\n%+v\n%+v", c, p)
	}
	c.Labels["a"] = "x"
	*c.OwnerReferences[0].Controller = false
	*c.Spec.Priority = 9
	c.Spec.Containers[0].Resources.Requests["cpu"] = quantity.MustParse("2")
	c.Spec.Volumes[0].EmptyDir.Medium = "Memory"
	if p.Labels["a"] != "b" || !*p.OwnerReferences[0].Controller || *p.Spec.Priority != 5 ||
		p.Spec.Containers[0].Resources.Requests.Cpu().String() != "1" || p.Spec.Volumes[0].EmptyDir.Medium != "" {
		t.Errorf("the original changed with its copy: %+v", p)
	}
	if (*Pod)(nil).DeepCopy() != nil || (*Node)(nil).DeepCopy() != nil {
		t.Error("DeepCopy of nil is not nil")
	}
	n := &Node{ObjectMeta: ObjectMeta{Name: "n"}, Spec: NodeSpec{Taints: []Taint{{Key: "k"}}}}
	nc := n.DeepCopy()
	nc.Spec.Taints[0].Key = "x"
	if n.Spec.Taints[0].Key != "k" {
		t.Error("node copy shares its taints")
	}
}
