package preemption

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// shapeBase is a pod with a little of everything set, for the shape
// tests to change one field of.
func shapeBase() *api.Pod {
	prio := int32(10)
	res := api.ResourceList{api.ResourceCPU: quantity.MustParse("3"), api.ResourceMemory: quantity.MustParse("500Mi")}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "u", Labels: map[string]string{"app": "a"}},
		Spec: api.PodSpec{Priority: &prio, NodeSelector: map[string]string{"tier": "x"}, Containers: []api.Container{{
			Name: "c", Image: "pause", Resources: api.ResourceRequirements{Requests: res, Limits: res},
		}}},
	}
}

// leafPaths calls visit with a copy of base in which one field (a leaf
// of the type's tree, or a slice, map or pointer set to hold one zero
// element) differs, for every such field reachable in a few levels, and
// the field's path.
func leafPaths(base *api.Pod, visit func(path string, p *api.Pod)) {
	var walk func(path string, get func(p *api.Pod) reflect.Value, t reflect.Type, depth int)
	walk = func(path string, get func(p *api.Pod) reflect.Value, t reflect.Type, depth int) {
		change := func(set func(v reflect.Value)) {
			p := base.DeepCopy()
			set(get(p))
			visit(path, p)
		}
		switch t.Kind() {
		case reflect.Struct:
			exported := true
			for i := range t.NumField() {
				exported = exported && t.Field(i).IsExported()
			}
			if !exported || depth > 6 {
				return // immutable values (quantities, times): set whole elsewhere
			}
			for i := range t.NumField() {
				f := t.Field(i)
				walk(path+"."+f.Name, func(p *api.Pod) reflect.Value { return get(p).Field(i) }, f.Type, depth+1)
			}
		case reflect.Pointer:
			change(func(v reflect.Value) {
				if v.IsNil() {
					v.Set(reflect.New(t.Elem()))
				} else {
					v.Set(reflect.Zero(t))
				}
			})
		case reflect.Slice:
			change(func(v reflect.Value) { v.Set(reflect.Append(v, reflect.Zero(t.Elem()))) })
			if t.Elem().Kind() == reflect.Struct {
				walk(path+"[0]", func(p *api.Pod) reflect.Value {
					v := get(p)
					if v.Len() == 0 {
						v.Set(reflect.Append(v, reflect.Zero(t.Elem())))
					}
					return v.Index(0)
				}, t.Elem(), depth+1)
			}
		case reflect.Map:
			change(func(v reflect.Value) {
				if v.IsNil() {
					v.Set(reflect.MakeMap(t))
				}
				k := reflect.New(t.Key()).Elem()
				if k.Kind() == reflect.String {
					k.SetString("zz-new")
				}
				v.SetMapIndex(k, reflect.Zero(t.Elem()))
			})
		case reflect.String:
			change(func(v reflect.Value) { v.SetString(v.String() + "-x") })
		case reflect.Bool:
			change(func(v reflect.Value) { v.SetBool(!v.Bool()) })
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			change(func(v reflect.Value) { v.SetInt(v.Int() + 1) })
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			change(func(v reflect.Value) { v.SetUint(v.Uint() + 1) })
		case reflect.Float32, reflect.Float64:
			change(func(v reflect.Value) { v.SetFloat(v.Float() + 1) })
		}
	}
	walk("Pod", func(p *api.Pod) reflect.Value { return reflect.ValueOf(p).Elem() }, reflect.TypeFor[api.Pod](), 0)
}

// TestShapeSeesEveryField: two pods have the same shape exactly when
// they differ in no field but those naming one pod (name, generateName,
// UID, resourceVersion, generation, creationTimestamp) and
// status.nominatedNodeName: a change to any other field (every leaf of
// the Pod type a few levels down, every list and map, every pointer)
// makes another shape.
func TestShapeSeesEveryField(t *testing.T) {
	ignored := map[string]bool{
		"Pod.ObjectMeta.Name": true, "Pod.ObjectMeta.GenerateName": true, "Pod.ObjectMeta.UID": true,
		"Pod.ObjectMeta.ResourceVersion": true, "Pod.ObjectMeta.Generation": true,
		"Pod.ObjectMeta.CreationTimestamp": true, "Pod.Status.NominatedNodeName": true,
	}
	base := shapeBase()
	var m verdicts
	m.shape.Set(base)
	if !m.shape.Alike(base.DeepCopy()) {
		t.Fatal("a copy of the pod has another shape")
	}
	fields := 0
	leafPaths(base, func(path string, p *api.Pod) {
		fields++
		want := ignored[path]
		if strings.HasPrefix(path, "Pod.ObjectMeta.CreationTimestamp") {
			want = true
		}
		if got := m.shape.Alike(p); got != want {
			t.Errorf("%s changed: same shape %v, want %v", path, got, want)
		}
	})
	if fields < 150 {
		t.Errorf("only %d fields changed", fields)
	}
	t.Logf("%d fields changed one at a time", fields)
}
