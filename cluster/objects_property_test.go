package cluster

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// objModel is the plain-map model of the object store: key → version
// label of the stored object.
type objModel map[ObjectKey]string

var (
	propNamespaces = []string{"", "a", "b"}
	propNames      = []string{"x", "y", "z"}
	propKinds      = []Kind{KindService, KindPersistentVolume, KindPersistentVolumeClaim, KindNamespace}
)

func propObject(k Kind, ns, name, version string) any {
	m := api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"v": version}}
	switch k {
	case KindService:
		return &api.Service{ObjectMeta: m}
	case KindPersistentVolume:
		return &api.PersistentVolume{ObjectMeta: m}
	case KindPersistentVolumeClaim:
		return &api.PersistentVolumeClaim{ObjectMeta: m}
	case KindNamespace:
		return &api.Namespace{ObjectMeta: m}
	}
	panic(k)
}

// modelKey is the key the store uses for k/ns/name.
func modelKey(k Kind, ns, name string) ObjectKey {
	return ObjectKey{Kind: k, Namespace: storeNamespace(k.index(), ns), Name: name}
}

// lookup reads key from o as the generic readers do, returning the
// stored version label.
func lookup(o *Objects, k ObjectKey) (string, bool) {
	var meta *api.ObjectMeta
	switch k.Kind {
	case KindService:
		if v, ok := GetObject[api.Service](o, k.Namespace, k.Name); ok {
			meta = &v.ObjectMeta
		}
	case KindPersistentVolume:
		if v, ok := GetObject[api.PersistentVolume](o, k.Namespace, k.Name); ok {
			meta = &v.ObjectMeta
		}
	case KindPersistentVolumeClaim:
		if v, ok := GetObject[api.PersistentVolumeClaim](o, k.Namespace, k.Name); ok {
			meta = &v.ObjectMeta
		}
	case KindNamespace:
		if v, ok := GetObject[api.Namespace](o, k.Namespace, k.Name); ok {
			meta = &v.ObjectMeta
		}
	}
	if meta == nil {
		return "", false
	}
	return meta.Labels["v"], true
}

func objNames[T Object](l []*T, meta func(*T) *api.ObjectMeta) []string {
	var out []string
	for _, o := range l {
		out = append(out, meta(o).Name)
	}
	return out
}

// checkAgainst compares every lookup and list of o with the model.
func checkAgainst(t *rapid.T, o *Objects, m objModel, when string) {
	for _, k := range propKinds {
		count := 0
		for _, ns := range propNamespaces {
			var want []string
			for _, name := range propNames {
				key := modelKey(k, ns, name)
				got, ok := lookup(o, key)
				mv, mok := m[key]
				if ok != mok || got != mv {
					t.Fatalf("%s: %s = %q %v, model %q %v", when, key, got, ok, mv, mok)
				}
				if mok {
					want = append(want, name)
				}
			}
			if k.Namespaced() || ns == "" {
				count += len(want)
			}
			var got []string
			switch k {
			case KindService:
				got = objNames(ListObjects[api.Service](o, ns), func(v *api.Service) *api.ObjectMeta { return &v.ObjectMeta })
			case KindPersistentVolume:
				got = objNames(ListObjects[api.PersistentVolume](o, ns), func(v *api.PersistentVolume) *api.ObjectMeta { return &v.ObjectMeta })
			case KindPersistentVolumeClaim:
				got = objNames(ListObjects[api.PersistentVolumeClaim](o, ns), func(v *api.PersistentVolumeClaim) *api.ObjectMeta { return &v.ObjectMeta })
			case KindNamespace:
				got = objNames(ListObjects[api.Namespace](o, ns), func(v *api.Namespace) *api.ObjectMeta { return &v.ObjectMeta })
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: list %s in %q = %v, model %v", when, k, ns, got, want)
			}
		}
		if o.Len(k) != count {
			t.Fatalf("%s: Len(%s) = %d, model %d", when, k, o.Len(k), count)
		}
	}
	var all []ObjectKey
	for s := range AllObjects[api.Service](o) {
		all = append(all, modelKey(KindService, s.Namespace, s.Name))
	}
	if !slices.IsSortedFunc(all, func(a, b ObjectKey) int {
		if a.Namespace != b.Namespace {
			return strings.Compare(a.Namespace, b.Namespace)
		}
		return strings.Compare(a.Name, b.Name)
	}) {
		t.Fatalf("%s: AllObjects out of order: %v", when, all)
	}
}

// TestObjectsProperty: any sequence of adds, updates and removes gives
// the lookups of a plain map model, failed writes change nothing, and a
// view taken earlier never changes.
func TestObjectsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &Snapshot{}
		m := objModel{}
		type saved struct {
			o   *Objects
			gen int64
			m   objModel
		}
		var views []saved
		steps := rapid.IntRange(1, 60).Draw(t, "steps")
		for i := range steps {
			k := rapid.SampledFrom(propKinds).Draw(t, "kind")
			ns := rapid.SampledFrom(propNamespaces).Draw(t, "ns")
			name := rapid.SampledFrom(propNames).Draw(t, "name")
			key := modelKey(k, ns, name)
			_, exists := m[key]
			version := strconv.Itoa(i)
			before := s.Objects()
			var err error
			switch op := rapid.IntRange(0, 4).Draw(t, "op"); op {
			case 0:
				err = s.AddObject(propObject(k, ns, name, version))
				if exists != errors.Is(err, ErrInvalid) {
					t.Fatalf("add %s (exists %v): %v", key, exists, err)
				}
				if err == nil {
					m[key] = version
				}
			case 1:
				err = s.UpdateObject(propObject(k, ns, name, version))
				if exists == errors.Is(err, ErrNotFound) {
					t.Fatalf("update %s (exists %v): %v", key, exists, err)
				}
				if err == nil {
					m[key] = version
				}
			case 2:
				err = s.RemoveObject(propObject(k, ns, name, ""))
				if exists == errors.Is(err, ErrNotFound) {
					t.Fatalf("remove %s (exists %v): %v", key, exists, err)
				}
				delete(m, key)
			case 3:
				// a batch of two, the second possibly a duplicate
				k2 := rapid.SampledFrom(propKinds).Draw(t, "kind2")
				ns2 := rapid.SampledFrom(propNamespaces).Draw(t, "ns2")
				name2 := rapid.SampledFrom(propNames).Draw(t, "name2")
				key2 := modelKey(k2, ns2, name2)
				_, exists2 := m[key2]
				err = s.AddObjects(propObject(k, ns, name, version), propObject(k2, ns2, name2, version))
				if fail := exists || exists2 || key == key2; fail != errors.Is(err, ErrInvalid) {
					t.Fatalf("add %s, %s: %v", key, key2, err)
				}
				if err == nil {
					m[key], m[key2] = version, version
				}
			case 4:
				o := s.Objects()
				views = append(views, saved{o, o.Generation(), maps.Clone(m)})
			}
			if err != nil && s.Objects() != before {
				t.Fatalf("failed write changed the store: %v", err)
			}
			checkAgainst(t, s.Objects(), m, "current")
		}
		for i, v := range views {
			checkAgainst(t, v.o, v.m, "view "+strconv.Itoa(i))
			if v.o.Generation() != v.gen {
				t.Fatalf("view %d generation changed", i)
			}
		}
	})
}
