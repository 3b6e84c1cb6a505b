package resource

import "github.com/schedkit/schedkit/api"

// The scheduler's stand-ins for missing requests. For scoring (and for
// the non-zero totals it keeps per node), a container that does not
// request cpu or memory counts as requesting these amounts, so that pods
// without requests do not all pile onto one node.
const (
	// DefaultMilliCPURequest is 100m of cpu (0.1 core).
	DefaultMilliCPURequest int64 = 100
	// DefaultMemoryRequest is 200Mi of memory.
	DefaultMemoryRequest int64 = 200 * 1024 * 1024
)

// These lists are never written to: they are handed out as
// NonMissingContainerRequests only.
var (
	nonMissingBoth = api.ResourceList{
		api.ResourceCPU:    NewMilliQuantity(DefaultMilliCPURequest, DecimalSI),
		api.ResourceMemory: NewQuantity(DefaultMemoryRequest, DecimalSI),
	}
	nonMissingCPU    = api.ResourceList{api.ResourceCPU: nonMissingBoth[api.ResourceCPU]}
	nonMissingMemory = api.ResourceList{api.ResourceMemory: nonMissingBoth[api.ResourceMemory]}
)

// DefaultNonZeroRequests returns a new list of the scheduler's defaults:
// DefaultMilliCPURequest of cpu and DefaultMemoryRequest of memory. Pass
// it as PodResourcesOptions.NonMissingContainerRequests to count
// containers the way the scheduler's resource scorers do.
func DefaultNonZeroRequests() api.ResourceList { return Clone(nonMissingBoth) }

// NonMissingRequests returns the defaults the scheduler substitutes for a
// pod whose requests (from PodRequests) are requests: both defaults when
// the pod sets no pod-level requests; otherwise only those for cpu and
// memory that neither the containers nor the pod level request. The
// result may be empty; it must not be modified.
func NonMissingRequests(requests api.ResourceList, podLevelRequestsSet bool) api.ResourceList {
	if !podLevelRequestsSet {
		return nonMissingBoth
	}
	_, cpu := requests[api.ResourceCPU]
	_, mem := requests[api.ResourceMemory]
	return nonMissingFor(cpu, mem)
}

func nonMissingFor(cpuSet, memSet bool) api.ResourceList {
	switch {
	case !cpuSet && !memSet:
		return nonMissingBoth
	case !cpuSet:
		return nonMissingCPU
	case !memSet:
		return nonMissingMemory
	}
	return nil
}

// NonZeroRequests returns the pod's cpu (in millicores) and memory (in
// bytes) requests as the scheduler counts them for scoring and keeps in
// its per-node non-zero totals (PodInfo.CalculateResource's Non0CPU and
// Non0Mem): PodRequests with in-place resize status and overhead, where
// every container missing a cpu or memory request counts as requesting
// DefaultMilliCPURequest or DefaultMemoryRequest. With pod-level requests
// set, a default applies only to a resource that neither the pod level nor
// any container requests. NonZeroRequests allocates nothing.
func NonZeroRequests(pod *api.Pod) (milliCPU, memory int64) {
	if pod == nil {
		return 0, 0
	}
	opts := SchedulerOptions()
	cpu, cpuSet := podRequestKey(pod, api.ResourceCPU, &opts)
	mem, memSet := podRequestKey(pod, api.ResourceMemory, &opts)
	nm := nonMissingBoth
	if IsPodLevelRequestsSet(pod) {
		nm = nonMissingFor(cpuSet, memSet)
	}
	if len(nm) > 0 {
		opts.NonMissingContainerRequests = nm
		cpu, _ = podRequestKey(pod, api.ResourceCPU, &opts)
		mem, _ = podRequestKey(pod, api.ResourceMemory, &opts)
	}
	return cpu.MilliValue(), mem.Value()
}

// RequestQuantity returns the pod's request of name the way the kubelet
// ranks pods for eviction (GetResourceRequestQuantity): when the pod sets
// pod-level resources, only the pod-level request counts; otherwise the
// containers' (PodRequests without overhead). The overhead is then added
// if the request is not zero. A resource not requested is zero.
func RequestQuantity(pod *api.Pod, name api.ResourceName) Quantity {
	format := DecimalSI
	switch name {
	case api.ResourceMemory, api.ResourceStorage, api.ResourceEphemeralStorage:
		format = BinarySI
	}
	q := NewQuantity(0, format)
	if pod == nil {
		return q
	}
	opts := PodResourcesOptions{SkipContainerLevelResources: IsPodLevelResourcesSet(pod), ExcludeOverhead: true}
	if v, ok := podRequestKey(pod, name, &opts); ok {
		q.Add(v)
	}
	if v, ok := pod.Spec.Overhead[name]; ok && !q.IsZero() {
		q.Add(v)
	}
	return q
}

// Request returns RequestQuantity as an integer: millicores for cpu,
// units otherwise, and 1 for pods.
func Request(pod *api.Pod, name api.ResourceName) int64 {
	if name == api.ResourcePods {
		return 1
	}
	q := RequestQuantity(pod, name)
	if name == api.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

// Totals holds a pod's requests as integers, the way the scheduler's
// framework.Resource keeps them: cpu in millicores, memory and ephemeral
// storage in bytes, pods as a count, and other scalar resources (extended,
// huge pages, attachable volumes, kubernetes.io/ prefixed) in units.
// Quantities are rounded up once, after they are added up.
//
// A Totals can be reused: Set clears it first and then allocates nothing
// once its maps have grown to the pod's size.
type Totals struct {
	// MilliCPU is the cpu request in millicores.
	MilliCPU int64
	// Memory is the memory request in bytes.
	Memory int64
	// EphemeralStorage is the ephemeral-storage request in bytes.
	EphemeralStorage int64
	// Pods is the pods request (normally absent, so 0).
	Pods int64
	// Scalar holds the other scalar resources; it is nil until one is
	// set.
	Scalar map[api.ResourceName]int64

	scratch api.ResourceList
}

// Set replaces t with PodRequests(pod, opts) converted to integers.
// opts.Reuse is ignored: t keeps its own scratch list.
func (t *Totals) Set(pod *api.Pod, opts PodResourcesOptions) {
	if t.scratch == nil {
		t.scratch = make(api.ResourceList, 8)
	}
	opts.Reuse = t.scratch
	l := PodRequests(pod, opts)
	t.MilliCPU, t.Memory, t.EphemeralStorage, t.Pods = 0, 0, 0, 0
	clear(t.Scalar)
	for k, q := range l {
		switch k {
		case api.ResourceCPU:
			t.MilliCPU = q.MilliValue()
		case api.ResourceMemory:
			t.Memory = q.Value()
		case api.ResourceEphemeralStorage:
			t.EphemeralStorage = q.Value()
		case api.ResourcePods:
			t.Pods = q.Value()
		default:
			if IsScalarResourceName(k) {
				if t.Scalar == nil {
					t.Scalar = make(map[api.ResourceName]int64, 4)
				}
				t.Scalar[k] = q.Value()
			}
		}
	}
}
