package convert

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/api"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"pgregory.net/rapid"
)

// kinds pairs each Kubernetes type with its schedkit type.
var kinds = []struct {
	name string
	k, s reflect.Type
}{
	{"Node", reflect.TypeFor[corev1.Node](), reflect.TypeFor[api.Node]()},
	{"Pod", reflect.TypeFor[corev1.Pod](), reflect.TypeFor[api.Pod]()},
	{"Namespace", reflect.TypeFor[corev1.Namespace](), reflect.TypeFor[api.Namespace]()},
	{"Service", reflect.TypeFor[corev1.Service](), reflect.TypeFor[api.Service]()},
	{"ReplicationController", reflect.TypeFor[corev1.ReplicationController](), reflect.TypeFor[api.ReplicationController]()},
	{"LimitRange", reflect.TypeFor[corev1.LimitRange](), reflect.TypeFor[api.LimitRange]()},
	{"ResourceQuota", reflect.TypeFor[corev1.ResourceQuota](), reflect.TypeFor[api.ResourceQuota]()},
	{"PersistentVolume", reflect.TypeFor[corev1.PersistentVolume](), reflect.TypeFor[api.PersistentVolume]()},
	{"PersistentVolumeClaim", reflect.TypeFor[corev1.PersistentVolumeClaim](), reflect.TypeFor[api.PersistentVolumeClaim]()},
	{"ReplicaSet", reflect.TypeFor[appsv1.ReplicaSet](), reflect.TypeFor[api.ReplicaSet]()},
	{"Deployment", reflect.TypeFor[appsv1.Deployment](), reflect.TypeFor[api.Deployment]()},
	{"StatefulSet", reflect.TypeFor[appsv1.StatefulSet](), reflect.TypeFor[api.StatefulSet]()},
	{"DaemonSet", reflect.TypeFor[appsv1.DaemonSet](), reflect.TypeFor[api.DaemonSet]()},
	{"ControllerRevision", reflect.TypeFor[appsv1.ControllerRevision](), reflect.TypeFor[api.ControllerRevision]()},
	{"Job", reflect.TypeFor[batchv1.Job](), reflect.TypeFor[api.Job]()},
	{"CronJob", reflect.TypeFor[batchv1.CronJob](), reflect.TypeFor[api.CronJob]()},
	{"PodDisruptionBudget", reflect.TypeFor[policyv1.PodDisruptionBudget](), reflect.TypeFor[api.PodDisruptionBudget]()},
	{"PriorityClass", reflect.TypeFor[schedulingv1.PriorityClass](), reflect.TypeFor[api.PriorityClass]()},
	{"StorageClass", reflect.TypeFor[storagev1.StorageClass](), reflect.TypeFor[api.StorageClass]()},
	{"CSINode", reflect.TypeFor[storagev1.CSINode](), reflect.TypeFor[api.CSINode]()},
	{"CSIDriver", reflect.TypeFor[storagev1.CSIDriver](), reflect.TypeFor[api.CSIDriver]()},
	{"CSIStorageCapacity", reflect.TypeFor[storagev1.CSIStorageCapacity](), reflect.TypeFor[api.CSIStorageCapacity]()},
	{"VolumeAttachment", reflect.TypeFor[storagev1.VolumeAttachment](), reflect.TypeFor[api.VolumeAttachment]()},
	{"DeviceClass", reflect.TypeFor[resourcev1.DeviceClass](), reflect.TypeFor[api.DeviceClass]()},
	{"ResourceSlice", reflect.TypeFor[resourcev1.ResourceSlice](), reflect.TypeFor[api.ResourceSlice]()},
	{"ResourceClaim", reflect.TypeFor[resourcev1.ResourceClaim](), reflect.TypeFor[api.ResourceClaim]()},
	{"ResourceClaimTemplate", reflect.TypeFor[resourcev1.ResourceClaimTemplate](), reflect.TypeFor[api.ResourceClaimTemplate]()},
	{"DeviceTaintRule", reflect.TypeFor[resourcev1.DeviceTaintRule](), reflect.TypeFor[api.DeviceTaintRule]()},
}

// jsonInto decodes the JSON form of from into a new value of type to.
func jsonInto(t *rapid.T, from any, to reflect.Type) any {
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatalf("marshal %T: %v", from, err)
	}
	p := reflect.New(to)
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		t.Fatalf("unmarshal %s into %v: %v", b, to, err)
	}
	return p.Interface()
}

func mustJSON(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return b
}

func drawObject(t *rapid.T, typ reflect.Type) any {
	p := reflect.New(typ)
	(&filler{t: t, maxDepth: 9}).fill(p.Elem(), 0, typ.Name())
	return p.Interface()
}

// TestToAPIEqualsJSON: a random Kubernetes object converted to schedkit's
// api by the typed code reads as its JSON form read by schedkit.
func TestToAPIEqualsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(kinds).Draw(t, "kind")
		obj := drawObject(t, k.k)
		typed, err := ToAPI(obj)
		if err != nil {
			t.Fatalf("ToAPI: %v", err)
		}
		want := mustJSON(t, jsonInto(t, obj, k.s))
		if got := mustJSON(t, typed); !bytes.Equal(got, want) {
			t.Fatalf("%s: typed\n%s\nJSON round trip\n%s", k.name, got, want)
		}
	})
}

// TestFromAPIEqualsJSON: a random schedkit object converted to
// Kubernetes by the typed code reads as its JSON form read by
// Kubernetes' types.
func TestFromAPIEqualsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(kinds).Draw(t, "kind")
		obj := drawObject(t, k.s)
		typed, err := FromAPI(obj)
		if err != nil {
			t.Fatalf("FromAPI: %v", err)
		}
		want := mustJSON(t, jsonInto(t, obj, k.k))
		if got := mustJSON(t, typed); !bytes.Equal(got, want) {
			t.Fatalf("%s: typed\n%s\nJSON round trip\n%s", k.name, got, want)
		}
	})
}

