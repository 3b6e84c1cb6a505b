package dra

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestSetDefaults pins SetDefaults_ExactDeviceRequest,
// SetDefaults_DeviceSubRequest and the toleration operator default of
// k8s.io/kubernetes pkg/apis/resource/v1 (defaults.go and
// zz_generated.defaults.go).
func TestSetDefaults(t *testing.T) {
	spec := api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: []api.DeviceRequest{
		{Name: "a", Exactly: &api.ExactDeviceRequest{DeviceClassName: "c", Tolerations: []api.DeviceToleration{{Key: "k"}}}},
		{Name: "b", Exactly: &api.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: api.DeviceAllocationModeAll}},
		{Name: "c", FirstAvailable: []api.DeviceSubRequest{{Name: "x", DeviceClassName: "c", Count: 3}, {Name: "y", DeviceClassName: "c"}}},
	}}}
	SetDefaults(&spec)
	r := spec.Devices.Requests
	if x := r[0].Exactly; x.AllocationMode != api.DeviceAllocationModeExactCount || x.Count != 1 || x.Tolerations[0].Operator != api.DeviceTolerationOpEqual {
		t.Errorf("exact: %+v", x)
	}
	if x := r[1].Exactly; x.AllocationMode != api.DeviceAllocationModeAll || x.Count != 0 {
		t.Errorf("all: %+v", x)
	}
	if s := r[2].FirstAvailable; s[0].Count != 3 || s[1].Count != 1 || s[1].AllocationMode != api.DeviceAllocationModeExactCount {
		t.Errorf("subrequests: %+v", s)
	}
}
