package dra

import "github.com/schedkit/schedkit/api"

// SetDefaults applies the API server's defaults to a claim spec, as a
// claim read from a manifest (rather than from a dump of a cluster) has
// not had them: allocationMode ExactCount, count 1 for ExactCount, and
// toleration operator Equal, for requests and subrequests. Call it before
// NewAllocator; the allocator, as upstream's, rejects an empty mode.
func SetDefaults(spec *api.ResourceClaimSpec) {
	tols := func(ts []api.DeviceToleration) {
		for i := range ts {
			if ts[i].Operator == "" {
				ts[i].Operator = api.DeviceTolerationOpEqual
			}
		}
	}
	mode := func(m *api.DeviceAllocationMode, count *int64) {
		if *m == "" {
			*m = api.DeviceAllocationModeExactCount
		}
		if *m == api.DeviceAllocationModeExactCount && *count == 0 {
			*count = 1
		}
	}
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		if x := r.Exactly; x != nil {
			mode(&x.AllocationMode, &x.Count)
			tols(x.Tolerations)
		}
		for j := range r.FirstAvailable {
			s := &r.FirstAvailable[j]
			mode(&s.AllocationMode, &s.Count)
			tols(s.Tolerations)
		}
	}
}
