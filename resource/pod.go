package resource

import "github.com/schedkit/schedkit/api"

// PodResourcesOptions controls PodRequests and PodLimits. The zero value
// computes what the pod's spec asks for, overhead included.
// SchedulerOptions gives the requests the scheduler uses; NonZeroRequests
// gives the ones it scores with.
type PodResourcesOptions struct {
	// Reuse, if not nil, is cleared and filled with the result instead of
	// a new map, so that a caller in a loop allocates nothing.
	Reuse api.ResourceList
	// UseStatusResources takes in-place resize into account: each
	// container counts as the largest of what its spec asks for, what the
	// kubelet allocated to it and what is actuated, as reported in the
	// pod's container statuses. When a resize is infeasible (condition
	// PodResizePending with reason Infeasible) the spec no longer counts.
	// The scheduler sets it (InPlacePodVerticalScaling is on by default).
	UseStatusResources bool
	// ExcludeOverhead leaves pod.spec.overhead out.
	ExcludeOverhead bool
	// NonMissingContainerRequests, if not empty, stands in for every
	// container request that is missing. A request that is set, even to
	// zero, is kept. The scheduler passes DefaultMilliCPURequest and
	// DefaultMemoryRequest here when scoring.
	NonMissingContainerRequests api.ResourceList
	// SkipPodLevelResources ignores pod.spec.resources. Without it,
	// pod-level cpu, memory and huge pages, where set, replace what the
	// containers add up to.
	SkipPodLevelResources bool
	// SkipContainerLevelResources leaves the containers out of PodRequests,
	// keeping only pod-level requests and overhead.
	SkipContainerLevelResources bool
	// InPlacePodLevelResourcesVerticalScalingEnabled, together with
	// UseStatusResources, takes pod-level in-place resize into account:
	// pod-level requests (limits) count as the largest of the spec's (unless
	// the resize is infeasible), pod.status.resources.requests (.limits)
	// and, for requests, pod.status.allocatedResources, when
	// pod.status.resources is set. The containers' aggregate then reads the
	// actuated and allocated totals from those pod-level status lists, when
	// they are set, instead of the container statuses. The scheduler sets
	// it (InPlacePodLevelResourcesVerticalScaling is on by default).
	InPlacePodLevelResourcesVerticalScalingEnabled bool
}

// Reasons of the PodResizePending condition.
const (
	// PodReasonInfeasible means the node can never fit the resize.
	PodReasonInfeasible = "Infeasible"
	// PodReasonDeferred means the resize waits for room on the node.
	PodReasonDeferred = "Deferred"
)

// IsPodResizeInfeasible reports whether the pod's first PodResizePending
// condition has reason Infeasible.
func IsPodResizeInfeasible(pod *api.Pod) bool {
	return resizeReason(pod) == PodReasonInfeasible
}

// IsPodResizeDeferred reports whether the pod's first PodResizePending
// condition has reason Deferred.
func IsPodResizeDeferred(pod *api.Pod) bool {
	return resizeReason(pod) == PodReasonDeferred
}

func resizeReason(pod *api.Pod) string {
	if pod == nil {
		return ""
	}
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == api.PodResizePending {
			return pod.Status.Conditions[i].Reason
		}
	}
	return ""
}

// SchedulerOptions are the options under which PodRequests returns the
// requests the scheduler uses: what NodeResourcesFit filters by, what
// the snapshot sums per node (cluster.PodInfo.Requests) and what
// preemption frees. In-place resize is counted from the container and
// pod-level statuses, as kube-scheduler v1.37.2 counts it with its
// default feature gates; the overhead is included. Set Reuse on the
// result to fill a map of one's own.
func SchedulerOptions() PodResourcesOptions {
	return PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
}

// SchedulerRequests is PodRequests(pod, SchedulerOptions()): the
// requests the scheduler uses for pod.
func SchedulerRequests(pod *api.Pod) api.ResourceList {
	return PodRequests(pod, SchedulerOptions())
}

