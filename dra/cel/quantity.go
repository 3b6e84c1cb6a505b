package cel

import (
	"errors"
	"fmt"
	"reflect"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/schedkit/schedkit/quantity"
)

// quantityType is the CEL type of quantities, kubernetes.Quantity.
var (
	quantityType      = celgo.ObjectType("kubernetes.Quantity")
	quantityTypeValue = types.NewObjectType("kubernetes.Quantity")
)

// Quantity is a quantity as a CEL value, of CEL type kubernetes.Quantity:
// what quantity() returns and what device.capacity holds. add and sub
// return a *Quantity, as Kubernetes does, and equality takes only the
// plain value on its right: quantity("1").add(1) == quantity("2") holds,
// while quantity("2") == quantity("1").add(1) is a no-such-overload
// error, in schedkit as in Kubernetes.
type Quantity struct{ Q quantity.Quantity }

// ConvertToNative implements ref.Val.
func (v Quantity) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.Q).AssignableTo(t) {
		return v.Q, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return v.Q.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (v Quantity) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case quantityTypeValue:
		return v
	case types.TypeType:
		return quantityTypeValue
	}
	return types.NewErr("type conversion error from '%s' to '%s'", quantityTypeValue, t)
}

// Equal implements ref.Val.
func (v Quantity) Equal(other ref.Val) ref.Val {
	o, ok := other.(Quantity)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.Q.Equal(o.Q))
}

// Type implements ref.Val.
func (v Quantity) Type() ref.Type { return quantityTypeValue }

// Value implements ref.Val.
func (v Quantity) Value() any { return v.Q }

// asQuantity returns the quantity of either form.
func asQuantity(v ref.Val) (quantity.Quantity, bool) {
	switch x := v.(type) {
	case Quantity:
		return x.Q, true
	case *Quantity:
		return x.Q, true
	}
	return quantity.Quantity{}, false
}

// parseQuantityCEL parses like Kubernetes' resource.ParseQuantity: its
// errors are the bare sentinels, without the quoted input schedkit's
// quantity package adds.
func parseQuantityCEL(s string) (quantity.Quantity, error) {
	q, err := quantity.ParseQuantity(s)
	if err != nil {
		for _, e := range []error{quantity.ErrFormatWrong, quantity.ErrSuffix, quantity.ErrNumeric} {
			if errors.Is(err, e) {
				return q, e
			}
		}
	}
	return q, err
}

// quantityLib is Kubernetes' kubernetes.quantity library.
type quantityLib struct{}

func (quantityLib) LibraryName() string { return "kubernetes.quantity" }

func (quantityLib) CompileOptions() []celgo.EnvOption {
	s, b, i, d := celgo.StringType, celgo.BoolType, celgo.IntType, celgo.DoubleType
	q := quantityType
	un := func(f func(quantity.Quantity) ref.Val) celgo.OverloadOpt {
		return celgo.UnaryBinding(func(a ref.Val) ref.Val {
			x, ok := asQuantity(a)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x)
		})
	}
	bin := func(f func(x, y quantity.Quantity) ref.Val) celgo.OverloadOpt {
		return celgo.BinaryBinding(func(a, b ref.Val) ref.Val {
			x, ok := asQuantity(a)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			y, ok := asQuantity(b)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x, y)
		})
	}
	binInt := func(f func(x, y quantity.Quantity) ref.Val) celgo.OverloadOpt {
		return celgo.BinaryBinding(func(a, b ref.Val) ref.Val {
			x, ok := asQuantity(a)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			n, ok := b.Value().(int64)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x, quantity.NewQuantity(n, quantity.DecimalSI))
		})
	}
	add := func(x, y quantity.Quantity) ref.Val { x.Add(y); return &Quantity{x} }
	sub := func(x, y quantity.Quantity) ref.Val { x.Sub(y); return &Quantity{x} }
	return []celgo.EnvOption{
		celgo.Function("quantity",
			celgo.Overload("string_to_quantity", []*celgo.Type{s}, q, celgo.UnaryBinding(func(a ref.Val) ref.Val {
				str, ok := a.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(a)
				}
				x, err := parseQuantityCEL(str)
				if err != nil {
					return types.WrapErr(err)
				}
				return Quantity{x}
			}))),
		celgo.Function("isQuantity",
			celgo.Overload("is_quantity_string", []*celgo.Type{s}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val {
				str, ok := a.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(a)
				}
				_, err := parseQuantityCEL(str)
				return types.Bool(err == nil)
			}))),
		celgo.Function("sign",
			celgo.Overload("quantity_sign", []*celgo.Type{q}, i, un(func(x quantity.Quantity) ref.Val { return types.Int(x.Sign()) }))),
		celgo.Function("isGreaterThan",
			celgo.MemberOverload("quantity_is_greater_than", []*celgo.Type{q, q}, b, bin(func(x, y quantity.Quantity) ref.Val { return types.Bool(x.Cmp(y) == 1) }))),
		celgo.Function("isLessThan",
			celgo.MemberOverload("quantity_is_less_than", []*celgo.Type{q, q}, b, bin(func(x, y quantity.Quantity) ref.Val { return types.Bool(x.Cmp(y) == -1) }))),
		celgo.Function("compareTo",
			celgo.MemberOverload("quantity_compare_to", []*celgo.Type{q, q}, i, bin(func(x, y quantity.Quantity) ref.Val { return types.Int(x.Cmp(y)) }))),
		celgo.Function("asApproximateFloat",
			celgo.MemberOverload("quantity_get_float", []*celgo.Type{q}, d, un(func(x quantity.Quantity) ref.Val { return types.Double(x.AsApproximateFloat64()) }))),
		celgo.Function("asInteger",
			celgo.MemberOverload("quantity_get_int", []*celgo.Type{q}, i, un(func(x quantity.Quantity) ref.Val {
				n, ok := x.AsInt64()
				if !ok {
					return types.WrapErr(errors.New("cannot convert value to integer"))
				}
				return types.Int(n)
			}))),
		celgo.Function("isInteger",
			celgo.MemberOverload("quantity_is_integer", []*celgo.Type{q}, b, un(func(x quantity.Quantity) ref.Val {
				_, ok := x.AsInt64()
				return types.Bool(ok)
			}))),
		celgo.Function("add",
			celgo.MemberOverload("quantity_add", []*celgo.Type{q, q}, q, bin(add)),
			celgo.MemberOverload("quantity_add_int", []*celgo.Type{q, i}, q, binInt(add))),
		celgo.Function("sub",
			celgo.MemberOverload("quantity_sub", []*celgo.Type{q, q}, q, bin(sub)),
			celgo.MemberOverload("quantity_sub_int", []*celgo.Type{q, i}, q, binInt(sub))),
	}
}

func (quantityLib) ProgramOptions() []celgo.ProgramOption { return nil }
