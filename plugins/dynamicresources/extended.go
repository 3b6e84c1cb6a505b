package dynamicresources

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

// specialClaimName is upstream's name of the extended resource claim
// before it is written: not a valid object name, so it names no real
// claim.
const specialClaimName = "<extended-resources>"

// extResource is one extended resource the pod requests that a
// DeviceClass may back.
type extResource struct {
	name api.ResourceName
	// mapped: a DeviceClass backs it.
	mapped bool
}

// extState is the pod's extended resources backed by DRA (upstream's
// DRAExtendedResource, GA and locked on in v1.37.2).
type extState struct {
	pod       *api.Pod
	resources []extResource // by name
	classes   map[api.ResourceName]*api.DeviceClass
	// base is the allocator input without the extended resource claim:
	// its Claims are the user claims to allocate.
	base dra.Input
	// variants are, under stateData.mu, the claims and allocators per
	// set of delegated resources (a bit per resources entry).
	variants map[uint64]*extVariant
}

// extVariant is the extended resource claim as a set of nodes needs it:
// the resources delegated to DRA there.
type extVariant struct {
	// claim is the claim with the node's requests; nil when nothing is
	// delegated (the claim then stays without requests).
	claim     *api.ResourceClaim
	mappings  []api.ContainerExtendedResourceRequest
	allocator *dra.Allocator
	err       error
}

// extendedResourceClasses returns the extended resource mapping of the
// snapshot's DeviceClasses.
func extendedResourceClasses(o *cluster.Objects) map[api.ResourceName]*api.DeviceClass {
	if o == nil || o.Len(cluster.KindDeviceClass) == 0 {
		return nil
	}
	var classes []*api.DeviceClass
	for c := range cluster.AllObjects[api.DeviceClass](o) {
		classes = append(classes, c)
	}
	return dra.ExtendedResourceClasses(classes)
}

// requestsDRAScalar reports whether a container of pod requests a
// resource a DeviceClass could back, before the classes are read.
func requestsDRAScalar(pod *api.Pod) bool {
	for _, cs := range [2][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			for name := range cs[i].Resources.Requests {
				if dra.IsDRAExtendedResourceName(name) {
					return true
				}
			}
		}
	}
	for name := range pod.Spec.Overhead {
		if dra.IsDRAExtendedResourceName(name) {
			return true
		}
	}
	return false
}

// extendedClasses is extendedResourceClasses of o, built once per
// version of its DeviceClasses.
func (pl *DynamicResources) extendedClasses(o *cluster.Objects) map[api.ResourceName]*api.DeviceClass {
	k := classesKey{o, o.KindGeneration(cluster.KindDeviceClass)}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.classes == nil || pl.classesKey != k {
		pl.classes, pl.classesKey = extendedResourceClasses(o), k
	}
	return pl.classes
}

// classesKey names a version of a store's DeviceClasses.
type classesKey struct {
	o   *cluster.Objects
	gen int64
}

