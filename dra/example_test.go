package dra_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
)

// A pod's claim for one GPU, a node with two, one of them held by another
// claim: the allocator picks the free one and restricts the allocation to
// the node.
func Example() {
	node := "node-1"
	slice := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "node-1-gpus"}, Spec: api.ResourceSliceSpec{
		Driver: "gpu.example.com", NodeName: &node,
		Pool:    api.ResourcePool{Name: "node-1", Generation: 1, ResourceSliceCount: 1},
		Devices: []api.Device{{Name: "gpu-0"}, {Name: "gpu-1"}},
	}}
	class := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}, Spec: api.DeviceClassSpec{
		Selectors: []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}}},
	}}
	held := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "other", Namespace: "ns"}, Status: api.ResourceClaimStatus{
		Allocation: &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
		}}},
	}}
	claim := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "train-gpu", Namespace: "ns"}, Spec: api.ResourceClaimSpec{
		Devices: api.DeviceClaim{Requests: []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{DeviceClassName: "gpu"}}}},
	}}
	dra.SetDefaults(&claim.Spec) // allocationMode ExactCount, count 1

	ctx := context.Background()
	a, err := dra.NewAllocator(ctx, dra.Input{
		Claims: []*api.ResourceClaim{claim}, Classes: []*api.DeviceClass{class}, Slices: []*api.ResourceSlice{slice},
		Allocated: dra.NewAllocatedState([]*api.ResourceClaim{held}),
		Compiler:  dragen.Compiler{}, // dra/cel in production
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	results, err := a.Allocate(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: node}})
	if err != nil || results == nil {
		fmt.Println("does not fit:", err)
		return
	}
	for _, r := range results[0].Devices.Results {
		fmt.Printf("%s: %s/%s/%s\n", r.Request, r.Driver, r.Pool, r.Device)
	}
	fmt.Println(results[0].NodeSelector.NodeSelectorTerms[0].MatchFields[0].Values)
	// Output:
	// gpu: gpu.example.com/node-1/gpu-1
	// [node-1]
}
