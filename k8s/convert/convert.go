package convert

//go:generate go run ../internal/convgen -o zz_generated.go

import (
	"encoding/json"
	"fmt"

	"github.com/schedkit/schedkit/quantity"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ToAPI converts a pointer to a Kubernetes object of a kind schedkit
// reads (*corev1.Pod, *appsv1.Deployment, ...) into a pointer to the
// schedkit api type of the same kind (*api.Pod, *api.Deployment, ...).
// Another type is an error; so is a field schedkit cannot represent.
func ToAPI(obj any) (any, error) { return toAPI(obj, nil) }

// FromAPI converts a pointer to a schedkit api object (*api.Pod, ...)
// into a pointer to the Kubernetes type of the same kind (*corev1.Pod,
// ...). Another type is an error.
func FromAPI(obj any) (any, error) { return fromAPI(obj, nil) }

func unsupported(obj any) error {
	return fmt.Errorf("convert: unsupported type %T", obj)
}

// quantityToAPI converts q as its JSON form would: the canonical string
// parsed by schedkit. Whole, milli and nano values are carried as a value
// and a scale, which allocates nothing; others, beyond int64 nanos, take
// the string.
func quantityToAPI(in *resource.Quantity, out *quantity.Quantity) error {
	f := quantity.Format(in.Format)
	if v, ok := in.AsInt64(); ok {
		*out = quantity.NewQuantity(v, f)
		return nil
	}
	if m := in.MilliValue(); in.Cmp(*resource.NewMilliQuantity(m, in.Format)) == 0 {
		*out = quantity.NewMilliQuantity(m, f)
		return nil
	}
	if n := in.ScaledValue(resource.Nano); in.Cmp(*resource.NewScaledQuantity(n, resource.Nano)) == 0 {
		*out = quantity.NewScaledQuantity(n, quantity.Nano)
		out.Format = f
		return nil
	}
	s := in.String()
	q, err := quantity.ParseQuantity(s)
	if err != nil {
		return &valueError{value: s, err: err}
	}
	*out = q
	return nil
}

// quantityFromAPI converts q as its JSON form would: the canonical string
// parsed by apimachinery, with the same fast paths as quantityToAPI.
func quantityFromAPI(in *quantity.Quantity, out *resource.Quantity) error {
	f := resource.Format(in.Format)
	if f == "" {
		f = resource.DecimalExponent
	}
	if v, ok := in.AsInt64(); ok {
		*out = *resource.NewQuantity(v, f)
		return nil
	}
	if m := in.MilliValue(); in.Cmp(quantity.NewMilliQuantity(m, in.Format)) == 0 {
		*out = *resource.NewMilliQuantity(m, f)
		return nil
	}
	if n := in.ScaledValue(quantity.Nano); in.Cmp(quantity.NewScaledQuantity(n, quantity.Nano)) == 0 {
		*out = *resource.NewScaledQuantity(n, resource.Nano)
		out.Format = f
		return nil
	}
	s := in.String()
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return &valueError{value: s, err: err}
	}
	*out = q
	return nil
}

func intOrStringToAPI(in intstr.IntOrString) apiIntOrString {
	if in.Type == intstr.String {
		return apiIntOrString{IsString: true, StrVal: in.StrVal}
	}
	return apiIntOrString{IntVal: in.IntVal}
}

func intOrStringFromAPI(in apiIntOrString) intstr.IntOrString {
	if in.IsString {
		return intstr.IntOrString{Type: intstr.String, StrVal: in.StrVal}
	}
	return intstr.IntOrString{Type: intstr.Int, IntVal: in.IntVal}
}

// rawToAPI copies the raw JSON of in, or encodes its Object when it has
// no raw form. An empty extension is null, as its JSON form is.
func rawToAPI(in *runtime.RawExtension, out *json.RawMessage) error {
	switch {
	case in.Raw != nil:
		*out = append(json.RawMessage(nil), in.Raw...)
	case in.Object != nil:
		b, err := json.Marshal(in.Object)
		if err != nil {
			return err
		}
		*out = b
	default:
		*out = json.RawMessage("null")
	}
	return nil
}

// rawFromAPI copies the JSON of in; empty or null is an empty extension,
// as JSON decoding makes it.
func rawFromAPI(in json.RawMessage) runtime.RawExtension {
	if len(in) == 0 || string(in) == "null" {
		return runtime.RawExtension{}
	}
	return runtime.RawExtension{Raw: append([]byte(nil), in...)}
}
