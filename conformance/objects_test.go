package conformance

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/quantity/quantitygen"
)

// TestObjectsJSON proves schedkit's JSON names and shapes for every
// object kind: a schedkit object with arbitrary values in every field it
// models is marshalled, decoded into the upstream type with unknown
// fields disallowed, re-encoded by upstream and decoded back into
// schedkit's type, and must marshal to the same JSON as the original.
func TestObjectsJSON(t *testing.T) {
	cases := []struct {
		kind  string
		check func(*rapid.T)
	}{
		{"Pod", roundTrip[api.Pod, corev1.Pod]},
		{"Node", roundTrip[api.Node, corev1.Node]},
		{"Namespace", roundTrip[api.Namespace, corev1.Namespace]},
		{"Service", roundTrip[api.Service, corev1.Service]},
		{"ReplicationController", roundTrip[api.ReplicationController, corev1.ReplicationController]},
		{"ReplicaSet", roundTrip[api.ReplicaSet, appsv1.ReplicaSet]},
		{"StatefulSet", roundTrip[api.StatefulSet, appsv1.StatefulSet]},
		{"Deployment", roundTrip[api.Deployment, appsv1.Deployment]},
		{"DaemonSet", roundTrip[api.DaemonSet, appsv1.DaemonSet]},
		{"Job", roundTrip[api.Job, batchv1.Job]},
		{"CronJob", roundTrip[api.CronJob, batchv1.CronJob]},
		{"PersistentVolume", roundTrip[api.PersistentVolume, corev1.PersistentVolume]},
		{"PersistentVolumeClaim", roundTrip[api.PersistentVolumeClaim, corev1.PersistentVolumeClaim]},
		{"StorageClass", roundTrip[api.StorageClass, storagev1.StorageClass]},
		{"CSINode", roundTrip[api.CSINode, storagev1.CSINode]},
		{"CSIDriver", roundTrip[api.CSIDriver, storagev1.CSIDriver]},
		{"CSIStorageCapacity", roundTrip[api.CSIStorageCapacity, storagev1.CSIStorageCapacity]},
		{"ResourceQuota", roundTrip[api.ResourceQuota, corev1.ResourceQuota]},
		{"LimitRange", roundTrip[api.LimitRange, corev1.LimitRange]},
		{"PodDisruptionBudget", roundTrip[api.PodDisruptionBudget, policyv1.PodDisruptionBudget]},
		{"PriorityClass", roundTrip[api.PriorityClass, schedulingv1.PriorityClass]},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) { rapid.Check(t, c.check) })
	}
}

// roundTrip checks one generated object of schedkit type S against the
// upstream type U.
func roundTrip[S, U any](t *rapid.T) {
	var s S
	fillValue(t, reflect.ValueOf(&s).Elem(), "", 0)
	want, err := json.Marshal(&s)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	u, err := upstream.Convert[U](&s)
	if err != nil {
		t.Fatalf("%v\njson: %s", err, want)
	}
	back := upstream.Back[S](u)
	got, err := json.Marshal(back)
	if err != nil {
		t.Fatalf("marshal back: %v", err)
	}
	if !bytes.Equal(got, want) {
		ub, _ := json.Marshal(u)
		t.Fatalf("round trip through upstream differs\nschedkit: %s\nback:     %s\nupstream: %s", want, got, ub)
	}
}

var (
	quantityType    = reflect.TypeFor[quantity.Quantity]()
	timeType        = reflect.TypeFor[api.Time]()
	intOrStringType = reflect.TypeFor[api.IntOrString]()
)

// maxDepth bounds how deep optional values (pointers, slices, maps) are
// filled in, so objects with pod templates stay small.
const maxDepth = 9

// fillValue sets v, and every exported field under it, to generated
// values; optional parts are left empty at random and beyond maxDepth.
func fillValue(t *rapid.T, v reflect.Value, path string, depth int) {
	switch v.Type() {
	case quantityType:
		// As a manifest carries it: printed, then parsed (a BinarySI
		// amount that is no multiple of 1024 prints without a suffix
		// and parses back as DecimalSI, upstream as here).
		v.Set(reflect.ValueOf(quantity.MustParse(quantitygen.Quantity().Draw(t, path).String())))
		return
	case timeType:
		// A zero time encodes as null, so a pointer to one would not
		// survive the round trip: pointers get a non-zero time.
		if depth < 0 || rapid.Bool().Draw(t, path+"?") {
			sec := rapid.Int64Range(1, 4102444800).Draw(t, path)
			v.Set(reflect.ValueOf(api.NewTime(time.Unix(sec, 0))))
		}
		return
	case intOrStringType:
		if rapid.Bool().Draw(t, path+".isString") {
			v.Set(reflect.ValueOf(api.FromString(rapid.StringN(0, 6, -1).Draw(t, path))))
		} else {
			v.Set(reflect.ValueOf(api.FromInt(rapid.Int32().Draw(t, path))))
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			fillValue(t, v.Field(i), path+"."+f.Name, depth+1)
		}
	case reflect.Pointer:
		if depth > maxDepth || !rapid.Bool().Draw(t, path+"?") {
			return
		}
		p := reflect.New(v.Type().Elem())
		if v.Type().Elem() == timeType {
			fillValue(t, p.Elem(), path, -1)
		} else {
			fillValue(t, p.Elem(), path, depth)
		}
		v.Set(p)
	case reflect.Slice:
		if depth > maxDepth {
			return
		}
		n := rapid.IntRange(-1, 2).Draw(t, path+".len")
		if n < 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillValue(t, s.Index(i), path+"[]", depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if depth > maxDepth {
			return
		}
		n := rapid.IntRange(-1, 2).Draw(t, path+".len")
		if n < 0 {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			fillValue(t, k, path+".key", depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fillValue(t, e, path+"[]", depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(rapid.StringN(0, 8, -1).Draw(t, path))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, path))
	case reflect.Int32:
		v.SetInt(int64(rapid.Int32().Draw(t, path)))
	case reflect.Int64:
		v.SetInt(rapid.Int64().Draw(t, path))
	case reflect.Int:
		v.SetInt(int64(rapid.Int32().Draw(t, path)))
	default:
		t.Fatalf("%s: no generator for %s", path, v.Type())
	}
}
