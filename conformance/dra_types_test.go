package conformance

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"

	"github.com/schedkit/schedkit/api"
)

type jsonField struct {
	typ       reflect.Type
	omitempty bool
}

// jsonFieldsOf maps a struct's JSON names (inline structs flattened) to
// their types and omitempty flags.
func jsonFieldsOf(t reflect.Type) map[string]jsonField {
	out := map[string]jsonField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFieldsOf(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		out[name] = jsonField{f.Type, strings.Contains(opts, "omitempty")}
	}
	return out
}

func elemStruct(t reflect.Type) (reflect.Type, bool) {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return t, true
		default:
			return nil, false
		}
	}
}

// compareJSONShape reports, below the DRA types, every JSON field whose
// name or omitempty differs from upstream's. Metadata and quantities,
// which schedkit models its own way, are not descended into.
func compareJSONShape(t *testing.T, path string, ours, theirs reflect.Type, seen map[[2]reflect.Type]bool) {
	if seen[[2]reflect.Type{ours, theirs}] {
		return
	}
	seen[[2]reflect.Type{ours, theirs}] = true
	switch theirs.Name() {
	case "ObjectMeta", "TypeMeta", "Quantity", "Time", "RawExtension", "Condition", "NodeSelector":
		return
	}
	of, tf := jsonFieldsOf(ours), jsonFieldsOf(theirs)
	for name, f := range tf {
		o, ok := of[name]
		if !ok {
			t.Errorf("%s.%s: missing (%s)", path, name, f.typ)
			continue
		}
		if o.omitempty != f.omitempty {
			t.Errorf("%s.%s: omitempty %v, upstream %v", path, name, o.omitempty, f.omitempty)
		}
		os, ok1 := elemStruct(o.typ)
		ts, ok2 := elemStruct(f.typ)
		if ok1 && ok2 {
			compareJSONShape(t, path+"."+name, os, ts, seen)
		}
	}
	for name := range of {
		if _, ok := tf[name]; !ok {
			t.Errorf("%s.%s: no such field upstream", path, name)
		}
	}
}

// TestDRATypesJSONShape: package api's resource.k8s.io/v1 types and the
// pod's DRA fields have upstream's JSON names and omitempty flags.
func TestDRATypesJSONShape(t *testing.T) {
	seen := map[[2]reflect.Type]bool{}
	for _, p := range []struct {
		name         string
		ours, theirs any
	}{
		{"DeviceClass", api.DeviceClass{}, resourceapi.DeviceClass{}},
		{"ResourceSlice", api.ResourceSlice{}, resourceapi.ResourceSlice{}},
		{"ResourceClaim", api.ResourceClaim{}, resourceapi.ResourceClaim{}},
		{"ResourceClaimTemplate", api.ResourceClaimTemplate{}, resourceapi.ResourceClaimTemplate{}},
		{"DeviceTaintRule", api.DeviceTaintRule{}, resourceapi.DeviceTaintRule{}},
		{"PodResourceClaim", api.PodResourceClaim{}, corev1.PodResourceClaim{}},
		{"PodResourceClaimStatus", api.PodResourceClaimStatus{}, corev1.PodResourceClaimStatus{}},
		{"PodExtendedResourceClaimStatus", api.PodExtendedResourceClaimStatus{}, corev1.PodExtendedResourceClaimStatus{}},
		{"ContainerResourceClaim", api.ContainerResourceClaim{}, corev1.ResourceClaim{}},
	} {
		compareJSONShape(t, p.name, reflect.TypeOf(p.ours), reflect.TypeOf(p.theirs), seen)
	}
}
