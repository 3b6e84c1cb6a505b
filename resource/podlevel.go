package resource

import "github.com/schedkit/schedkit/api"

// DefaultPodLevelResources is the API server's pod-level resource
// defaulting on create (k8s.io/kubernetes pkg/api/pod
// DefaultPodLevelResources, run by the pod strategy's PrepareForCreate in
// v1.37, where PodLevelResources and PodLevelResourcesFixDefaulting are
// on), in place. It acts only on a pod that sets pod-level requests or
// limits; then, over the containers' aggregated resources (as
// AggregateContainerRequests and AggregateContainerLimits count them):
//
//  1. a huge page limit the containers set, with no pod-level request or
//     limit of its own, becomes the pod-level limit;
//  2. pod-level requests default to the containers' aggregated requests
//     for cpu and memory, then to the pod-level limit for every supported
//     resource (cpu, memory, huge pages) still without a request;
//  3. a supported resource with a pod-level request and no pod-level
//     limit gets as limit the containers' aggregated limit when every
//     container (init containers and sidecars included) sets one, raised
//     to the request if that is higher.
func DefaultPodLevelResources(p *api.Pod) {
	r := p.Spec.Resources
	if r == nil || (len(r.Requests) == 0 && len(r.Limits) == 0) {
		return
	}
	ctrs := &api.Pod{Spec: api.PodSpec{Containers: p.Spec.Containers, InitContainers: p.Spec.InitContainers}}
	aggLimits := AggregateContainerLimits(ctrs, PodResourcesOptions{})
	aggReqs := AggregateContainerRequests(ctrs, PodResourcesOptions{})

	limits := r.Limits
	if limits == nil {
		limits = api.ResourceList{}
	}
	for k, v := range aggLimits {
		if !IsHugePageResourceName(k) {
			continue
		}
		if _, ok := r.Requests[k]; ok {
			continue
		}
		if _, ok := limits[k]; !ok {
			limits[k] = clone(v)
		}
	}
	if len(limits) > 0 {
		r.Limits = limits
	}

	reqs := r.Requests
	if reqs == nil {
		reqs = api.ResourceList{}
	}
	for k, v := range aggReqs {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) && IsOvercommitAllowed(k) {
			reqs[k] = clone(v)
		}
	}
	for k, v := range r.Limits {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) {
			reqs[k] = clone(v)
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}

	for k, req := range r.Requests {
		if !IsSupportedPodLevelResource(k) {
			continue
		}
		if _, ok := r.Limits[k]; ok {
			continue
		}
		if !everyContainerLimits(p, k) {
			continue
		}
		lim, ok := aggLimits[k]
		if !ok {
			continue
		}
		if req.Cmp(lim) > 0 {
			lim = req
		}
		if r.Limits == nil {
			r.Limits = api.ResourceList{}
		}
		r.Limits[k] = clone(lim)
	}
}

// everyContainerLimits reports whether every container and init
// container of p sets a limit on k.
func everyContainerLimits(p *api.Pod, k api.ResourceName) bool {
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if _, ok := cs[i].Resources.Limits[k]; !ok {
				return false
			}
		}
	}
	return true
}
