//go:build !deepcopygen

package api

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// DeepEqual agrees with the reference (strictEqual, reflect.DeepEqual
// but for opaque structs) on a random pod and its copy, and on the pod
// and each copy with one change (a scalar, a pointer set or cleared, a
// slice or map made nil, empty or longer, a map entry changed or
// removed) at each site in turn; and where the reference says equal, so
// does reflect.DeepEqual.
func TestPodDeepEqualMatchesReflect(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := new(Pod)
		randomValue(t, reflect.ValueOf(a).Elem(), 0)
		b := a.DeepCopy()
		if !b.DeepEqual(a) || !a.DeepEqual(b) {
			t.Fatalf("a pod and its copy differ:\n%+v", a)
		}
		// Each site of the copy changed in turn, the others left alone.
		var sites []reflect.Value
		changeSites(reflect.ValueOf(b).Elem(), &sites)
		for i := range sites {
			c := a.DeepCopy()
			sites = sites[:0]
			changeSites(reflect.ValueOf(c).Elem(), &sites)
			changeOne(t, sites[i])
			want := strictEqual(reflect.ValueOf(a).Elem(), reflect.ValueOf(c).Elem())
			if want && !reflect.DeepEqual(a, c) {
				t.Fatalf("the reference says equal, reflect.DeepEqual does not:\n a %+v\n c %+v", a, c)
			}
			if got := a.DeepEqual(c); got != want {
				t.Fatalf("DeepEqual %v, the reference %v:\n a %+v\n c %+v", got, want, a, c)
			}
			if got := c.DeepEqual(a); got != want {
				t.Fatalf("DeepEqual (swapped) %v, the reference %v", got, want)
			}
		}
	})
	var nilPod *Pod
	if !nilPod.DeepEqual(nil) || nilPod.DeepEqual(&Pod{}) || (&Pod{}).DeepEqual(nil) {
		t.Error("DeepEqual with a nil pod")
	}
}

// changeSites lists the settable values reachable from v that
// changeOne may change: scalars, pointers, slices and maps, not inside
// opaque structs.
func changeSites(v reflect.Value, out *[]reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		*out = append(*out, v)
		if !v.IsNil() {
			changeSites(v.Elem(), out)
		}
	case reflect.Slice:
		*out = append(*out, v)
		for i := range v.Len() {
			changeSites(v.Index(i), out)
		}
	case reflect.Map:
		// A map's values are not settable in place: the map itself is
		// the site.
		*out = append(*out, v)
	case reflect.Struct:
		if !opaqueStruct(v.Type()) {
			for i := range v.NumField() {
				changeSites(v.Field(i), out)
			}
		}
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		*out = append(*out, v)
	}
}

// changeOne changes v, a site of changeSites, in one of a few ways.
func changeOne(t *rapid.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		switch rapid.IntRange(0, 2).Draw(t, "slice change") {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
	case reflect.Map:
		switch rapid.IntRange(0, 3).Draw(t, "map change") {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
		default:
			// Replace the map by a copy with one entry changed, added
			// or removed (a copy: the original pod may share nothing,
			// but a change in place is not settable).
			m := reflect.MakeMap(v.Type())
			if !v.IsNil() {
				for it := v.MapRange(); it.Next(); {
					m.SetMapIndex(it.Key(), it.Value())
				}
			}
			k := reflect.New(v.Type().Key()).Elem()
			randomValue(t, k, randomMaxDepth)
			if m.MapIndex(k).IsValid() && rapid.Bool().Draw(t, "delete") {
				m.SetMapIndex(k, reflect.Value{})
			} else {
				e := reflect.New(v.Type().Elem()).Elem()
				randomValue(t, e, randomMaxDepth-1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	default:
		mutate(v)
	}
}

// strictEqual is reflect.DeepEqual on two values of one type, except
// that structs with an unexported field compare with ==: the semantics
// DeepEqual's generated code has.
func strictEqual(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || strictEqual(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !strictEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			v := b.MapIndex(it.Key())
			if !v.IsValid() || !strictEqual(it.Value(), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if opaqueStruct(a.Type()) {
			return a.Interface() == b.Interface()
		}
		for i := range a.NumField() {
			if !strictEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}
