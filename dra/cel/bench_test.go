package cel

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// typicalDevice is a GPU as a driver publishes it: a few attributes in
// the driver's domain and one in another, and memory.
func typicalDevice() *api.Device {
	return &api.Device{
		Name: "gpu-0",
		Attributes: map[api.QualifiedName]api.DeviceAttribute{
			"model":                           {StringValue: ptrTo("a100")},
			"driverVersion":                   {VersionValue: ptrTo("535.104.5")},
			"index":                           {IntValue: ptrTo(int64(0))},
			"resource.kubernetes.io/pcieRoot": {StringValue: ptrTo("pci0000:00")},
		},
		Capacity: map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("80Gi")}},
	}
}

func BenchmarkMatches(b *testing.B) {
	c, err := NewCompiler(0)
	if err != nil {
		b.Fatal(err)
	}
	d := typicalDevice()
	for _, bc := range []struct{ name, expr string }{
		{"driver-and-model", `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"`},
		{"memory", `device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`},
		{"version", `device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("530.0.0"))`},
	} {
		sel, err := c.Compile(bc.expr)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ok, err := sel.MatchesDevice(ctx, "gpu.example.com", d)
				if !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
	}
}

func BenchmarkCompileCached(b *testing.B) {
	c, err := NewCompiler(0)
	if err != nil {
		b.Fatal(err)
	}
	const expr = `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Compile(expr); err != nil {
			b.Fatal(err)
		}
	}
}
