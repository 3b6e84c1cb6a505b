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
	quantityTypeValue = types.NewTypeValue("kubernetes.Quantity")
)

// quantityVal is a quantity as a CEL value: what quantity() returns and what
// device.capacity holds.
type quantityVal struct{ q quantity.Quantity }

// quantitySum is the result of add and sub. Kubernetes returns those as a
// pointer to its quantity value, and its equality accepts only the plain
// value on the right: quantity("1").add(1) == quantity("2") holds, while
// quantity("2") == quantity("1").add(1) is a no-such-overload error. A
// second type keeps that difference.
type quantitySum struct{ q quantity.Quantity }

func (v quantityVal) ConvertToNative(t reflect.Type) (any, error) { return quantityToNative(v.q, t) }
func (v quantitySum) ConvertToNative(t reflect.Type) (any, error) { return quantityToNative(v.q, t) }

func quantityToNative(q quantity.Quantity, t reflect.Type) (any, error) {
	if reflect.TypeOf(q).AssignableTo(t) {
		return q, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return q.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", t)
}

func (v quantityVal) ConvertToType(t ref.Type) ref.Val { return quantityConvert(v, t) }
func (v quantitySum) ConvertToType(t ref.Type) ref.Val { return quantityConvert(v, t) }

func quantityConvert(v ref.Val, t ref.Type) ref.Val {
	switch t {
	case quantityTypeValue:
		return v
	case types.TypeType:
		return quantityTypeValue
	}
	return types.NewErr("type conversion error from '%s' to '%s'", quantityTypeValue, t)
}

func (v quantityVal) Equal(other ref.Val) ref.Val { return quantityEqual(v.q, other) }
func (v quantitySum) Equal(other ref.Val) ref.Val { return quantityEqual(v.q, other) }

func quantityEqual(q quantity.Quantity, other ref.Val) ref.Val {
	o, ok := other.(quantityVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(q.Equal(o.q))
}

func (v quantityVal) Type() ref.Type { return quantityTypeValue }
func (v quantitySum) Type() ref.Type { return quantityTypeValue }
func (v quantityVal) Value() any     { return v.q }
func (v quantitySum) Value() any     { return v.q }

// asQuantity returns the quantity of either form.
func asQuantity(v ref.Val) (quantity.Quantity, bool) {
	switch x := v.(type) {
	case quantityVal:
		return x.q, true
	case quantitySum:
		return x.q, true
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
	add := func(x, y quantity.Quantity) ref.Val { x.Add(y); return quantitySum{x} }
	sub := func(x, y quantity.Quantity) ref.Val { x.Sub(y); return quantitySum{x} }
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
				return quantityVal{x}
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
