package convert

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/k8s/k8sgen"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"
)

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
	k8sgen.Fill(t, p.Elem(), k8sgen.DefaultDepth)
	return p.Interface()
}

// TestToAPIEqualsJSON: a random Kubernetes object converted to schedkit's
// api by the typed code reads as its JSON form read by schedkit.
func TestToAPIEqualsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(k8sgen.Kinds()).Draw(t, "kind")
		obj := drawObject(t, k.K8s)
		typed, err := ToAPI(obj)
		if err != nil {
			t.Fatalf("ToAPI: %v", err)
		}
		want := mustJSON(t, jsonInto(t, obj, k.API))
		if got := mustJSON(t, typed); !bytes.Equal(got, want) {
			t.Fatalf("%s: typed\n%s\nJSON round trip\n%s", k.Name, got, want)
		}
	})
}

// TestFromAPIEqualsJSON: a random schedkit object converted to
// Kubernetes by the typed code reads as its JSON form read by
// Kubernetes' types.
func TestFromAPIEqualsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(k8sgen.Kinds()).Draw(t, "kind")
		obj := drawObject(t, k.API)
		typed, err := FromAPI(obj)
		if err != nil {
			t.Fatalf("FromAPI: %v", err)
		}
		want := mustJSON(t, jsonInto(t, obj, k.K8s))
		if got := mustJSON(t, typed); !bytes.Equal(got, want) {
			t.Fatalf("%s: typed\n%s\nJSON round trip\n%s", k.Name, got, want)
		}
	})
}

// TestRoundTripKeepsModelledFields: Kubernetes → schedkit → Kubernetes →
// schedkit gives what the first conversion gave; nothing schedkit models
// is lost on the way back.
func TestRoundTripKeepsModelledFields(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(k8sgen.Kinds()).Draw(t, "kind")
		obj := drawObject(t, k.K8s)
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
			t.Fatalf("%s: first\n%s\nafter the round trip\n%s", k.Name, a, b)
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
			k := rapid.SampledFrom(k8sgen.Kinds()).Draw(t, "kind")
			toAPI := rapid.Bool().Draw(t, "toAPI")
			typ, batch, single := k.K8s, b.ToAPI, ToAPI
			if !toAPI {
				typ, batch, single = k.API, b.FromAPI, FromAPI
			}
			obj := drawObject(t, typ)
			got, err := batch(obj)
			if err != nil {
				t.Fatalf("%d %s: Batch: %v", i, k.Name, err)
			}
			w, err := single(obj)
			if err != nil {
				t.Fatalf("%d %s: %v", i, k.Name, err)
			}
			if a, b := mustJSON(t, got), mustJSON(t, w); !bytes.Equal(a, b) {
				t.Fatalf("%d %s: Batch\n%s\npackage function\n%s", i, k.Name, a, b)
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
		lists := make([]corev1.ResourceList, 3)
		labels := make([]map[string]string, 3)
		for i := range lists {
			k8sgen.Fill(t, reflect.ValueOf(&lists[i]).Elem(), 3)
			k8sgen.Fill(t, reflect.ValueOf(&labels[i]).Elem(), 3)
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
