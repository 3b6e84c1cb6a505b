package cel

import (
	"context"
	"errors"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// FuzzCompile compiles arbitrary expressions, validates them and
// evaluates those that compile on a device: nothing panics, a compile
// error is an *Error, and evaluation returns.
func FuzzCompile(f *testing.F) {
	for _, tc := range selectorCases {
		f.Add(tc.expression)
	}
	for _, s := range []string{"", "?!", "device.", `device.attributes["a"].`, "cel.bind(", `quantity("1").add(`, "[1,2].all(x, x > 0)", "'\\x", `"\u00ff`, "1 +", "{1: 2}[3]", "has(device.x)"} {
		f.Add(s)
	}
	c, err := NewCompiler(64)
	if err != nil {
		f.Fatal(err)
	}
	d := Device{
		Driver: "dra.example.com",
		Attributes: map[api.QualifiedName]api.DeviceAttribute{
			"name": {StringValue: ptrTo("fish")}, "int": {IntValue: ptrTo(int64(1))}, "bool": {BoolValue: ptrTo(true)},
			"version": {VersionValue: ptrTo("1.0.0")}, "list": {IntValues: []int64{1, 2}}, "x.org/s": {StringValues: []string{"a"}},
		},
		Capacity: map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("1Gi")}},
	}
	f.Fuzz(func(t *testing.T, expr string) {
		sel, err := c.Compile(expr)
		var ce *Error
		if err != nil {
			if !errors.As(err, &ce) {
				t.Fatalf("compile error of type %T: %v", err, err)
			}
			return
		}
		if sel.Expression() != expr {
			t.Fatalf("selector for %q holds %q", expr, sel.Expression())
		}
		_, _ = sel.Matches(context.Background(), d)
		if err := c.Validate(expr); err != nil && !errors.As(err, &ce) && !errors.Is(err, ErrTooLong) && !errors.Is(err, ErrTooComplex) {
			t.Fatalf("validation error of type %T: %v", err, err)
		}
	})
}
