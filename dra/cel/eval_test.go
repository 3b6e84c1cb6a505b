package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/quantity"
)

// TestInterrupt pins upstream's TestInterrupt: a long comprehension stops
// when the context ends, and the error wraps the context's.
func TestInterrupt(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := c.Compile(`device.attributes["dra.example.com"].map(key, device.attributes["dra.example.com"][key] * 20).filter(e, e > 50).exists(e, e == 60)`)
	if err != nil {
		t.Fatal(err)
	}
	d := Device{Attributes: map[api.QualifiedName]api.DeviceAttribute{}}
	for i := int64(0); i < 1000; i++ {
		d.Attributes[api.QualifiedName(fmt.Sprintf("dra.example.com/attr%d", i))] = api.DeviceAttribute{IntValue: ptrTo(i)}
	}
	for _, name := range []string{"timeout", "deadline", "cancel", "none"} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			var cancel context.CancelFunc
			switch name {
			case "timeout":
				ctx, cancel = context.WithTimeout(ctx, time.Nanosecond)
			case "deadline":
				ctx, cancel = context.WithDeadline(ctx, time.Now())
			case "cancel":
				ctx, cancel = context.WithCancel(ctx)
				cancel()
			}
			if cancel != nil {
				defer cancel()
			}
			_, err := sel.Matches(ctx, d)
			if ctx.Err() != nil {
				if !errors.Is(err, ctx.Err()) || !strings.Contains(err.Error(), "operation interrupted") {
					t.Fatalf("got %v, want it to wrap %v", err, ctx.Err())
				}
			} else if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDeviceErrors pins the errors of a device Kubernetes cannot convert:
// every selector fails, even one that does not read the attribute.
func TestDeviceErrors(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := c.Compile("true")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		attr api.DeviceAttribute
		want string
	}{
		{api.DeviceAttribute{}, "attribute x.org/a: unsupported attribute value"},
		{api.DeviceAttribute{VersionValue: ptrTo("1.2")}, "attribute x.org/a: parse semantic version: No Major.Minor.Patch elements found"},
		{api.DeviceAttribute{VersionValues: []string{"1.2.3", "v1"}}, "attribute x.org/a: parse semantic version: No Major.Minor.Patch elements found"},
	} {
		_, err := sel.Matches(context.Background(), Device{Attributes: map[api.QualifiedName]api.DeviceAttribute{"x.org/a": tc.attr}})
		if errText(err) != tc.want {
			t.Errorf("%+v: %v, want %s", tc.attr, err, tc.want)
		}
	}
}

// TestCompileCache: Compile returns the same Selector for an expression
// it keeps, the same error for one that failed, and drops the least
// recently used beyond its size.
func TestCompileCache(t *testing.T) {
	c, err := NewCompiler(2)
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := c.Compile("true")
	a2, _ := c.Compile("true")
	if a1 != a2 {
		t.Fatal("a cached expression compiled twice")
	}
	_, e1 := c.Compile("1")
	_, e2 := c.Compile("1")
	if e1 == nil || e1 != e2 {
		t.Fatalf("errors %v, %v", e1, e2)
	}
	c.Compile("false")
	if a3, _ := c.Compile("true"); a3 == a1 {
		t.Fatal("the least recently used entry was kept beyond the cache size")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sel, err := c.Compile(fmt.Sprintf("device.attributes[\"d\"].n == %d", i%3))
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := sel.Matches(context.Background(), Device{Driver: "d", Attributes: map[api.QualifiedName]api.DeviceAttribute{"n": {IntValue: ptrTo(int64(1))}}}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
}

// TestMatchesDevice: the allocator's entry point reads api.Device and
// enhances missing-key errors.
func TestMatchesDevice(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := c.Compile(`device.attributes["gpu.example.com"].model == "a100" && device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0 && device.allowMultipleAllocations`)
	if err != nil {
		t.Fatal(err)
	}
	d := &api.Device{
		Name:                     "gpu-0",
		Attributes:               map[api.QualifiedName]api.DeviceAttribute{"model": {StringValue: ptrTo("a100")}},
		Capacity:                 map[api.QualifiedName]api.DeviceCapacity{"gpu.example.com/memory": {Value: quantity.MustParse("80Gi")}},
		AllowMultipleAllocations: ptrTo(true),
	}
	if ok, err := sel.MatchesDevice(context.Background(), "gpu.example.com", d); !ok || err != nil {
		t.Fatalf("got %v, %v", ok, err)
	}
	_, err = sel.MatchesDevice(context.Background(), "other.example.com", d)
	want := "no such key: model. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields"
	if errText(err) != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestValidate pins the API server's checks of a new expression.
func TestValidate(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(strings.Repeat(" ", MaxExpressionLength) + "true"); !errors.Is(err, ErrTooLong) {
		t.Errorf("too long: %v", err)
	}
	// New expressions see attributes as the unknown type, where stored
	// expressions see dyn: a macro over an attribute does not compile.
	expr := `device.attributes["dra.example.com"].ids.exists(id, id == 1)`
	if _, err := c.Compile(expr); err != nil {
		t.Errorf("stored: %v", err)
	}
	if err := c.Validate(expr); err == nil || !strings.Contains(err.Error(), "compilation failed") {
		t.Errorf("new: %v", err)
	}
	if err := c.Validate(`[1].includes(1)`); err == nil {
		t.Errorf("includes is not in the 1.36 environment with list-typed attributes off")
	}
}

// TestCheck pins the field errors the API server reports for a selector.
func TestCheck(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	p := field.NewPath("spec", "selectors").Index(0).Child("cel", "expression")
	for _, tc := range []struct{ expr, want string }{
		{`device.driver == "a"`, ""},
		{`1`, `spec.selectors[0].cel.expression: Invalid value: "1": must evaluate to bool or the unknown type, not int`},
		{`[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))`,
			`spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit`},
	} {
		var got string
		if errs := c.Check(tc.expr, p); len(errs) > 0 {
			got = errs.ToAggregate().Error()
		}
		if got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.expr, got, tc.want)
		}
	}
}
