package podhash

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"
	"sigs.k8s.io/randfill"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/schedkit/schedkit/workload"
)

var (
	quantityType = reflect.TypeFor[resource.Quantity]()
	timeType     = reflect.TypeFor[metav1.Time]()
)

// timedFiller is filler with timestamps (whole seconds, as the JSON form
// keeps them) in the template's metadata.
func timedFiller(seed int64) *randfill.Filler {
	return filler(seed).Funcs(
		func(t *metav1.Time, c randfill.Continue) {
			if c.Bool() {
				*t = metav1.Time{}
				return
			}
			*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0).In(time.FixedZone("z", 3600*(c.Intn(25)-12))))
		},
		func(t **metav1.Time, c randfill.Continue) {
			if c.Bool() {
				*t = nil
				return
			}
			v := metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
			*t = &v
		},
	)
}

// visit calls f on every settable value under v (v included), through
// pointers, slices, maps (copied back) and struct fields.
func visit(v reflect.Value, f func(reflect.Value)) {
	f(v)
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			visit(v.Elem(), f)
		}
	case reflect.Slice:
		for i := range v.Len() {
			visit(v.Index(i), f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			visit(e, f)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == quantityType || v.Type() == timeType {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				visit(v.Field(i), f)
			}
		}
	}
}

// respell changes what Semantic.DeepEqual ignores: quantity formats
// (same value), time zones, nil and empty lists and maps.
func respell(rt *rapid.T, v reflect.Value) {
	visit(v, func(x reflect.Value) {
		switch {
		case x.Type() == quantityType:
			q := x.Addr().Interface().(*resource.Quantity)
			switch rapid.IntRange(0, 2).Draw(rt, "quantity") {
			case 1:
				*q = resource.MustParse(q.AsDec().String())
			case 2:
				r := q.DeepCopy()
				r.Format = []resource.Format{resource.DecimalSI, resource.BinarySI, resource.DecimalExponent}[rapid.IntRange(0, 2).Draw(rt, "format")]
				*q = resource.MustParse(r.String())
			}
		case x.Type() == timeType:
			t := x.Addr().Interface().(*metav1.Time)
			if !t.IsZero() && rapid.Bool().Draw(rt, "zone") {
				t.Time = t.UTC()
			}
		case x.Kind() == reflect.Slice && x.Type().Elem().Kind() != reflect.Uint8 && x.Len() == 0:
			if rapid.Bool().Draw(rt, "emptySlice") {
				if x.IsNil() {
					x.Set(reflect.MakeSlice(x.Type(), 0, 0))
				} else {
					x.Set(reflect.Zero(x.Type()))
				}
			}
		case x.Kind() == reflect.Map && x.Len() == 0:
			if rapid.Bool().Draw(rt, "emptyMap") {
				if x.IsNil() {
					x.Set(reflect.MakeMap(x.Type()))
				} else {
					x.Set(reflect.Zero(x.Type()))
				}
			}
		}
	})
}

// TestEqualIgnoreHash: on template pairs (one drawn, the other the same
// respelled — quantity formats, time zones, empty or absent lists and
// maps, another pod-template-hash — and at times changed in a label, a
// quantity's value or redrawn), schedkit's EqualIgnoreHash of the JSON
// forms is upstream deploymentutil.EqualIgnoreHash of the templates the
// informer decodes.
func TestEqualIgnoreHash(t *testing.T) {
	counts := map[bool]int{}
	rapid.Check(t, func(rt *rapid.T) {
		var a corev1.PodTemplateSpec
		timedFiller(rapid.Int64().Draw(rt, "seed")).Fill(&a)
		b := a.DeepCopy()
		switch rapid.IntRange(0, 5).Draw(rt, "change") {
		case 1:
			b.Labels = map[string]string{"pod-template-hash": rapid.StringMatching(`[a-z0-9]{0,10}`).Draw(rt, "hash")}
			for k, v := range a.Labels {
				b.Labels[k] = v
			}
		case 2:
			b.Labels = map[string]string{rapid.StringMatching(`[a-z]{1,5}`).Draw(rt, "key"): "x"}
		case 3:
			changed := false
			visit(reflect.ValueOf(b).Elem(), func(x reflect.Value) {
				if !changed && x.Type() == quantityType {
					q := x.Addr().Interface().(*resource.Quantity)
					q.Add(resource.MustParse("1m"))
					*q = resource.MustParse(q.String())
					changed = true
				}
			})
		case 4:
			b = &corev1.PodTemplateSpec{}
			timedFiller(rapid.Int64().Draw(rt, "seed2")).Fill(b)
		}
		respell(rt, reflect.ValueOf(b).Elem())
		want := deploymentutil.EqualIgnoreHash(stored(t, &a), stored(t, b))
		ja, _ := json.Marshal(&a)
		jb, _ := json.Marshal(b)
		got, err := workload.EqualIgnoreHash(ja, jb)
		if err != nil {
			rt.Fatalf("EqualIgnoreHash: %v", err)
		}
		if got != want {
			rt.Fatalf("EqualIgnoreHash %v, upstream %v\n%s\n%s", got, want, ja, jb)
		}
		counts[want]++
	})
	t.Logf("%d equal pairs, %d different", counts[true], counts[false])
	if counts[true] == 0 || counts[false] == 0 {
		t.Error("the pairs drawn are all equal or all different")
	}
}
