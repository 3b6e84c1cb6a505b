package dynamicresources_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
)

type handle struct{ s *cluster.Snapshot }

func (h handle) Snapshot() *cluster.Snapshot { return h.s }

// A pod with one claim for a GPU: the node whose slice has the device
// fits, the other does not, and Allocations tells which device it gets.
func Example() {
	gpu, cpu := &api.Node{}, &api.Node{}
	gpu.Name, cpu.Name = "gpu-node", "cpu-node"
	snap, _ := cluster.NewSnapshot([]*api.Node{cpu, gpu}, nil)
	class := &api.DeviceClass{}
	class.Name = "gpu"
	slice := &api.ResourceSlice{}
	slice.Name = "gpu-node-slice"
	slice.Spec = api.ResourceSliceSpec{Driver: "gpu.example.com", NodeName: &gpu.Name,
		Pool: api.ResourcePool{Name: "gpu-node", ResourceSliceCount: 1}, Devices: []api.Device{{Name: "gpu-0"}}}
	claim := &api.ResourceClaim{}
	claim.Name, claim.Namespace = "train", "default"
	claim.Spec.Devices.Requests = []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{
		DeviceClassName: "gpu", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}
	_ = snap.AddObjects(class, slice, claim)

	pl, _ := dynamicresources.New(nil, handle{snap})
	dr := pl.(*dynamicresources.DynamicResources)
	pod := &api.Pod{}
	pod.Name, pod.Namespace = "trainer", "default"
	pod.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: &claim.Name}}

	ctx := context.Background()
	cs := framework.NewCycleState()
	dr.PreFilter(ctx, cs, pod, nil)
	for _, ni := range snap.View().Nodes() {
		fmt.Println(ni.Node().Name, dr.Filter(ctx, cs, pod, ni))
	}
	_, results, _ := dynamicresources.Allocations(cs, "gpu-node")
	r := results[0].Devices.Results[0]
	fmt.Println(r.Request, r.Driver, r.Pool, r.Device)
	// Output:
	// cpu-node UnschedulableAndUnresolvable: cannot allocate all claims
	// gpu-node Success
	// gpu gpu.example.com gpu-node gpu-0
}
