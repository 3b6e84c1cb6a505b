package conformance

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// requirementsAnyShape draws container requests and limits that need not
// be valid: limits without requests, requests above limits, zeros.
func requirementsAnyShape() *rapid.Generator[api.ResourceRequirements] {
	return rapid.Custom(func(t *rapid.T) api.ResourceRequirements {
		var r api.ResourceRequirements
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, resourcegen.GPU} {
			gen := resourcegen.Bytes()
			switch name {
			case api.ResourceCPU:
				gen = resourcegen.CPU()
			case resourcegen.GPU:
				gen = resourcegen.Count()
			}
			switch rapid.IntRange(0, 4).Draw(t, "shape"+string(name)) {
			case 1:
				r.Requests = setQ(r.Requests, name, gen.Draw(t, "req"))
			case 2:
				r.Limits = setQ(r.Limits, name, gen.Draw(t, "lim"))
			case 3:
				r.Requests = setQ(r.Requests, name, gen.Draw(t, "req"))
				r.Limits = setQ(r.Limits, name, gen.Draw(t, "lim"))
			}
		}
		return r
	})
}

func setQ(l api.ResourceList, n api.ResourceName, q quantity.Quantity) api.ResourceList {
	if l == nil {
		l = api.ResourceList{}
	}
	l[n] = q
	return l
}

// podWithStatus draws resourcegen's valid pods, and now and then bends
// them: containers with any requests and limits, status resources from an
// in-place resize, a pending resize condition, a recorded QoS class.
func podWithStatus() *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := resourcegen.Pod().Draw(t, "pod")
		p.Name, p.Namespace = "p", "default"
		switch rapid.IntRange(0, 5).Draw(t, "bend") {
		case 0:
			for i := range p.Spec.Containers {
				p.Spec.Containers[i].Resources = requirementsAnyShape().Draw(t, "anyShape")
			}
		case 1:
			// Guaranteed-looking: cpu and memory limited, requested at the
			// limit or not at all (defaulting then fills the request in).
			for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
				for i := range cs {
					r := &cs[i].Resources
					for _, n := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
						q := resourcegen.CPU().Draw(t, "q")
						if n == api.ResourceMemory {
							q = resourcegen.Bytes().Draw(t, "q")
						}
						r.Limits = setQ(r.Limits, n, q)
						if rapid.IntRange(0, 3).Draw(t, "omitRequest") == 0 {
							delete(r.Requests, n)
						} else {
							r.Requests = setQ(r.Requests, n, q)
						}
					}
				}
			}
		}
		if rapid.IntRange(0, 2).Draw(t, "hasStatus") == 0 {
			all := append(append([]api.Container{}, p.Spec.InitContainers...), p.Spec.Containers...)
			for _, c := range all {
				if !rapid.Bool().Draw(t, "statusFor") {
					continue
				}
				cs := api.ContainerStatus{Name: c.Name}
				if rapid.Bool().Draw(t, "allocated") {
					cs.AllocatedResources = api.ResourceList{
						api.ResourceCPU:    resourcegen.CPU().Draw(t, "allocCPU"),
						api.ResourceMemory: resourcegen.Bytes().Draw(t, "allocMem"),
					}
				}
				if rapid.Bool().Draw(t, "actuated") {
					rr := requirementsAnyShape().Draw(t, "actuated")
					cs.Resources = &rr
				}
				isInit := false
				for _, ic := range p.Spec.InitContainers {
					isInit = isInit || ic.Name == c.Name
				}
				if isInit {
					p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, cs)
				} else {
					p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
				}
			}
			if rapid.Bool().Draw(t, "podLevelStatus") {
				// The kubelet reports the pod-level resources it applied
				// (and allocated) during an in-place pod-level resize.
				p.Status.Resources = &api.ResourceRequirements{Requests: api.ResourceList{
					api.ResourceCPU:    resourcegen.CPU().Draw(t, "statusCPU"),
					api.ResourceMemory: resourcegen.Bytes().Draw(t, "statusMem"),
				}}
				if rapid.Bool().Draw(t, "podLevelStatusLimits") {
					p.Status.Resources.Limits = api.ResourceList{api.ResourceCPU: resourcegen.CPU().Draw(t, "statusCPULimit")}
				}
				if rapid.Bool().Draw(t, "podAllocated") {
					p.Status.AllocatedResources = api.ResourceList{api.ResourceCPU: resourcegen.CPU().Draw(t, "allocatedCPU")}
				}
			}
			switch rapid.IntRange(0, 3).Draw(t, "resize") {
			case 1:
				p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: "Infeasible"})
			case 2:
				p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: "Deferred"})
			}
		}
		if rapid.IntRange(0, 5).Draw(t, "hasQOS") == 0 {
			p.Status.QOSClass = rapid.SampledFrom([]api.QOSClass{api.PodQOSBestEffort, api.PodQOSBurstable, api.PodQOSGuaranteed}).Draw(t, "qos")
		}
		return p
	})
}

func podResourcesInput() *rapid.Generator[*regression.PodResourcesInput] {
	return rapid.Custom(func(t *rapid.T) *regression.PodResourcesInput {
		return &regression.PodResourcesInput{
			Pod: podWithStatus().Draw(t, "pod"),
			Options: regression.PodResourcesOptions{
				UseStatusResources:          rapid.Bool().Draw(t, "useStatus"),
				ExcludeOverhead:             rapid.Bool().Draw(t, "excludeOverhead"),
				NonMissingDefaults:          rapid.Bool().Draw(t, "nonMissing"),
				SkipPodLevelResources:       rapid.IntRange(0, 3).Draw(t, "skipPodLevel") == 0,
				SkipContainerLevelResources: rapid.IntRange(0, 3).Draw(t, "skipContainerLevel") == 0,
			},
		}
	})
}

// TestPodResources compares PodRequests, PodLimits (with options), the
// scheduler's non-zero requests and PodInfo resource, and the QoS class
// with component-helpers, the scheduler framework and the qos helper.
func TestPodResources(t *testing.T) {
	Property(t, regression.KindPodResources, podResourcesInput(), upFn(upstream.PodResources), nil)
}

func limitRangeInput() *rapid.Generator[*regression.LimitRangeInput] {
	return rapid.Custom(func(t *rapid.T) *regression.LimitRangeInput {
		in := &regression.LimitRangeInput{Pod: resourcegen.Pod().Draw(t, "pod")}
		in.Pod.Name, in.Pod.Namespace = "p", "default"
		if rapid.IntRange(0, 3).Draw(t, "bend") == 0 {
			for i := range in.Pod.Spec.Containers {
				in.Pod.Spec.Containers[i].Resources = requirementsAnyShape().Draw(t, "anyShape")
			}
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "ranges") {
			lr := resourcegen.LimitRange().Draw(t, "limitRange")
			lr.Name = fmt.Sprintf("limits-%d", i)
			lr.Namespace = "default"
			in.LimitRanges = append(in.LimitRanges, lr)
		}
		return in
	})
}

// TestLimitRange compares LimitRange defaulting and validation with the
// LimitRanger admission plugin run in process.
func TestLimitRange(t *testing.T) {
	Property(t, regression.KindLimitRange, limitRangeInput(), upFn(upstream.LimitRange), nil)
}
