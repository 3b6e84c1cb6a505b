package k8sgen

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// DefaultDepth is how deep Object fills: pointers, slices and maps below
// it are left nil, so that recursive types (JSON schemas, label selector
// trees) stay small.
const DefaultDepth = 9

// Object returns a generator of random *T with every field drawn, to the
// default depth. T is any struct type, k8s.io/api's or schedkit's api.
func Object[T any]() *rapid.Generator[*T] { return ObjectDepth[T](DefaultDepth) }

// ObjectDepth is Object filling to maxDepth levels of fields.
func ObjectDepth[T any](maxDepth int) *rapid.Generator[*T] {
	return rapid.Custom(func(t *rapid.T) *T {
		p := new(T)
		Fill(t, reflect.ValueOf(p).Elem(), maxDepth)
		return p
	})
}

// Fill draws a random value of v's type from t into v, which must be
// settable, for a type known at run time. Fields below maxDepth levels
// stay zero.
func Fill(t *rapid.T, v reflect.Value, maxDepth int) {
	(&filler{t: t, maxDepth: maxDepth}).fill(v, 0, v.Type().Name())
}

// Kind is one kind package convert handles: its name, its k8s.io/api type
// and schedkit's api type.
type Kind struct {
	Name     string
	K8s, API reflect.Type
}

// Kinds lists the kinds package convert handles, in a fixed order.
func Kinds() []Kind {
	return []Kind{
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
		{"Workload", reflect.TypeFor[schedulingv1beta1.Workload](), reflect.TypeFor[api.Workload]()},
		{"PodGroup", reflect.TypeFor[schedulingv1beta1.PodGroup](), reflect.TypeFor[api.PodGroup]()},
	}
}

// Node draws core/v1 Nodes.
func Node() *rapid.Generator[*corev1.Node] { return Object[corev1.Node]() }

// Pod draws core/v1 Pods.
func Pod() *rapid.Generator[*corev1.Pod] { return Object[corev1.Pod]() }

// filler draws random values of any api type, schedkit's or Kubernetes',
// by walking the type: every field gets a value, so a field a conversion
// forgets shows up as a difference. Types with their own JSON encoding get
// valid values of their own; others with a custom encoding stay zero.
type filler struct {
	t        *rapid.T
	maxDepth int
}

// The types filled with values of their own. Read-only after init.
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

// quantityTexts are quantities of every shape: whole, milli, nano,
// binary and decimal suffixes, exponents, beyond int64.
func quantityTexts() []string {
	return []string{
		"0", "1", "2", "100m", "500m", "1500m", "0.5", "1.25", "3", "64", "1k", "1M", "2G",
		"1Ki", "128Mi", "4Gi", "1Ti", "1e3", "2e6", "1.5Gi", "1023", "1025", "-1", "123456789012345678901234",
		"1n", "1u", "7E", "100", "9223372036854775807", "0.001", "2.5e-3",
	}
}

func (f *filler) quantityText(label string) string {
	if rapid.Bool().Draw(f.t, label+"/q.int") {
		n := rapid.Int64Range(0, 1<<40).Draw(f.t, label+"/q.v")
		return strconv.FormatInt(n, 10) + rapid.SampledFrom([]string{"", "m", "k", "Ki", "Mi", "Gi", "M", "e3"}).Draw(f.t, label+"/q.suffix")
	}
	return rapid.SampledFrom(quantityTexts()).Draw(f.t, label+"/q.text")
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
