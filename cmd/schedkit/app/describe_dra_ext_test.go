package app

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestDescribeExtendedResourceClaim: describe lists the claim of a pod's
// status.extendedResourceClaimStatus after its own entries, with its
// devices.
func TestDescribeExtendedResourceClaim(t *testing.T) {
	snap, err := cluster.NewSnapshot(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "p-extended-resources-bcdfg", Namespace: "default"}}
	c.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
		{Request: "container-0-request-0", Driver: "gpu.example.com", Pool: "n1", Device: "gpu-0"}}}}
	if err := snap.AddObjects(c); err != nil {
		t.Fatal(err)
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	p.Status.ExtendedResourceClaimStatus = &api.PodExtendedResourceClaimStatus{ResourceClaimName: c.Name,
		RequestMappings: []api.ContainerExtendedResourceRequest{{ContainerName: "main", ResourceName: "example.com/gpu", RequestName: "container-0-request-0"}}}
	got := describeClaims(snap.Objects(), p)
	if len(got) != 1 || got[0].Name != extendedClaimEntry || got[0].ResourceClaim != c.Name ||
		len(got[0].Allocation) != 1 || got[0].Allocation[0] != "gpu.example.com/n1/gpu-0" {
		t.Errorf("got %+v", got)
	}
}
