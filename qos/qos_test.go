package qos

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

func list(cpu, memory string) api.ResourceList {
	l := api.ResourceList{}
	if cpu != "" {
		l[api.ResourceCPU] = resource.MustParse(cpu)
	}
	if memory != "" {
		l[api.ResourceMemory] = resource.MustParse(memory)
	}
	return l
}

func newPod(name string, cs ...api.Container) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{Containers: cs}}
}

func withResources(r api.ResourceRequirements) api.Container { return api.Container{Resources: r} }

type qosCase struct {
	pod  *api.Pod
	want api.QOSClass
}

// TestComputePodQOS ports the upstream qos test of the same name, with
// PodLevelResources and PodLevelResourcesFixKubeletQOSClass on (their
// defaults at v1.37): single and two-container cases, init container
// variants, pod-level resource variants, and explicit empty or zero
// pod-level resources. The cases for the gates off are left out.
func TestComputePodQOS(t *testing.T) {
	guaranteed := api.ResourceRequirements{
		// An ephemeral-storage request does not affect QoS.
		Requests: api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("100Mi"), "ephemeral-storage": resource.MustParse("10Gi")},
		Limits:   list("100m", "100Mi"),
	}
	bestEffort := []api.ResourceRequirements{
		{},
		{Requests: list("0", "0")},
		{Requests: list("0", "0"), Limits: list("0", "0")},
		{Requests: api.ResourceList{"cpu": resource.Quantity{}, "memory": resource.Quantity{}}},
		{Requests: api.ResourceList{"ephemeral-storage": resource.MustParse("10Gi")}},
		{Requests: api.ResourceList{"ephemeral-storage": resource.MustParse("10Gi")}, Limits: api.ResourceList{"ephemeral-storage": resource.MustParse("10Gi")}},
	}
	burstable := []api.ResourceRequirements{
		{Requests: list("100m", "100Mi"), Limits: list("200m", "200Mi")},
		{Requests: list("100m", "100Mi"), Limits: list("100m", "200Mi")},
		{Requests: list("100m", "100Mi"), Limits: list("200m", "100Mi")},
		{Requests: list("100m", "100Mi")},
		{Requests: list("100m", "100Mi"), Limits: list("100m", "")},
	}

	single := []qosCase{{newPod("guaranteed", withResources(guaranteed)), api.PodQOSGuaranteed}}
	for i, r := range bestEffort {
		single = append(single, qosCase{newPod(fmt.Sprintf("best-effort-%d", i), withResources(r)), api.PodQOSBestEffort})
	}
	for i, r := range burstable {
		single = append(single, qosCase{newPod(fmt.Sprintf("burstable-%d", i), withResources(r)), api.PodQOSBurstable})
	}
	tests := append([]qosCase(nil), single...)

	second := []qosCase{
		{newPod("2c-guaranteed", withResources(guaranteed), withResources(guaranteed)), api.PodQOSGuaranteed},
		{newPod("2c-best-effort", withResources(bestEffort[0]), withResources(bestEffort[1])), api.PodQOSBestEffort},
		{newPod("2c-burstable", withResources(burstable[0]), withResources(burstable[1])), api.PodQOSBurstable},
	}
	firsts := []api.ResourceRequirements{guaranteed, bestEffort[0], burstable[0]}
	seconds := []api.ResourceRequirements{guaranteed, bestEffort[1], burstable[1]}
	for i, a := range firsts {
		for j, b := range seconds {
			if i != j {
				second = append(second, qosCase{newPod(fmt.Sprintf("2c-mixed-burstable-%d-%d", i, j), withResources(a), withResources(b)), api.PodQOSBurstable})
			}
		}
	}
	tests = append(tests, second...)
	// Whether the second container is an init container does not matter.
	for _, tc := range second {
		p := tc.pod.DeepCopy()
		p.Name += "-init"
		p.Spec.InitContainers = p.Spec.Containers[1:]
		p.Spec.Containers = p.Spec.Containers[:1]
		tests = append(tests, qosCase{p, tc.want})
	}
	// Pod-level resources copied from the single-container case, with a
	// guaranteed container: pod level decides when it sets cpu or memory,
	// and the containers decide otherwise.
	for _, tc := range single {
		p := tc.pod.DeepCopy()
		p.Name = "pod-" + p.Name + "-plr"
		r := tc.pod.Spec.Containers[0].Resources
		p.Spec.Resources = &r
		p.Spec.Containers[0].Resources = guaranteed
		want := tc.want
		if !resource.IsPodLevelResourcesSet(p) {
			want = api.PodQOSGuaranteed
			p.Name += "-fallback"
		}
		tests = append(tests, qosCase{p, want})
	}
	g := api.ResourceRequirements{Requests: list("100m", "100Mi"), Limits: list("100m", "100Mi")}
	withPLR := func(name string, r *api.ResourceRequirements, cs ...api.Container) *api.Pod {
		p := newPod(name, cs...)
		p.Spec.Resources = r
		return p
	}
	hp := func(cpu, mem, pages string) api.ResourceList {
		l := list(cpu, mem)
		if pages != "" {
			l["hugepages-2Mi"] = resource.MustParse(pages)
		}
		return l
	}
	tests = append(tests,
		qosCase{withPLR("empty-pod-level-resources-should-fallback-to-containers", &api.ResourceRequirements{Requests: api.ResourceList{}, Limits: api.ResourceList{}}, api.Container{Name: "guaranteed", Resources: g}), api.PodQOSGuaranteed},
		qosCase{withPLR("completely-empty-pod-level-resources-should-fallback-to-containers", &api.ResourceRequirements{}, api.Container{Name: "guaranteed", Resources: g}), api.PodQOSGuaranteed},
		qosCase{withPLR("nil-pod-level-resources-should-fallback-to-containers", nil, api.Container{Name: "guaranteed", Resources: g}), api.PodQOSGuaranteed},
		qosCase{withPLR("zero-pod-level-resources-should-not-fallback-to-containers", &api.ResourceRequirements{Requests: list("0", "0"), Limits: list("0", "0")}, api.Container{Name: "guaranteed", Resources: g}), api.PodQOSBestEffort},
		qosCase{withPLR("guaranteed-with-pod-level-resources-and-hugepages", &api.ResourceRequirements{Requests: hp("10m", "100Mi", "100Mi"), Limits: hp("10m", "100Mi", "100Mi")}, api.Container{Name: "best-effort"}), api.PodQOSGuaranteed},
		qosCase{withPLR("burstable-with-pod-level-resources-and-hugepages", &api.ResourceRequirements{Requests: hp("10m", "", "100Mi"), Limits: hp("", "", "100Mi")}, api.Container{Name: "best-effort"}), api.PodQOSBurstable},
	)

	for _, tc := range tests {
		t.Run(tc.pod.Name, func(t *testing.T) {
			if got := Compute(tc.pod); got != tc.want {
				t.Errorf("Compute = %s, want %s", got, tc.want)
			}
			if got := Of(tc.pod); got != tc.want {
				t.Errorf("Of = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestQOSDefaultsRequestsFromLimits pins that ComputePodQOS reads the
// spec as given (a limits-only container is Burstable) and that after the
// API server's defaulting (resource.DefaultRequestsFromLimits) the same
// pod is Guaranteed, as a pod read back from a cluster would be.
func TestQOSDefaultsRequestsFromLimits(t *testing.T) {
	cases := []struct {
		qosCase
		defaulted api.QOSClass
	}{
		{qosCase{newPod("limits-only", withResources(api.ResourceRequirements{Limits: list("1", "1Gi")})), api.PodQOSBurstable}, api.PodQOSGuaranteed},
		{qosCase{newPod("limits-only-cpu", withResources(api.ResourceRequirements{Limits: list("1", "")})), api.PodQOSBurstable}, api.PodQOSBurstable},
		{qosCase{newPod("limits-and-lower-request", withResources(api.ResourceRequirements{Requests: list("500m", ""), Limits: list("1", "1Gi")})), api.PodQOSBurstable}, api.PodQOSBurstable},
	}
	for _, tc := range cases {
		if got := Compute(tc.pod); got != tc.want {
			t.Errorf("%s: Compute = %s, want %s", tc.pod.Name, got, tc.want)
		}
		p := tc.pod.DeepCopy()
		resource.DefaultRequestsFromLimits(p)
		if got := Compute(p); got != tc.defaulted {
			t.Errorf("%s defaulted: Compute = %s, want %s", tc.pod.Name, got, tc.defaulted)
		}
	}
}

// TestOfUsesStatus pins GetPodQOS: a recorded class wins.
func TestOfUsesStatus(t *testing.T) {
	p := newPod("p", api.Container{})
	p.Status.QOSClass = api.PodQOSGuaranteed
	if got := Of(p); got != api.PodQOSGuaranteed {
		t.Errorf("Of = %s", got)
	}
	if got := Compute(p); got != api.PodQOSBestEffort {
		t.Errorf("Compute = %s", got)
	}
	if got := Compute(&api.Pod{}); got != api.PodQOSBestEffort || strings.TrimSpace(string(got)) == "" {
		t.Errorf("no containers: %s", got)
	}
}
