// Package resource is the arithmetic of requests and limits.
//
// Ask what a pod requests as a whole, what the scheduler counts, and
// whether the API server would accept its resources:
//
//	total := resource.PodRequests(pod, resource.PodResourcesOptions{})
//	sched := resource.SchedulerRequests(pod)  // what NodeResourcesFit counts
//	cpu, mem := resource.NonZeroRequests(pod) // what the scorers count
//	err := resource.Validate(pod)
//
// # Scope
//
// It is schedkit's arithmetic over requests and limits: the
// sums and maxima of resource lists, what a pod asks for as a whole (its
// containers, init containers and sidecars, overhead and pod-level
// resources, and in-place resize status), the scheduler's non-zero
// defaults, LimitRange defaulting and validation, and the checks the API
// server makes on a pod's resources.
//
// Every computation follows Kubernetes v1.37.2: PodRequests and PodLimits
// follow k8s.io/component-helpers/resource, ApplyLimitRanges follows the
// LimitRanger admission plugin, NonZeroRequests follows the scheduler's
// PodInfo.CalculateResource, and Validate follows the API server's
// resource validation. Where the behaviour differs from upstream the
// function's comment says so.
//
// # Quantities
//
// Quantities live in package quantity, which sits below package api: api's
// ResourceList holds quantities, and this package uses api, so quantities
// cannot live here without an import cycle (api → resource → api). For
// the names users expect from k8s.io/apimachinery/pkg/api/resource, this
// package re-exports them: Quantity, ParseQuantity, MustParse,
// NewQuantity, NewMilliQuantity and the formats.
//
// # Allocation
//
// PodRequests and PodLimits allocate nothing but their result map, and
// nothing at all when PodResourcesOptions.Reuse is given; see
// BenchmarkPodRequests. Totals holds a pod's requests as integers for
// callers that want no map at all.
package resource
