package predicates

import (
	"math"
	"strings"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

// Reasons of the NodeResourcesFit filter, as upstream's.
const (
	// ErrReasonTooManyPods is the reason when the node has no room for
	// another pod.
	ErrReasonTooManyPods = "Too many pods"
	// ErrReasonInsufficientPrefix starts the reason for every other
	// resource: "Insufficient cpu", "Insufficient nvidia.com/gpu", ...
	ErrReasonInsufficientPrefix = "Insufficient "
)

// InsufficientResource is one resource a node lacks for a pod, as
// upstream's noderesources.InsufficientResource.
type InsufficientResource struct {
	// ResourceName is the resource: pods, cpu, memory, ephemeral-storage
	// or a scalar resource.
	ResourceName api.ResourceName
	// Reason is the human-readable reason, such as "Insufficient cpu".
	Reason string
	// Requested is what the pod asks for (1 for pods).
	Requested int64
	// Used is what the node's pods already request.
	Used int64
	// Capacity is the node's allocatable amount.
	Capacity int64
	// Unresolvable is true when the pod asks for more than the node's
	// allocatable amount, so no preemption can help ("Too many pods" is
	// never unresolvable).
	Unresolvable bool
}

// PodFitRequest returns what NodeResourcesFit checks a pod against: the
// pod's requests from its spec (containers, init containers and sidecars,
// pod-level resources, overhead; in-place resize status is not used), in
// scheduler units, each at least zero. This is upstream's
// computePodResourceRequest with pod-level resources enabled.
func PodFitRequest(pod *api.Pod) cluster.Resource {
	if req, ok := cluster.ContainerRequests(pod); ok {
		// The common pod: the same sums, without a list.
		return fitRequest(req)
	}
	return podFitRequestList(pod)
}

// podFitRequestList is PodFitRequest through resource.PodRequests' list,
// for every pod.
func podFitRequestList(pod *api.Pod) cluster.Resource {
	scratch := requestLists.Get().(*api.ResourceList)
	r := fitRequest(cluster.ResourceFromList(resource.PodRequests(pod, resource.PodResourcesOptions{Reuse: *scratch})))
	clear(*scratch)
	requestLists.Put(scratch)
	return r
}

// fitRequest is what NodeResourcesFit checks of the pod's requests req:
// each at least zero, and no pod count (upstream's SetMaxResource
// ignores pods).
func fitRequest(req cluster.Resource) cluster.Resource {
	var r cluster.Resource
	r.SetMax(req)
	r.AllowedPodNumber = 0
	return r
}

// requestLists holds lists PodFitRequest reuses for the pod's requests.
var requestLists = sync.Pool{New: func() any {
	l := make(api.ResourceList, 8)
	return &l
}}

// Fits returns the resources nodeInfo lacks for pod, in upstream's order:
// pods, cpu, memory, ephemeral-storage, then scalar resources (sorted by
// name; upstream iterates a map). Nothing is ignored. An empty result
// means the pod fits.
func Fits(pod *api.Pod, nodeInfo *cluster.NodeInfo) []InsufficientResource {
	req := PodFitRequest(pod)
	return FitsRequest(&req, nodeInfo, nil, nil)
}

// FitsRequest returns the resources nodeInfo lacks for a pod requesting
// podRequest (see PodFitRequest). Extended resources named in
// ignoredResources, or whose group (the part before '/') is in
// ignoredResourceGroups, are not checked. The result is never nil.
func FitsRequest(podRequest *cluster.Resource, nodeInfo *cluster.NodeInfo, ignoredResources, ignoredResourceGroups []string) []InsufficientResource {
	ig := NewIgnoreSet(ignoredResources, ignoredResourceGroups)
	out := make([]InsufficientResource, 0, 4)
	fitsRequest(podRequest, ig.Filter(podRequest.Scalars), nodeInfo, &out)
	return out
}

// NodeResourcesFit is the NodeResourcesFit filter as a plain function, with
// nothing ignored: nil if the pod fits, else a status with one reason per
// insufficient resource, Unschedulable or, when any request exceeds the
// node's allocatable amount, UnschedulableAndUnresolvable.
func NodeResourcesFit(pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	req := PodFitRequest(pod)
	return FitStatus(&req, req.Scalars, nodeInfo)
}

// Bits of the fixed-reason failures, in upstream's order.
const (
	failPods = 1 << iota
	failCPU
	failMemory
	failEphemeral
	failUnresolvable
	failMax
)

// fixedFitStatuses holds a shared status for every combination of the
// fixed reasons, so the common rejections allocate nothing.
var fixedFitStatuses = func() (s [failMax]*framework.Status) {
	for m := 1; m < failMax; m++ {
		var reasons []string
		for _, f := range []struct {
			bit    int
			reason string
		}{
			{failPods, ErrReasonTooManyPods},
			{failCPU, ErrReasonInsufficientPrefix + string(api.ResourceCPU)},
			{failMemory, ErrReasonInsufficientPrefix + string(api.ResourceMemory)},
			{failEphemeral, ErrReasonInsufficientPrefix + string(api.ResourceEphemeralStorage)},
		} {
			if m&f.bit != 0 {
				reasons = append(reasons, f.reason)
			}
		}
		if len(reasons) == 0 {
			continue
		}
		code := framework.Unschedulable
		if m&failUnresolvable != 0 {
			code = framework.UnschedulableAndUnresolvable
		}
		s[m] = framework.NewStatus(code, reasons...)
	}
	return s
}()

// The reasons for cpu, memory and ephemeral-storage.
const (
	reasonCPU       = ErrReasonInsufficientPrefix + string(api.ResourceCPU)
	reasonMemory    = ErrReasonInsufficientPrefix + string(api.ResourceMemory)
	reasonEphemeral = ErrReasonInsufficientPrefix + string(api.ResourceEphemeralStorage)
)

// FitStatus checks req (with checked, its scalars that are not ignored)
// against nodeInfo. It allocates only when a scalar resource is short.
func FitStatus(req *cluster.Resource, checked []cluster.Scalar, nodeInfo *cluster.NodeInfo) *framework.Status {
	mask, scalarShort := fitsRequest(req, checked, nodeInfo, nil)
	if !scalarShort {
		if mask == 0 {
			return nil
		}
		return fixedFitStatuses[mask]
	}
	out := make([]InsufficientResource, 0, 4)
	fitsRequest(req, checked, nodeInfo, &out)
	reasons := make([]string, len(out))
	code := framework.Unschedulable
	for i, r := range out {
		reasons[i] = r.Reason
		if r.Unresolvable {
			code = framework.UnschedulableAndUnresolvable
		}
	}
	return framework.NewStatus(code, reasons...)
}

// fitsRequest is upstream's fitsRequest: it returns the fixed-reason
// failures as a mask and whether a scalar resource is short, and, when out
// is not nil, appends every insufficient resource to it. checked holds the
// request's scalars that are not ignored. It allocates nothing when out is
// nil.
func fitsRequest(req *cluster.Resource, checked []cluster.Scalar, nodeInfo *cluster.NodeInfo, out *[]InsufficientResource) (mask int, scalarShort bool) {
	alloc, used := &nodeInfo.Allocatable, &nodeInfo.Requested
	if n := int64(nodeInfo.NumPods()); n+1 > alloc.AllowedPodNumber {
		mask |= failPods
		if out != nil {
			*out = append(*out, InsufficientResource{
				ResourceName: api.ResourcePods, Reason: ErrReasonTooManyPods,
				Requested: 1, Used: n, Capacity: alloc.AllowedPodNumber,
			})
		}
	}
	if req.MilliCPU == 0 && req.Memory == 0 && req.EphemeralStorage == 0 && len(req.Scalars) == 0 {
		return mask, false
	}
	// The common case, nothing short, costs three comparisons; the
	// list is built only when out is given and something is short.
	if b := shortBit(failCPU, req.MilliCPU, used.MilliCPU, alloc.MilliCPU); b != 0 {
		mask |= b
		appendShort(out, api.ResourceCPU, reasonCPU, req.MilliCPU, used.MilliCPU, alloc.MilliCPU)
	}
	if b := shortBit(failMemory, req.Memory, used.Memory, alloc.Memory); b != 0 {
		mask |= b
		appendShort(out, api.ResourceMemory, reasonMemory, req.Memory, used.Memory, alloc.Memory)
	}
	if b := shortBit(failEphemeral, req.EphemeralStorage, used.EphemeralStorage, alloc.EphemeralStorage); b != 0 {
		mask |= b
		appendShort(out, api.ResourceEphemeralStorage, reasonEphemeral, req.EphemeralStorage, used.EphemeralStorage, alloc.EphemeralStorage)
	}
	for _, s := range checked {
		if s.Value <= 0 {
			continue
		}
		c, u := alloc.Scalar(s.Name), used.Scalar(s.Name)
		if s.Value > c-u {
			scalarShort = true
			if out != nil {
				*out = append(*out, InsufficientResource{
					ResourceName: s.Name, Reason: ErrReasonInsufficientPrefix + string(s.Name),
					Requested: s.Value, Used: u, Capacity: c, Unresolvable: s.Value > c,
				})
			}
		}
	}
	return mask, scalarShort
}

// shortBit returns bit, with failUnresolvable when the request exceeds
// the capacity, if a positive request r does not fit capacity c with u
// used; 0 if it fits.
func shortBit(bit int, r, u, c int64) int {
	if r <= 0 || r <= c-u {
		return 0
	}
	if r > c {
		return bit | failUnresolvable
	}
	return bit
}

// appendShort appends an insufficient resource to out, if out is given.
func appendShort(out *[]InsufficientResource, name api.ResourceName, reason string, r, u, c int64) {
	if out != nil {
		*out = append(*out, InsufficientResource{ResourceName: name, Reason: reason, Requested: r, Used: u, Capacity: c, Unresolvable: r > c})
	}
}

// IgnoreSet is the NodeResourcesFit ignoredResources and
// ignoredResourceGroups.
type IgnoreSet struct {
	resources map[string]struct{}
	groups    map[string]struct{}
}

// NewIgnoreSet returns the set of ignored resources and resource groups
// of NodeResourcesFitArgs.
func NewIgnoreSet(resources, groups []string) IgnoreSet {
	var ig IgnoreSet
	if len(resources) > 0 {
		ig.resources = make(map[string]struct{}, len(resources))
		for _, r := range resources {
			ig.resources[r] = struct{}{}
		}
	}
	if len(groups) > 0 {
		ig.groups = make(map[string]struct{}, len(groups))
		for _, g := range groups {
			ig.groups[g] = struct{}{}
		}
	}
	return ig
}

// ignored reports whether the filter skips name: an extended resource
// named in the ignored resources or in an ignored group.
func (ig IgnoreSet) ignored(name api.ResourceName) bool {
	if len(ig.resources) == 0 && len(ig.groups) == 0 {
		return false
	}
	if !resource.IsExtendedResourceName(name) {
		return false
	}
	if _, ok := ig.resources[string(name)]; ok {
		return true
	}
	if len(ig.groups) > 0 {
		group, _, _ := strings.Cut(string(name), "/")
		if _, ok := ig.groups[group]; ok {
			return true
		}
	}
	return false
}

// Filter returns the scalars that are not ignored; scalars itself when
// none is.
func (ig IgnoreSet) Filter(scalars []cluster.Scalar) []cluster.Scalar {
	if len(ig.resources) == 0 && len(ig.groups) == 0 {
		return scalars
	}
	var out []cluster.Scalar
	for i, s := range scalars {
		if ig.ignored(s.Name) {
			if out == nil {
				out = append(make([]cluster.Scalar, 0, len(scalars)), scalars[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, s)
		}
	}
	if out == nil {
		return scalars
	}
	return out
}

// fitBound is a fixed request as FilterNodes compares it with a node's
// room: r when positive, else the lowest int64, which no room is below.
func fitBound(r int64) int64 {
	if r <= 0 {
		return math.MinInt64
	}
	return r
}

// FitStatuses sets statuses[i] to FitStatus(req, checked, nodes[i]) for
// every node. statuses has len(nodes) entries, all nil on entry, and a
// node that fits is not written.
func FitStatuses(req *cluster.Resource, checked []cluster.Scalar, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	if len(checked) > 0 {
		for i, ni := range nodes {
			statuses[i] = FitStatus(req, checked, ni)
		}
		return
	}
	// No scalar to check: a node fits when it has room for one more pod
	// and for each of the three fixed requests, which one comparison
	// each tells (a request of 0 or less is compared as the lowest
	// int64, which fits any room, as shortBit skips it); only a node
	// that does not fit calls FitStatus for its reasons. statuses are
	// nil on entry, so a node that fits is not written.
	rc, rm, re := fitBound(req.MilliCPU), fitBound(req.Memory), fitBound(req.EphemeralStorage)
	for i, ni := range nodes {
		alloc, used := &ni.Allocatable, &ni.Requested
		if int64(ni.NumPods())+1 > alloc.AllowedPodNumber ||
			rc > alloc.MilliCPU-used.MilliCPU || rm > alloc.Memory-used.Memory || re > alloc.EphemeralStorage-used.EphemeralStorage {
			statuses[i] = FitStatus(req, nil, ni)
		}
	}
}
