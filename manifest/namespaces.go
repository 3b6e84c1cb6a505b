package manifest

import (
	"fmt"
	"reflect"

	"github.com/schedkit/schedkit/api"
)

// builtinNamespaces are the namespaces the API server creates itself
// (the system namespaces controller), which exist in every cluster.
func builtinNamespaces() []string {
	return []string{"default", "kube-system", "kube-public", "kube-node-lease"}
}

// NamespaceNotFound is the NamespaceLifecycle admission plugin's answer
// to a create in a namespace that does not exist.
type NamespaceNotFound struct{ Namespace string }

// Error is the API server's text: namespaces "batch" not found.
func (e *NamespaceNotFound) Error() string {
	return fmt.Sprintf("namespaces %q not found", e.Namespace)
}

// withExistingNamespaces returns objs without the new namespaced objects
// whose namespace does not exist, each reported as rejected with the
// NamespaceLifecycle plugin's error; objs itself when none is. A
// namespace exists when it is built in, read as a Namespace, or holds a
// stored object: a dump (kubectl get -o yaml) often omits the Namespace
// objects, and what it holds was stored there, so the namespace exists.
// Only objects being created are refused, as the API server refuses them.
func withExistingNamespaces(objs *Set, rep *Report) *Set {
	exists := map[string]bool{}
	for _, n := range builtinNamespaces() {
		exists[n] = true
	}
	for _, n := range objs.Namespaces {
		exists[n.Name] = true
	}
	v := reflect.ValueOf(objs).Elem()
	type entry struct {
		meta   *api.ObjectMeta
		stored bool
	}
	each := func(f func(field int, i int, obj any, e entry)) {
		for fi := 0; fi < v.NumField(); fi++ {
			fv := v.Field(fi)
			if !v.Type().Field(fi).IsExported() || fv.Kind() != reflect.Slice {
				continue
			}
			// The slice's elements are of one type: its ObjectMeta is
			// looked up once.
			et := fv.Type().Elem()
			if et.Kind() != reflect.Pointer || et.Elem().Kind() != reflect.Struct {
				continue
			}
			mf, ok := et.Elem().FieldByName("ObjectMeta")
			if !ok {
				continue
			}
			for i := 0; i < fv.Len(); i++ {
				x := fv.Index(i)
				meta := x.Elem().FieldByIndex(mf.Index).Addr().Interface().(*api.ObjectMeta)
				stored := isStoredMeta(meta)
				if p, ok := x.Interface().(*api.Pod); ok {
					stored = IsStored(p)
				}
				f(fi, i, x.Interface(), entry{meta, stored})
			}
		}
	}
	each(func(_, _ int, _ any, e entry) {
		if e.stored && e.meta.Namespace != "" {
			exists[e.meta.Namespace] = true
		}
	})
	drop := map[any]bool{}
	each(func(_, _ int, obj any, e entry) {
		if e.stored || e.meta.Namespace == "" || exists[e.meta.Namespace] {
			return
		}
		drop[obj] = true
		src, _ := objs.Source(obj)
		r := Rejection{Source: src, Err: &NamespaceNotFound{Namespace: e.meta.Namespace}}
		if p, ok := obj.(*api.Pod); ok {
			r.Pod = p
		} else {
			kind := reflect.ValueOf(obj).Elem().FieldByName("TypeMeta").Interface().(api.TypeMeta).Kind
			r.Object = kind + " " + e.meta.Namespace + "/" + e.meta.Name
		}
		rep.Rejected = append(rep.Rejected, r)
	})
	if len(drop) == 0 {
		return objs
	}
	out := *objs
	ov := reflect.ValueOf(&out).Elem()
	for fi := 0; fi < ov.NumField(); fi++ {
		fv := ov.Field(fi)
		if !ov.Type().Field(fi).IsExported() || fv.Kind() != reflect.Slice {
			continue
		}
		kept := reflect.MakeSlice(fv.Type(), 0, fv.Len())
		for i := 0; i < fv.Len(); i++ {
			if !drop[fv.Index(i).Interface()] {
				kept = reflect.Append(kept, fv.Index(i))
			}
		}
		fv.Set(kept)
	}
	return &out
}
