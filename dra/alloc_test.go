package dra_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
)

// nodeWorld is n nodes with perNode devices of driver-b each and a claim
// for a driver-a device, which none has.
func nodeWorld(n, perNode int) ([]*api.Node, *dra.Allocator) {
	var nodes []*api.Node
	var slices []*api.ResourceSlice
	for i := range n {
		name := fmt.Sprintf("node-%d", i)
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
		s := slice(name, name, name, driverB)
		for d := range perNode {
			s.Spec.Devices = append(s.Spec.Devices, api.Device{Name: fmt.Sprintf("dev-%d", d)})
		}
		slices = append(slices, s)
	}
	c := claimWithRequest(claim0, req0, classA).obj()
	a, err := dra.NewAllocator(context.Background(), dra.Input{Claims: []*api.ResourceClaim{c},
		Classes: []*api.DeviceClass{class(classA, driverA)}, Slices: slices, Compiler: dragen.Compiler{}})
	if err != nil {
		panic(err)
	}
	return nodes, a
}

// TestAllocationsDoNotGrowWithDevices: after the first node (selector
// results are cached per device), allocating on a node where no device
// matches costs the same allocations with 4 devices as with 64.
func TestAllocationsDoNotGrowWithDevices(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not pinned under the race detector")
	}
	measure := func(perNode int) float64 {
		nodes, a := nodeWorld(2, perNode)
		ctx := context.Background()
		_, _ = a.Allocate(ctx, nodes[0])
		return testing.AllocsPerRun(50, func() {
			if res, err := a.Allocate(ctx, nodes[0]); res != nil || err != nil {
				t.Fatal(res, err)
			}
		})
	}
	few, many := measure(4), measure(64)
	if many > few {
		t.Errorf("allocations per node: %v with 4 devices, %v with 64", few, many)
	}
	t.Logf("allocations per node: %v", few)
}

func BenchmarkAllocateNoMatch(b *testing.B) {
	nodes, a := nodeWorld(500, 8)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, _ = a.Allocate(ctx, nodes[i%len(nodes)])
	}
}

// TestNodeWithoutDevicesAllocatesNothing: a node no slice reaches costs
// no allocation (most nodes of a cluster with a GPU pool).
func TestNodeWithoutDevicesAllocatesNothing(t *testing.T) {
	nodes, a := nodeWorld(1, 8)
	other := &api.Node{ObjectMeta: api.ObjectMeta{Name: "no-devices"}}
	ctx := context.Background()
	_ = nodes
	if n := testing.AllocsPerRun(50, func() {
		if res, err := a.Allocate(ctx, other); res != nil || err != nil {
			t.Fatal(res, err)
		}
	}); n != 0 {
		t.Errorf("%v allocations on a node without devices", n)
	}
}

// BenchmarkAllocateMatch: every node has eight devices of driver-a, the
// claim takes one.
func BenchmarkAllocateMatch(b *testing.B) {
	var nodes []*api.Node
	var slices []*api.ResourceSlice
	for i := range 500 {
		name := fmt.Sprintf("node-%d", i)
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
		s := slice(name, name, name, driverA)
		for d := range 8 {
			s.Spec.Devices = append(s.Spec.Devices, api.Device{Name: fmt.Sprintf("dev-%d", d)})
		}
		slices = append(slices, s)
	}
	c := claimWithRequest(claim0, req0, classA).obj()
	a, err := dra.NewAllocator(context.Background(), dra.Input{Claims: []*api.ResourceClaim{c},
		Classes: []*api.DeviceClass{class(classA, driverA)}, Slices: slices, Compiler: dragen.Compiler{}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if res, err := a.Allocate(ctx, nodes[i%len(nodes)]); res == nil || err != nil {
			b.Fatal(res, err)
		}
	}
}
