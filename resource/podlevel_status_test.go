package resource

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestPodLevelStatusResources pins component-helpers v0.37.2's handling of
// pod-level status resources (InPlacePodLevelResourcesVerticalScaling):
// the cases of TestAggregateContainerRequestsAndLimits and
// TestPodRequestsAndLimitsVerticalScalingWrappers that set
// InPlacePodLevelResourcesVerticalScalingEnabled, each also run with the
// option off, which keeps the container-status behaviour.
func TestPodLevelStatusResources(t *testing.T) {
	on := PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	off := PodResourcesOptions{UseStatusResources: true}
	c1 := ctr("c1", both(rl("cpu=1"), rl("cpu=2")))
	cases := []struct {
		name      string
		pod       api.Pod
		aggregate bool // AggregateContainer* rather than Pod*
		opts      PodResourcesOptions
		reqs      api.ResourceList
		limits    api.ResourceList
	}{
		{
			name:      "aggregate resolves from pod status",
			aggregate: true,
			pod: api.Pod{
				Spec: api.PodSpec{Containers: []api.Container{c1}},
				Status: api.PodStatus{
					AllocatedResources: rl("cpu=4"),
					Resources:          statusResources(both(rl("cpu=3"), rl("cpu=5"))),
				},
			},
			opts: on, reqs: rl("cpu=4"), limits: rl("cpu=5"),
		},
		{
			name:      "aggregate ignores pod status with the option off",
			aggregate: true,
			pod: api.Pod{
				Spec: api.PodSpec{Containers: []api.Container{c1}},
				Status: api.PodStatus{
					AllocatedResources: rl("cpu=4"),
					Resources:          statusResources(both(rl("cpu=3"), rl("cpu=5"))),
				},
			},
			opts: off, reqs: rl("cpu=1"), limits: rl("cpu=2"),
		},
		{
			name:      "aggregate falls back to container statuses without pod allocatedResources",
			aggregate: true,
			pod: api.Pod{
				Spec: api.PodSpec{Containers: []api.Container{c1}},
				Status: api.PodStatus{
					ContainerStatuses: []api.ContainerStatus{{
						Name:               "c1",
						AllocatedResources: rl("cpu=6"),
						Resources:          statusResources(both(rl("cpu=5"), rl("cpu=7"))),
					}},
					Resources: statusResources(both(rl("cpu=3"), rl("cpu=7"))),
				},
			},
			opts: on, reqs: rl("cpu=6"), limits: rl("cpu=7"),
		},
		{
			name:      "aggregate falls back to container statuses without pod status resources",
			aggregate: true,
			pod: api.Pod{
				Spec: api.PodSpec{Containers: []api.Container{c1}},
				Status: api.PodStatus{
					ContainerStatuses: []api.ContainerStatus{{
						Name:               "c1",
						AllocatedResources: rl("cpu=6"),
						Resources:          statusResources(both(rl("cpu=5"), rl("cpu=8"))),
					}},
					AllocatedResources: rl("cpu=6"),
				},
			},
			opts: on, reqs: rl("cpu=6"), limits: rl("cpu=8"),
		},
		{
			name: "pod level with status populated",
			pod: api.Pod{
				Spec: api.PodSpec{
					Resources:  &api.ResourceRequirements{Requests: rl("cpu=2"), Limits: rl("cpu=4")},
					Containers: []api.Container{c1},
				},
				Status: api.PodStatus{
					AllocatedResources: rl("cpu=3"),
					Resources:          statusResources(both(rl("cpu=3.5"), rl("cpu=5"))),
				},
			},
			opts: on, reqs: rl("cpu=3.5"), limits: rl("cpu=5"),
		},
		{
			name: "pod level with status populated, option off",
			pod: api.Pod{
				Spec: api.PodSpec{
					Resources:  &api.ResourceRequirements{Requests: rl("cpu=2"), Limits: rl("cpu=4")},
					Containers: []api.Container{c1},
				},
				Status: api.PodStatus{
					AllocatedResources: rl("cpu=3"),
					Resources:          statusResources(both(rl("cpu=3.5"), rl("cpu=5"))),
				},
			},
			opts: off, reqs: rl("cpu=2"), limits: rl("cpu=4"),
		},
		{
			name: "pod level with infeasible resize",
			pod: api.Pod{
				Spec: api.PodSpec{
					Resources:  &api.ResourceRequirements{Requests: rl("cpu=10"), Limits: rl("cpu=20")},
					Containers: []api.Container{c1},
				},
				Status: api.PodStatus{
					Conditions:         infeasible,
					AllocatedResources: rl("cpu=3"),
					Resources:          statusResources(both(rl("cpu=4"), rl("cpu=8"))),
				},
			},
			opts: on, reqs: rl("cpu=4"), limits: rl("cpu=8"),
		},
		{
			// The conformance seed podresources/seed-pod-level-resize-status.
			name: "pod level status names a resource the spec does not",
			pod: api.Pod{
				Spec: api.PodSpec{
					Resources:  &api.ResourceRequirements{Requests: rl("memory=100Mi")},
					Containers: []api.Container{ctr("a", api.ResourceRequirements{})},
				},
				Status: api.PodStatus{
					Resources: statusResources(req(rl("cpu=500m", "memory=200Mi"))),
				},
			},
			opts: on, reqs: rl("cpu=500m", "memory=200Mi"), limits: rl(),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var reqs, limits api.ResourceList
			if tc.aggregate {
				reqs = AggregateContainerRequests(&tc.pod, tc.opts)
				limits = AggregateContainerLimits(&tc.pod, tc.opts)
			} else {
				reqs = PodRequests(&tc.pod, tc.opts)
				limits = PodLimits(&tc.pod, tc.opts)
				for k, want := range reqs {
					if got, ok := PodRequest(&tc.pod, k, tc.opts); !ok || got.Cmp(want) != 0 {
						t.Errorf("PodRequest(%s) = %s, %v, want %s", k, got.String(), ok, want.String())
					}
				}
			}
			wantList(t, "requests", reqs, tc.reqs)
			wantList(t, "limits", limits, tc.limits)
		})
	}
}