// PodRequests returns what the pod requests as a whole, the way the
// scheduler and kubelet count it (component-helpers PodRequests):
//
//   - regular containers and restartable init containers (sidecars) add
//     up;
//   - each regular init container runs alone with the sidecars started
//     before it, so the pod needs at least the largest such sum, per
//     resource;
//   - pod-level requests of cpu, memory and huge pages, where set, replace
//     the containers' total (unless opts.SkipPodLevelResources);
//   - the overhead is added (unless opts.ExcludeOverhead).
//
// A name appears in the result if any container, the pod-level requests
// or the overhead names it, even with a zero quantity. The result is
// opts.Reuse when that is not nil. PodRequests allocates nothing else.
// A nil pod requests nothing.
func PodRequests(pod *api.Pod, opts PodResourcesOptions) api.ResourceList {
	reqs := reuseOrClear(opts.Reuse)
	if pod == nil {
		return reqs
	}
	if !opts.SkipContainerLevelResources {
		aggregateInto(reqs, pod, opts, false)
	}
	if !opts.SkipPodLevelResources && IsPodLevelRequestsSet(pod) {
		applyPodLevel(reqs, pod, &opts, false)
	}
	if !opts.ExcludeOverhead && pod.Spec.Overhead != nil {
		AddTo(reqs, pod.Spec.Overhead)
	}
	return reqs
}

// PodLimits returns the pod's limits as a whole (component-helpers
// PodLimits): containers and sidecars add up, init containers count as in
// PodRequests, pod-level limits of supported resources replace the total,
// and the overhead is added to every limit that is set and not zero. A
// resource no container limits is absent: unlimited.
// opts.NonMissingContainerRequests and opts.SkipContainerLevelResources do
// not apply to limits.
func PodLimits(pod *api.Pod, opts PodResourcesOptions) api.ResourceList {
	limits := AggregateContainerLimits(pod, opts)
	if pod == nil {
		return limits
	}
	if !opts.SkipPodLevelResources && IsPodLevelResourcesSet(pod) {
		applyPodLevel(limits, pod, &opts, true)
	}
	if !opts.ExcludeOverhead && pod.Spec.Overhead != nil {
		for k, v := range pod.Spec.Overhead {
			if cur, ok := limits[k]; ok && !cur.IsZero() {
				sum := clone(cur)
				sum.Add(v)
				limits[k] = sum
			}
		}
	}
	return limits
}

// AggregateContainerRequests returns what the pod's containers request
// together, without pod-level resources and overhead (see PodRequests).
func AggregateContainerRequests(pod *api.Pod, opts PodResourcesOptions) api.ResourceList {
	reqs := reuseOrClear(opts.Reuse)
	aggregateInto(reqs, pod, opts, false)
	return reqs
}

// AggregateContainerLimits returns the pod's containers' limits together,
// without pod-level resources and overhead (see PodLimits).
func AggregateContainerLimits(pod *api.Pod, opts PodResourcesOptions) api.ResourceList {
	limits := reuseOrClear(opts.Reuse)
	aggregateInto(limits, pod, opts, true)
	return limits
}

func reuseOrClear(l api.ResourceList) api.ResourceList {
	if l == nil {
		return make(api.ResourceList, 4)
	}
	clear(l)
	return l
}

// listKind says which of a container's resource lists is read.
type listKind uint8

const (
	specRequests      listKind = iota // spec requests
	allocatedRequests                 // status allocatedResources, else spec
	actuatedRequests                  // status resources.requests, else allocated, else spec
	specLimits                        // spec limits
	actuatedLimits                    // status resources.limits, else spec
	defaultedRequests                 // spec requests, a missing one taken from the limit
)

