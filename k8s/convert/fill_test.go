package convert

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// filler draws random values of any api type, schedkit's or Kubernetes',
// by walking the type: every field gets a value, so a field a conversion
// forgets shows up as a difference. Types with their own JSON encoding get
// valid values of their own; others with a custom encoding stay zero.
type filler struct {
	t        *rapid.T
	maxDepth int
}

var (
	rQuantity  = reflect.TypeFor[quantity.Quantity]()
	rKQuantity = reflect.TypeFor[resource.Quantity]()
	rTime      = reflect.TypeFor[api.Time]()
	rKTime     = reflect.TypeFor[metav1.Time]()
	rIOS       = reflect.TypeFor[api.IntOrString]()
	rKIOS      = reflect.TypeFor[intstr.IntOrString]()
	rRaw       = reflect.TypeFor[json.RawMessage]()
	rKRaw      = reflect.TypeFor[runtime.RawExtension]()
	rMarshaler = reflect.TypeFor[json.Marshaler]()
)

var quantityTexts = []string{
	"0", "1", "2", "100m", "500m", "1500m", "0.5", "1.25", "3", "64", "1k", "1M", "2G",
	"1Ki", "128Mi", "4Gi", "1Ti", "1e3", "2e6", "1.5Gi", "1023", "1025", "-1", "123456789012345678901234",
	"1n", "1u", "7E", "100", "9223372036854775807", "0.001", "2.5e-3",
}

func (f *filler) quantityText(label string) string {
	if rapid.Bool().Draw(f.t, label+"/q.int") {
		n := rapid.Int64Range(0, 1<<40).Draw(f.t, label+"/q.v")
		return strconv.FormatInt(n, 10) + rapid.SampledFrom([]string{"", "m", "k", "Ki", "Mi", "Gi", "M", "e3"}).Draw(f.t, label+"/q.suffix")
	}
	return rapid.SampledFrom(quantityTexts).Draw(f.t, label+"/q.text")
}

func (f *filler) fill(v reflect.Value, depth int, label string) {
	t := v.Type()
	switch t {
	case rQuantity, rKQuantity:
		s := f.quantityText(label)
		if t == rQuantity {
			v.Set(reflect.ValueOf(quantity.MustParse(s)))
		} else {
			v.Set(reflect.ValueOf(resource.MustParse(s)))
		}
		return
	case rTime, rKTime:
		if rapid.IntRange(0, 4).Draw(f.t, label+"/t.zero") == 0 {
			return
		}
		tm := time.Unix(rapid.Int64Range(0, 4e9).Draw(f.t, label+"/t"), 0)
		if t == rTime {
			v.Set(reflect.ValueOf(api.Time{Time: tm}))
		} else {
			v.Set(reflect.ValueOf(metav1.Time{Time: tm}))
		}
		return
	case rIOS, rKIOS:
		isString := rapid.Bool().Draw(f.t, label+"/ios")
		i := rapid.Int32Range(-3, 100).Draw(f.t, label+"/ios.i")
		s := rapid.SampledFrom([]string{"", "25%", "1", "http", "50%"}).Draw(f.t, label+"/ios.s")
		if t == rIOS {
			if isString {
				v.Set(reflect.ValueOf(api.FromString(s)))
			} else {
				v.Set(reflect.ValueOf(api.FromInt(i)))
			}
		} else {
			if isString {
				v.Set(reflect.ValueOf(intstr.FromString(s)))
			} else {
				v.Set(reflect.ValueOf(intstr.FromInt32(i)))
			}
		}
		return
	case rRaw, rKRaw:
		raw := rapid.SampledFrom([]string{"", `{"a":1}`, `{"spec":{"template":{"$patch":"replace"}}}`, `[1,"x"]`}).Draw(f.t, label+"/raw")
		if raw == "" {
			return
		}
		if t == rRaw {
			v.Set(reflect.ValueOf(json.RawMessage(raw)))
		} else {
			v.Set(reflect.ValueOf(runtime.RawExtension{Raw: []byte(raw)}))
		}
		return
	}
	if t.Implements(rMarshaler) || reflect.PointerTo(t).Implements(rMarshaler) {
		return // a type with its own encoding this filler does not know
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(rapid.SampledFrom([]string{"", "a", "b", "zone-1", "kubernetes.io/hostname", "x y"}).Draw(f.t, label))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(f.t, label))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rapid.Int64Range(-2, 1000).Draw(f.t, label))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64Range(0, 255).Draw(f.t, label))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(rapid.IntRange(0, 100).Draw(f.t, label)) / 4)
	case reflect.Pointer:
		if depth >= f.maxDepth || rapid.IntRange(0, 2).Draw(f.t, label+"/nil") == 0 {
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem(), depth+1, label)
		v.Set(p)
	case reflect.Slice:
		n := 0
		if depth < f.maxDepth {
			n = rapid.IntRange(-1, 2).Draw(f.t, label+"/len")
		}
		if n < 0 {
			return // nil
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			f.fill(s.Index(i), depth+1, label)
		}
		v.Set(s)
	case reflect.Map:
		n := 0
		if depth < f.maxDepth {
			n = rapid.IntRange(-1, 2).Draw(f.t, label+"/len")
		}
		if n < 0 {
			return
		}
		m := reflect.MakeMapWithSize(t, n)
		for range n {
			k := reflect.New(t.Key()).Elem()
			f.fill(k, depth+1, label+"/key")
			e := reflect.New(t.Elem()).Elem()
			f.fill(e, depth+1, label)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() || sf.Tag.Get("json") == "-" {
				continue
			}
			f.fill(v.Field(i), depth+1, sf.Name)
		}
	case reflect.Interface:
		// runtime.Object and the like stay nil.
	}
}
