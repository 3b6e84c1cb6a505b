package qos

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// Of returns the pod's QoS class: pod.Status.QOSClass when the API server
// has recorded it, Compute(pod) otherwise. It is upstream's GetPodQOS.
func Of(pod *api.Pod) api.QOSClass {
	if pod == nil {
		return api.PodQOSBestEffort
	}
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return Compute(pod)
}

// Compute works out the pod's QoS class from its spec, ignoring
// pod.Status.QOSClass (upstream's ComputePodQOS):
//
//   - with pod-level resources set for cpu, memory or huge pages, the
//     pod-level requests and limits alone decide;
//   - otherwise each container and init container is classified, and the
//     pod is BestEffort if all are, Guaranteed if all are, Burstable
//     otherwise (a pod without containers is BestEffort).
//
// A set of requests and limits is BestEffort when neither cpu nor memory
// is requested or limited (zero counts as unset), Guaranteed when both
// are limited and requested exactly at the limit, Burstable otherwise.
// Other resources (ephemeral storage, huge pages, extended) do not count.
//
// Like upstream, Compute reads the spec as given: a container that limits
// cpu or memory without requesting it is Burstable here. The API server
// defaults such requests to the limits before it stores a pod, so apply
// resource.DefaultRequestsFromLimits first to a pod built in code or
// taken from a manifest that was never admitted. A nil pod is BestEffort.
func Compute(pod *api.Pod) api.QOSClass {
	if pod == nil {
		return api.PodQOSBestEffort
	}
	if resource.IsPodLevelResourcesSet(pod) {
		return requirementsQOS(pod.Spec.Resources)
	}
	var class api.QOSClass
	for _, cs := range [2][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			c := requirementsQOS(&cs[i].Resources)
			switch {
			case c == api.PodQOSBurstable:
				return c
			case class == "":
				class = c
			case class != c:
				return api.PodQOSBurstable
			}
		}
	}
	if class == "" {
		return api.PodQOSBestEffort
	}
	return class
}

// requirementsQOS classifies one set of requests and limits.
func requirementsQOS(r *api.ResourceRequirements) api.QOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return api.PodQOSBestEffort
	}
	cpu := resourceQOS(r, api.ResourceCPU)
	if cpu == api.PodQOSBurstable {
		return cpu
	}
	if mem := resourceQOS(r, api.ResourceMemory); mem != cpu {
		return api.PodQOSBurstable
	}
	return cpu
}

func resourceQOS(r *api.ResourceRequirements, name api.ResourceName) api.QOSClass {
	req, lim := r.Requests[name], r.Limits[name]
	switch {
	case !req.Equal(lim):
		return api.PodQOSBurstable
	case req.IsZero():
		return api.PodQOSBestEffort
	default:
		return api.PodQOSGuaranteed
	}
}