// containerList returns the list of kind for container c of pod. For
// defaultedRequests it returns the requests; lookups fall back to limits.
func containerList(pod *api.Pod, c *api.Container, kind listKind, infeasible bool) api.ResourceList {
	switch kind {
	case specRequests, defaultedRequests:
		return c.Resources.Requests
	case specLimits:
		return c.Resources.Limits
	}
	cs := findContainerStatus(pod, c.Name)
	switch kind {
	case allocatedRequests:
		if cs != nil && cs.AllocatedResources != nil {
			return cs.AllocatedResources
		}
		if infeasible {
			return nil
		}
		return c.Resources.Requests
	case actuatedRequests:
		if cs != nil && cs.Resources != nil && cs.Resources.Requests != nil {
			return cs.Resources.Requests
		}
		if cs != nil && cs.AllocatedResources != nil {
			return cs.AllocatedResources
		}
		if infeasible {
			return nil
		}
		return c.Resources.Requests
	default: // actuatedLimits
		if cs != nil && cs.Resources != nil && cs.Resources.Limits != nil {
			return cs.Resources.Limits
		}
		if infeasible {
			return nil
		}
		return c.Resources.Limits
	}
}

// hasContainerStatuses reports whether the pod has any container status.
func hasContainerStatuses(pod *api.Pod) bool {
	return len(pod.Status.ContainerStatuses) > 0 || len(pod.Status.InitContainerStatuses) > 0
}

func findContainerStatus(pod *api.Pod, name string) *api.ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	for i := range pod.Status.InitContainerStatuses {
		if pod.Status.InitContainerStatuses[i].Name == name {
			return &pod.Status.InitContainerStatuses[i]
		}
	}
	return nil
}

// lookup returns container c's quantity of k in the list of kind, after
// the non-missing defaults nm.
func lookup(pod *api.Pod, c *api.Container, k api.ResourceName, kind listKind, infeasible bool, nm api.ResourceList) (Quantity, bool) {
	l := containerList(pod, c, kind, infeasible)
	if v, ok := l[k]; ok {
		return v, true
	}
	if kind == defaultedRequests {
		if v, ok := c.Resources.Limits[k]; ok {
			return v, true
		}
	}
	if v, ok := nm[k]; ok {
		return v, true
	}
	return Quantity{}, false
}

// aggregateKey computes one resource of the pod's container aggregate
// from the lists of kind: the sum over containers and sidecars, raised to
// the largest init-container phase. It reports false if no container has
// the resource.
func aggregateKey(pod *api.Pod, k api.ResourceName, kind listKind, infeasible bool, nm api.ResourceList) (Quantity, bool) {
	var sum Quantity
	present := false
	for i := range pod.Spec.Containers {
		if v, ok := lookup(pod, &pod.Spec.Containers[i], k, kind, infeasible, nm); ok {
			sum.Add(v)
			present = true
		}
	}
	var sidecars, initMax Quantity
	sidecarsSet, initSet := false, false
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		v, ok := lookup(pod, c, k, kind, infeasible, nm)
		var phase Quantity
		phaseSet := false
		if c.IsRestartableInit() {
			if ok {
				sum.Add(v)
				present = true
				sidecars.Add(v)
				sidecarsSet = true
			}
			// While this sidecar starts, it runs with the earlier ones.
			phase, phaseSet = sidecars, sidecarsSet
		} else {
			if ok {
				phase.Add(v)
				phaseSet = true
			}
			if sidecarsSet {
				phase.Add(sidecars)
				phaseSet = true
			}
		}
		if phaseSet && (!initSet || phase.Cmp(initMax) > 0) {
			initMax, initSet = clone(phase), true
		}
	}
	if initSet && (!present || initMax.Cmp(sum) > 0) {
		return initMax, true
	}
	return sum, present
}

// maxOf folds b into a the way component-helpers' max does: b replaces a
// when a is absent or b is strictly greater.
func maxOf(a Quantity, aok bool, b Quantity, bok bool) (Quantity, bool) {
	if bok && (!aok || b.Cmp(a) > 0) {
		return b, true
	}
	return a, aok
}

