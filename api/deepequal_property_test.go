//go:build !deepcopygen

package api

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// DeepEqual agrees with reflect.DeepEqual on a random pod and its copy,
// and on the pod and each copy with one change (a scalar, a pointer set
// or cleared, a slice or map made nil, empty or longer, a map entry
// changed or removed) at each site in turn; the random opaque values
// come from a few shared ones, so == and DeepEqual agree on them.
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
			want := reflect.DeepEqual(a, c)
			if got := a.DeepEqual(c); got != want {
				t.Fatalf("DeepEqual %v, reflect.DeepEqual %v:\n a %+v\n c %+v", got, want, a, c)
			}
			if got := c.DeepEqual(a); got != want {
				t.Fatalf("DeepEqual (swapped) %v, reflect.DeepEqual %v", got, want)
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