// TestRoundTripKeepsModelledFields: Kubernetes → schedkit → Kubernetes →
// schedkit gives what the first conversion gave; nothing schedkit models
// is lost on the way back.
func TestRoundTripKeepsModelledFields(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(kinds).Draw(t, "kind")
		obj := drawObject(t, k.k)
		s1, err := ToAPI(obj)
		if err != nil {
			t.Fatalf("ToAPI: %v", err)
		}
		back, err := FromAPI(s1)
		if err != nil {
			t.Fatalf("FromAPI: %v", err)
		}
		s2, err := ToAPI(back)
		if err != nil {
			t.Fatalf("ToAPI again: %v", err)
		}
		if a, b := mustJSON(t, s1), mustJSON(t, s2); !bytes.Equal(a, b) {
			t.Fatalf("%s: first\n%s\nafter the round trip\n%s", k.name, a, b)
		}
	})
}

// TestBatchEqualsFunctions: converting random objects with one Batch, in
// both directions, gives what the package functions give, and changing
// one result (appending to its slices) leaves the others as they were.
func TestBatchEqualsFunctions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b Batch
		var results []any
		var want [][]byte
		for i := range rapid.IntRange(1, 6).Draw(t, "objects") {
			k := rapid.SampledFrom(kinds).Draw(t, "kind")
			toAPI := rapid.Bool().Draw(t, "toAPI")
			typ, batch, single := k.k, b.ToAPI, ToAPI
			if !toAPI {
				typ, batch, single = k.s, b.FromAPI, FromAPI
			}
			obj := drawObject(t, typ)
			got, err := batch(obj)
			if err != nil {
				t.Fatalf("%d %s: Batch: %v", i, k.name, err)
			}
			w, err := single(obj)
			if err != nil {
				t.Fatalf("%d %s: %v", i, k.name, err)
			}
			if a, b := mustJSON(t, got), mustJSON(t, w); !bytes.Equal(a, b) {
				t.Fatalf("%d %s: Batch\n%s\npackage function\n%s", i, k.name, a, b)
			}
			results = append(results, got)
			want = append(want, mustJSON(t, got))
		}
		// Appending to every slice of the first result must not reach
		// into the others' arrays.
		grow(reflect.ValueOf(results[0]).Elem())
		for i := 1; i < len(results); i++ {
			if got := mustJSON(t, results[i]); !bytes.Equal(got, want[i]) {
				t.Fatalf("result %d changed when result 0 grew:\n%s\nwas\n%s", i, got, want[i])
			}
		}
	})
}

// grow appends a zero element to every slice reachable from v.
func grow(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			grow(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				grow(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			grow(v.Index(i))
		}
		if v.CanSet() && v.Type() != reflect.TypeFor[json.RawMessage]() {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
	}
}

// TestSharedBatchEqualsFunctions: a Batch that shares maps gives what
// the package functions give, on pods whose labels and resource lists
// are drawn from a few, so that many are equal, in any formats.
func TestSharedBatchEqualsFunctions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := &filler{t: t, maxDepth: 3}
		lists := make([]corev1.ResourceList, 3)
		labels := make([]map[string]string, 3)
		for i := range lists {
			f.fill(reflect.ValueOf(&lists[i]).Elem(), 0, "list")
			f.fill(reflect.ValueOf(&labels[i]).Elem(), 0, "labels")
		}
		var b Batch
		b.Share()
		for i := range rapid.IntRange(1, 8).Draw(t, "pods") {
			p := drawObject(t, reflect.TypeFor[corev1.Pod]()).(*corev1.Pod)
			p.Labels = maps.Clone(labels[rapid.IntRange(0, 2).Draw(t, "labels")])
			for j := range p.Spec.Containers {
				r := &p.Spec.Containers[j].Resources
				r.Requests = lists[rapid.IntRange(0, 2).Draw(t, "requests")].DeepCopy()
				r.Limits = lists[rapid.IntRange(0, 2).Draw(t, "limits")].DeepCopy()
			}
			got, err := b.PodToAPI(p)
			if err != nil {
				t.Fatalf("pod %d: Batch: %v", i, err)
			}
			want, err := PodToAPI(p)
			if err != nil {
				t.Fatalf("pod %d: %v", i, err)
			}
			if a, b := mustJSON(t, got), mustJSON(t, want); !bytes.Equal(a, b) {
				t.Fatalf("pod %d: shared Batch\n%s\npackage function\n%s", i, a, b)
			}
		}
	})
}

// TestSharedBatchShares: the pods of one workload share their labels and
// resource lists when converted by a sharing Batch, and do not by
// default.
func TestSharedBatchShares(t *testing.T) {
	p1, p2 := informerPod(1, 10), informerPod(501, 10) // the same app
	for _, share := range []bool{false, true} {
		var b Batch
		if share {
			b.Share()
		}
		a1, err1 := b.PodToAPI(p1)
		a2, err2 := b.PodToAPI(p2)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		same := func(x, y any) bool { return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() }
		r1, r2 := a1.Spec.Containers[0].Resources, a2.Spec.Containers[0].Resources
		if got := same(a1.Labels, a2.Labels) && same(r1.Requests, r2.Requests) && same(r1.Limits, r2.Limits); got != share {
			t.Errorf("Share %v: the maps are shared: %v", share, got)
		}
	}
}
