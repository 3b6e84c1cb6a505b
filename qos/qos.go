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
// A container that limits cpu or memory without requesting it counts as
// requesting the limit: the API server's defaulting sets such requests
// before it stores a pod (and computes status.qosClass), so on a pod read
// from a cluster this changes nothing, while a pod built in code gets the
// class the API server would give it. Pod-level resources are taken as
// given: the API server's pod-level defaulting is not modeled. A nil pod
// is BestEffort.
func Compute(pod *api.Pod) api.QOSClass {
	if pod == nil {
		return api.PodQOSBestEffort
	}
	if resource.IsPodLevelResourcesSet(pod) {
		return requirementsQOS(pod.Spec.Resources, false)
	}
	var class api.QOSClass
	for _, cs := range [2][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			c := requirementsQOS(&cs[i].Resources, true)
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

// requirementsQOS classifies one set of requests and limits; with
// defaulted, a missing request takes the limit's value.
func requirementsQOS(r *api.ResourceRequirements, defaulted bool) api.QOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return api.PodQOSBestEffort
	}
	cpu := resourceQOS(r, api.ResourceCPU, defaulted)
	if cpu == api.PodQOSBurstable {
		return cpu
	}
	if mem := resourceQOS(r, api.ResourceMemory, defaulted); mem != cpu {
		return api.PodQOSBurstable
	}
	return cpu
}

func resourceQOS(r *api.ResourceRequirements, name api.ResourceName, defaulted bool) api.QOSClass {
	req, hasReq := r.Requests[name]
	lim, hasLim := r.Limits[name]
	if defaulted && !hasReq && hasLim {
		req = lim
	}
	switch {
	case !req.Equal(lim):
		return api.PodQOSBurstable
	case req.IsZero():
		return api.PodQOSBestEffort
	default:
		return api.PodQOSGuaranteed
	}
}