// containerKey computes one resource of AggregateContainerRequests (or
// AggregateContainerLimits when limits is set) under opts.
func containerKey(pod *api.Pod, k api.ResourceName, opts *PodResourcesOptions, limits bool) (Quantity, bool) {
	nm := opts.NonMissingContainerRequests
	spec, act := specRequests, actuatedRequests
	if limits {
		nm = nil
		spec, act = specLimits, actuatedLimits
	}
	if !opts.UseStatusResources {
		return aggregateKey(pod, k, spec, false, nm)
	}
	infeasible := IsPodResizeInfeasible(pod)
	if act, alloc, podLevel := podLevelStatus(pod, opts, limits); podLevel {
		// The pod-level status lists hold the actuated and allocated
		// totals of all the containers.
		var q Quantity
		ok := false
		if !infeasible {
			q, ok = aggregateKey(pod, k, spec, false, nm)
		}
		a, aok := act[k]
		q, ok = maxOf(q, ok, a, aok)
		if !limits {
			b, bok := alloc[k]
			q, ok = maxOf(q, ok, b, bok)
		}
		return q, ok
	}
	if !infeasible && !hasContainerStatuses(pod) {
		// Without statuses the actuated and allocated lists are the
		// spec's, so their aggregates are the spec's, which the folds
		// below keep.
		return aggregateKey(pod, k, spec, false, nm)
	}
	var q Quantity
	ok := false
	if !infeasible {
		q, ok = aggregateKey(pod, k, spec, false, nm)
	}
	a, aok := aggregateKey(pod, k, act, infeasible, nm)
	q, ok = maxOf(q, ok, a, aok)
	if !limits {
		b, bok := aggregateKey(pod, k, allocatedRequests, infeasible, nm)
		q, ok = maxOf(q, ok, b, bok)
	}
	return q, ok
}

