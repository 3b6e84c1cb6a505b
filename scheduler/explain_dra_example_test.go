package scheduler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// Explain a pod with a ResourceClaim: the devices it would get on each
// feasible node and DynamicResources' reason elsewhere.
func ExampleScheduler_Explain_devices() {
	snap, _ := cluster.NewSnapshot([]*api.Node{
		node("gpu-1", "4", map[string]string{"kubernetes.io/hostname": "gpu-1"}),
		node("cpu-1", "4", map[string]string{"kubernetes.io/hostname": "cpu-1"}),
	}, nil)
	gpu := "gpu-1"
	slice := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "gpu-1-gpus"}, Spec: api.ResourceSliceSpec{
		Driver: "gpu.example.com", NodeName: &gpu, Pool: api.ResourcePool{Name: "gpu-1", ResourceSliceCount: 1},
		Devices: []api.Device{{Name: "gpu-0"}, {Name: "gpu-1"}}}}
	claim := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "train-gpu", Namespace: "default"}}
	claim.Spec.Devices.Requests = []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{
		DeviceClassName: "gpu", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}
	_ = snap.AddObjects(&api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}, slice, claim)

	s, _ := scheduler.New(snap)
	defer s.Close()
	p := pod("train", "1")
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "accel", ResourceClaimName: &claim.Name}}
	ex, _ := s.Explain(context.Background(), p)
	for _, n := range ex.Nodes {
		d := n.Devices
		if !d.Status.IsSuccess() {
			fmt.Printf("%s: %s\n", n.Name, d.Status.Message())
			continue
		}
		for _, c := range d.Claims {
			for _, r := range c.Devices {
				fmt.Printf("%s: %s %s → %s/%s/%s\n", n.Name, c.PodClaim, r.Request, r.Driver, r.Pool, r.Device)
			}
		}
	}
	// Output:
	// gpu-1: accel gpu → gpu.example.com/gpu-1/gpu-0
	// cpu-1: cannot allocate all claims
}
