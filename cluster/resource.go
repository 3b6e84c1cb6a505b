package cluster

import (
	"math"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// ResourceFromList converts a resource list to scheduler units: cpu in
// millicores (MilliValue), memory, ephemeral-storage and pods with Value,
// and every scalar resource with Value. As upstream's Resource.Add, names
// that are neither of the four nor scalar resources
// (resource.IsScalarResourceName: extended, huge pages, kubernetes.io/
// prefixed, attachable volumes), such as "storage", are ignored. Zero scalar quantities are not stored.
func ResourceFromList(l api.ResourceList) Resource {
	var r Resource
	for name, q := range l {
		switch name {
		case api.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case api.ResourceMemory:
			r.Memory += q.Value()
		case api.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case api.ResourcePods:
			r.AllowedPodNumber += q.Value()
		default:
			if resource.IsScalarResourceName(name) {
				r.AddScalar(name, q.Value())
			}
		}
	}
	return r
}

// Get returns the amount of the named resource in scheduler units; cpu
// is in millicores.
func (r Resource) Get(name api.ResourceName) int64 {
	switch name {
	case api.ResourceCPU:
		return r.MilliCPU
	case api.ResourceMemory:
		return r.Memory
	case api.ResourceEphemeralStorage:
		return r.EphemeralStorage
	case api.ResourcePods:
		return r.AllowedPodNumber
	}
	if i, ok := r.scalarIndex(name); ok {
		return r.Scalars[i].Value
	}
	return 0
}

// Scalar returns the value of a scalar resource, or 0.
func (r Resource) Scalar(name api.ResourceName) int64 {
	if i, ok := r.scalarIndex(name); ok {
		return r.Scalars[i].Value
	}
	return 0
}

// scalarIndex finds name in the sorted Scalars: its index and true, or
// the insertion index and false. Scalars are few, so the search is linear.
func (r Resource) scalarIndex(name api.ResourceName) (int, bool) {
	for i := range r.Scalars {
		switch {
		case r.Scalars[i].Name == name:
			return i, true
		case r.Scalars[i].Name > name:
			return i, false
		}
	}
	return len(r.Scalars), false
}

// AddScalar adds v to the named scalar resource, dropping the entry if
// it reaches zero.
func (r *Resource) AddScalar(name api.ResourceName, v int64) {
	if v == 0 {
		return
	}
	i, ok := r.scalarIndex(name)
	if ok {
		r.Scalars[i].Value += v
		if r.Scalars[i].Value == 0 {
			r.Scalars = append(r.Scalars[:i], r.Scalars[i+1:]...)
			if len(r.Scalars) == 0 {
				r.Scalars = nil
			}
		}
		return
	}
	r.Scalars = append(r.Scalars, Scalar{})
	copy(r.Scalars[i+1:], r.Scalars[i:])
	r.Scalars[i] = Scalar{Name: name, Value: v}
}

// SetScalar sets the named scalar resource to v; zero removes it.
func (r *Resource) SetScalar(name api.ResourceName, v int64) {
	r.AddScalar(name, v-r.Scalar(name))
}

// Add adds o to r, field by field and scalar by scalar.
func (r *Resource) Add(o Resource) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.EphemeralStorage += o.EphemeralStorage
	r.AllowedPodNumber += o.AllowedPodNumber
	for _, s := range o.Scalars {
		r.AddScalar(s.Name, s.Value)
	}
}

// Sub subtracts o from r, field by field and scalar by scalar.
func (r *Resource) Sub(o Resource) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.EphemeralStorage -= o.EphemeralStorage
	r.AllowedPodNumber -= o.AllowedPodNumber
	for _, s := range o.Scalars {
		r.AddScalar(s.Name, -s.Value)
	}
}

// SetMax raises each amount of r to at least the amount in o.
func (r *Resource) SetMax(o Resource) {
	r.MilliCPU = max(r.MilliCPU, o.MilliCPU)
	r.Memory = max(r.Memory, o.Memory)
	r.EphemeralStorage = max(r.EphemeralStorage, o.EphemeralStorage)
	r.AllowedPodNumber = max(r.AllowedPodNumber, o.AllowedPodNumber)
	for _, s := range o.Scalars {
		if cur := r.Scalar(s.Name); s.Value > cur {
			r.AddScalar(s.Name, s.Value-cur)
		}
	}
}

// Clone returns a copy of r that shares no memory with it.
func (r Resource) Clone() Resource {
	if len(r.Scalars) > 0 {
		r.Scalars = append([]Scalar(nil), r.Scalars...)
	} else {
		r.Scalars = nil
	}
	return r
}

// IsZero reports whether every amount is zero.
func (r Resource) IsZero() bool {
	return r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 &&
		r.AllowedPodNumber == 0 && len(r.Scalars) == 0
}

// Equal reports whether r and o hold the same amounts.
func (r Resource) Equal(o Resource) bool {
	if r.MilliCPU != o.MilliCPU || r.Memory != o.Memory ||
		r.EphemeralStorage != o.EphemeralStorage || r.AllowedPodNumber != o.AllowedPodNumber ||
		len(r.Scalars) != len(o.Scalars) {
		return false
	}
	for i := range r.Scalars {
		if r.Scalars[i] != o.Scalars[i] {
			return false
		}
	}
	return true
}

// addOverflows reports whether r+o overflows int64 in any amount.
func (r Resource) addOverflows(o Resource) bool {
	if addOverflows(r.MilliCPU, o.MilliCPU) || addOverflows(r.Memory, o.Memory) ||
		addOverflows(r.EphemeralStorage, o.EphemeralStorage) ||
		addOverflows(r.AllowedPodNumber, o.AllowedPodNumber) {
		return true
	}
	for _, s := range o.Scalars {
		if addOverflows(r.Scalar(s.Name), s.Value) {
			return true
		}
	}
	return false
}

func addOverflows(a, b int64) bool {
	if b > 0 {
		return a > math.MaxInt64-b
	}
	return a < math.MinInt64-b
}