// aggregateInto fills dst with every resource of the container aggregate.
// Each name is computed once, when first met in a container's lists.
func aggregateInto(dst api.ResourceList, pod *api.Pod, opts PodResourcesOptions, limits bool) {
	if pod == nil {
		return
	}
	kinds := [3]listKind{specRequests, actuatedRequests, allocatedRequests}
	n := 1
	if opts.UseStatusResources {
		n = 3
	}
	if limits {
		kinds = [3]listKind{specLimits, actuatedLimits}
		if opts.UseStatusResources {
			n = 2
		}
	}
	act, alloc, podLevel := podLevelStatus(pod, &opts, limits)
	if !hasContainerStatuses(pod) || podLevel {
		// Without statuses every kind of list is the spec's (listed here
		// as for a feasible resize), which names no other resource. With
		// pod-level status lists the container statuses are not read.
		n = 1
	}
	visit := func(c *api.Container) {
		for _, kind := range kinds[:n] {
			for k := range containerList(pod, c, kind, false) {
				if _, done := dst[k]; done {
					continue
				}
				if q, ok := containerKey(pod, k, &opts, limits); ok {
					dst[k] = clone(q)
				}
			}
		}
	}
	for i := range pod.Spec.Containers {
		visit(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.InitContainers {
		visit(&pod.Spec.InitContainers[i])
	}
	if podLevel {
		for _, l := range [2]api.ResourceList{act, alloc} {
			for k := range l {
				if _, done := dst[k]; done {
					continue
				}
				if q, ok := containerKey(pod, k, &opts, limits); ok {
					dst[k] = clone(q)
				}
			}
		}
	}
	if !limits && len(pod.Spec.Containers)+len(pod.Spec.InitContainers) > 0 {
		for k := range opts.NonMissingContainerRequests {
			if _, done := dst[k]; done {
				continue
			}
			if q, ok := containerKey(pod, k, &opts, limits); ok {
				dst[k] = clone(q)
			}
		}
	}
}

// podRequestKey computes PodRequests(pod, opts)[k] without building the
// list.
func podRequestKey(pod *api.Pod, k api.ResourceName, opts *PodResourcesOptions) (Quantity, bool) {
	var q Quantity
	ok := false
	if !opts.SkipContainerLevelResources {
		q, ok = containerKey(pod, k, opts, false)
	}
	if !opts.SkipPodLevelResources && IsSupportedPodLevelResource(k) && IsPodLevelRequestsSet(pod) {
		if v, set := podLevelKey(pod, k, opts, false); set {
			q, ok = v, true
		}
	}
	if !opts.ExcludeOverhead {
		if v, set := pod.Spec.Overhead[k]; set {
			sum := clone(q)
			sum.Add(v)
			q, ok = sum, true
		}
	}
	return q, ok
}

// PodRequest returns PodRequests(pod, opts)[name] and whether the name is
// present, computing only that resource and allocating nothing.
// opts.Reuse is not used. A nil pod requests nothing.
func PodRequest(pod *api.Pod, name api.ResourceName, opts PodResourcesOptions) (Quantity, bool) {
	if pod == nil {
		return Quantity{}, false
	}
	q, ok := podRequestKey(pod, name, &opts)
	return clone(q), ok
}

// podLevelStatus returns the pod-level actuated and allocated lists that
// stand for the containers' aggregates under opts (allocated is nil for
// limits), and whether they apply: for requests both
// pod.status.allocatedResources and pod.status.resources.requests must be
// set, for limits pod.status.resources.limits.
func podLevelStatus(pod *api.Pod, opts *PodResourcesOptions, limits bool) (act, alloc api.ResourceList, ok bool) {
	if !opts.UseStatusResources || !opts.InPlacePodLevelResourcesVerticalScalingEnabled || pod.Status.Resources == nil {
		return nil, nil, false
	}
	if limits {
		act = pod.Status.Resources.Limits
		return act, nil, act != nil
	}
	act, alloc = pod.Status.Resources.Requests, pod.Status.AllocatedResources
	return act, alloc, act != nil && alloc != nil
}

// podLevelEffective reports whether pod-level requests or limits count
// the pod-level status under opts, and returns the status lists that then
// count with the spec's (allocated is nil for limits).
func podLevelEffective(pod *api.Pod, opts *PodResourcesOptions, limits bool) (act, alloc api.ResourceList, ok bool) {
	if !opts.InPlacePodLevelResourcesVerticalScalingEnabled || !opts.UseStatusResources || pod.Status.Resources == nil {
		return nil, nil, false
	}
	if limits {
		return pod.Status.Resources.Limits, nil, true
	}
	return pod.Status.Resources.Requests, pod.Status.AllocatedResources, true
}

// podLevelKey returns the effective pod-level request (or limit) of k:
// the spec's, or under pod-level in-place resize the largest of the
// spec's (unless the resize is infeasible) and the status lists'. The
// caller checks that pod.spec.resources is set and k supported.
func podLevelKey(pod *api.Pod, k api.ResourceName, opts *PodResourcesOptions, limits bool) (Quantity, bool) {
	spec := pod.Spec.Resources.Requests
	if limits {
		spec = pod.Spec.Resources.Limits
	}
	act, alloc, ok := podLevelEffective(pod, opts, limits)
	if !ok {
		v, set := spec[k]
		return v, set
	}
	var q Quantity
	set := false
	if !IsPodResizeInfeasible(pod) {
		q, set = spec[k]
	}
	a, aok := act[k]
	q, set = maxOf(q, set, a, aok)
	b, bok := alloc[k]
	return maxOf(q, set, b, bok)
}

// applyPodLevel replaces in dst each supported resource the effective
// pod-level requests (or limits) name with its effective value.
func applyPodLevel(dst api.ResourceList, pod *api.Pod, opts *PodResourcesOptions, limits bool) {
	spec := pod.Spec.Resources.Requests
	if limits {
		spec = pod.Spec.Resources.Limits
	}
	act, alloc, _ := podLevelEffective(pod, opts, limits)
	for _, l := range [3]api.ResourceList{spec, act, alloc} {
		for k := range l {
			if !IsSupportedPodLevelResource(k) {
				continue
			}
			if v, set := podLevelKey(pod, k, opts, limits); set {
				dst[k] = clone(v)
			}
		}
	}
}