// draScalars returns, by name, the DRA extended resources pod requests
// (upstream counts the pod's requests without status resources), and
// whether a DeviceClass backs one of them with a nonzero request.
func draScalars(pod *api.Pod, classes map[api.ResourceName]*api.DeviceClass) ([]extResource, bool) {
	var out []extResource
	any := false
	for name, q := range resource.PodRequests(pod, resource.PodResourcesOptions{}) {
		if !resource.IsScalarResourceName(name) || !dra.IsDRAExtendedResourceName(name) || q.Value() == 0 {
			continue
		}
		_, mapped := classes[name]
		any = any || mapped
		out = append(out, extResource{name: name, mapped: mapped})
	}
	slices.SortFunc(out, func(a, b extResource) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
	return out, any
}

// preFilterExtended returns the extended resource claim of pod and its
// state, or nil when no DeviceClass backs a resource the pod requests:
// the claim made for the pod in an earlier cycle (annotated, the pod its
// controller) or a new one without requests, named specialClaimName.
func (pl *DynamicResources) preFilterExtended(o *cluster.Objects, pod *api.Pod) (*api.ResourceClaim, *extState) {
	if o == nil || o.Len(cluster.KindDeviceClass) == 0 || !requestsDRAScalar(pod) {
		return nil, nil
	}
	classes := pl.extendedClasses(o)
	if len(classes) == 0 {
		return nil, nil
	}
	res, any := draScalars(pod, classes)
	if !any {
		return nil, nil
	}
	ext := &extState{pod: pod, resources: res, classes: classes, variants: map[uint64]*extVariant{}}
	if c := pl.findExtendedClaim(o, pod); c != nil {
		return c, ext
	}
	c := &api.ResourceClaim{}
	c.Namespace = pod.Namespace
	c.Name = specialClaimName
	c.UID = string(pod.UID) + "-extended-resources"
	c.GenerateName = pod.Name + "-extended-resources-"
	c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID, Controller: ptrTo(true)}}
	c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
	return c, ext
}

// filterExtended decides the extended resource claim on node: which
// resources DRA provides there (backed by a class, none allocatable),
// returned as a bit set; an UnschedulableAndUnresolvable status when the
// claim is from an earlier cycle ("cannot schedule extended resource
// claim") or a resource is neither allocatable nor backed ("cannot fit
// resource").
func (s *stateData) filterExtended(node *api.Node, ni *cluster.NodeInfo) (uint64, *framework.Status) {
	claim := s.extClaim()
	if claim.Spec.Devices.Requests != nil {
		return 0, unresolvable("cannot schedule extended resource claim")
	}
	var mask uint64
	for i, r := range s.ext.resources {
		_, present := node.Status.Allocatable[r.name]
		switch {
		case r.mapped && ni.Allocatable.Scalar(r.name) == 0:
			mask |= 1 << i
		case !present:
			return 0, unresolvable("cannot fit resource")
		}
	}
	return mask, nil
}

// variant returns the extended resource claim and allocator for the
// resources of mask, building them once.
func (s *stateData) variant(ctx context.Context, mask uint64) *extVariant {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.ext.variants[mask]; ok {
		return v
	}
	v := &extVariant{}
	claim := s.extClaim()
	if mask != 0 {
		var names []api.ResourceName
		for i, r := range s.ext.resources {
			if mask&(1<<i) != 0 {
				names = append(names, r.name)
			}
		}
		cp := *claim
		reqs, mappings := dra.ExtendedRequests(s.ext.pod, names, func(n api.ResourceName) *api.DeviceClass { return s.ext.classes[n] })
		cp.Spec.Devices.Requests = reqs
		v.claim, v.mappings = &cp, mappings
		claim = &cp
	}
	if claim.Status.Allocation == nil {
		in := s.ext.base
		in.Claims = append(slices.Clone(in.Claims), claim)
		v.allocator, v.err = dra.NewAllocator(ctx, in)
	}
	s.ext.variants[mask] = v
	return v
}

// generatedName is the name and UID Reserve gives the extended resource
// claim made for pod: upstream's API server appends five random
// characters to pod-name-extended-resources-; schedkit derives them
// from the pod so that a run is reproducible.
func generatedName(pod *api.Pod) (name, uid string) {
	base := pod.Name + "-extended-resources-"
	if len(base) > 58 {
		base = base[:58]
	}
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%s/%s/%s", pod.Namespace, pod.Name, pod.UID)
	sum := h.Sum64()
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = alphabet[sum%uint64(len(alphabet))]
		sum /= uint64(len(alphabet))
	}
	h.Write([]byte("uid"))
	u := h.Sum64()
	uid = fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(u>>32), uint16(u>>16), uint16(u)&0xfff, uint16(u>>4)&0xfff, u&0xffffffffffff)
	return base + string(suffix), uid
}

func ptrTo[T any](v T) *T { return &v }
