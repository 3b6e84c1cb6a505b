package cel_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/quantity"
)

func ExampleCompiler_Compile() {
	c, err := cel.NewCompiler(0)
	if err != nil {
		panic(err)
	}
	model := "a100"
	gpu := &api.Device{
		Name:       "gpu-0",
		Attributes: map[api.QualifiedName]api.DeviceAttribute{"model": {StringValue: &model}},
		Capacity:   map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("80Gi")}},
	}
	for _, expr := range []string{
		`device.attributes["gpu.example.com"].model == "a100" && device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`,
		`device.attributes["gpu.example.com"].cores > 8`,
		`device.attributes["gpu.example.com"].model`,
	} {
		sel, err := c.Compile(expr)
		if err != nil {
			fmt.Println("compile error:", err)
			continue
		}
		ok, err := sel.MatchesDevice(context.Background(), "gpu.example.com", gpu)
		fmt.Println(ok, err)
	}
	_, err = c.Compile(`device.attributes["gpu.example.com"].model.size()`)
	fmt.Println(err)
	// Output:
	// true <nil>
	// false no such key: cores. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields
	// false CEL result of type string could not be converted to bool: unsupported native conversion from string to 'bool'
	// must evaluate to bool or the unknown type, not int
}
