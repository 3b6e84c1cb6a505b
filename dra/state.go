package dra

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// DeviceID names one device: its driver, pool and name in the pool.
type DeviceID struct {
	// Driver of the device.
	Driver string
	// Pool of the device.
	Pool string
	// Device name in the pool.
	Device string
}

// String is "driver/pool/device", as upstream prints a device.
func (d DeviceID) String() string { return d.Driver + "/" + d.Pool + "/" + d.Device }

// SharedDeviceID names one allocation of a device that allows multiple
// allocations: the device and the allocation's share ID.
type SharedDeviceID struct {
	// DeviceID is the device.
	DeviceID
	// ShareID tells the allocation apart.
	ShareID string
}

// ConsumedCapacity is an amount per capacity name.
type ConsumedCapacity map[api.QualifiedName]quantity.Quantity

// AllocatedState is what the claims already allocated in the cluster hold:
// the devices they own outright, the shares of devices that allow multiple
// allocations, and the capacity those shares consume. A device in Devices
// is unavailable to other claims; a shared device stays available while
// its capacity lasts.
type AllocatedState struct {
	// Devices allocated outright.
	Devices map[DeviceID]struct{}
	// SharedDevices are the shares of multi-allocation devices.
	SharedDevices map[SharedDeviceID]struct{}
	// Capacity is the capacity the shares consume, summed per device.
	Capacity map[DeviceID]ConsumedCapacity
}

// NewAllocatedState collects the devices of the allocated claims, as
// kube-scheduler's DynamicResources plugin does: results with admin access
// do not count, a result with a share ID is a share whose consumed
// capacity adds up per device, any other result holds its device.
func NewAllocatedState(claims []*api.ResourceClaim) *AllocatedState {
	s := &AllocatedState{
		Devices:       map[DeviceID]struct{}{},
		SharedDevices: map[SharedDeviceID]struct{}{},
		Capacity:      map[DeviceID]ConsumedCapacity{},
	}
	for _, c := range claims {
		s.Add(c)
	}
	return s
}

// Add records the devices of one claim's allocation (none if it has
// none).
func (s *AllocatedState) Add(claim *api.ResourceClaim) {
	if claim == nil || claim.Status.Allocation == nil {
		return
	}
	for _, r := range claim.Status.Allocation.Devices.Results {
		if r.AdminAccess != nil && *r.AdminAccess {
			continue
		}
		id := DeviceID{r.Driver, r.Pool, r.Device}
		if r.ShareID != nil {
			s.SharedDevices[SharedDeviceID{id, *r.ShareID}] = struct{}{}
			if r.ConsumedCapacity != nil {
				cc := s.Capacity[id]
				if cc == nil {
					cc = ConsumedCapacity{}
					s.Capacity[id] = cc
				}
				for name, q := range r.ConsumedCapacity {
					sum := cc[name]
					sum.Add(q)
					cc[name] = sum
				}
			}
			continue
		}
		s.Devices[id] = struct{}{}
	}
}

// Selector is a compiled CEL device selector. Package dra/cel provides
// the Kubernetes one; tests may use any other.
type Selector interface {
	// Matches evaluates the selector for a device of the driver. A
	// runtime error is returned as is: it aborts the allocation.
	Matches(ctx context.Context, driver string, device *api.Device) (bool, error)
}

// Compiler compiles device selector expressions.
type Compiler interface {
	// Compile compiles one expression. A compile error is reported by
	// Allocate when a device is first checked against the selector, as
	// upstream compiles on first use.
	Compile(expression string) (Selector, error)
}
