package resource

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestNonZeroRequests ports the scheduler's TestPodInfoCalculateResources
// (the cases without DRA): Non0CPU and Non0Mem, with the defaults for
// missing requests, and pod-level requests deciding where set.
func TestNonZeroRequests(t *testing.T) {
	both500 := req(rl("cpu=500m", "memory=500Mi"))
	cases := []struct {
		name         string
		containers   []api.Container
		inits        []api.Container
		podResources *api.ResourceRequirements
		overhead     api.ResourceList
		cpu, mem     int64
	}{
		{name: "requestless container", containers: []api.Container{{}}, cpu: DefaultMilliCPURequest, mem: DefaultMemoryRequest},
		{name: "1X container with requests", containers: []api.Container{ctr("", both500)}, cpu: 500, mem: 500 << 20},
		{name: "2X container with requests", containers: []api.Container{ctr("", both500), ctr("", req(rl("cpu=700m", "memory=800Mi")))}, cpu: 1200, mem: 1300 << 20},
		{name: "1X container and 1X init container with pod-level requests",
			containers: []api.Container{ctr("", both500)}, inits: []api.Container{ctr("", both500)},
			podResources: &api.ResourceRequirements{Requests: rl("cpu=1200m", "memory=1200Mi")}, cpu: 1200, mem: 1200 << 20},
		{name: "1X container and 1X sidecar container with pod-level requests",
			containers: []api.Container{ctr("", both500)}, inits: []api.Container{sidecar("", both500)},
			podResources: &api.ResourceRequirements{Requests: rl("cpu=1200m", "memory=1200Mi")}, cpu: 1200, mem: 1200 << 20},
		{name: "1X container with pod-level memory requests",
			containers: []api.Container{{}}, inits: []api.Container{{}},
			podResources: &api.ResourceRequirements{Requests: rl("memory=1200Mi")}, cpu: DefaultMilliCPURequest, mem: 1200 << 20},
		{name: "1X container with pod-level cpu requests",
			containers: []api.Container{{}}, inits: []api.Container{{}},
			podResources: &api.ResourceRequirements{Requests: rl("cpu=500m")}, cpu: 500, mem: DefaultMemoryRequest},
		{name: "1X container unsupported resources and pod-level supported resources",
			containers: []api.Container{ctr("", req(rl("ephemeral-storage=800Mi")))}, inits: []api.Container{ctr("", req(rl("ephemeral-storage=500Mi")))},
			podResources: &api.ResourceRequirements{Requests: rl("cpu=500m")}, cpu: 500, mem: DefaultMemoryRequest},
		{name: "overhead adds to the defaults", containers: []api.Container{{}}, overhead: rl("cpu=100m", "memory=200Mi"),
			cpu: 2 * DefaultMilliCPURequest, mem: 2 * DefaultMemoryRequest},
		{name: "explicit zero requests stay zero", containers: []api.Container{ctr("", req(rl("cpu=0", "memory=0")))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{Spec: api.PodSpec{Containers: tc.containers, InitContainers: tc.inits, Resources: tc.podResources, Overhead: tc.overhead}}
			cpu, mem := NonZeroRequests(p)
			if cpu != tc.cpu || mem != tc.mem {
				t.Errorf("NonZeroRequests = %d, %d; want %d, %d", cpu, mem, tc.cpu, tc.mem)
			}
		})
	}
}

// TestRequestQuantity pins the kubelet's GetResourceRequestQuantity and
// GetResourceRequest: overhead only on a non-zero request, pod-level
// requests alone when pod-level resources are set, pods count 1.
func TestRequestQuantity(t *testing.T) {
	p := &api.Pod{Spec: api.PodSpec{
		Containers: []api.Container{ctr("a", req(rl("cpu=250m", "memory=1Gi")))},
		Overhead:   rl("cpu=10m", "memory=10Mi", "ephemeral-storage=1Gi"),
	}}
	for name, want := range map[api.ResourceName]int64{"cpu": 260, "memory": (1024 + 10) << 20, "ephemeral-storage": 0, "pods": 1} {
		if got := Request(p, name); got != want {
			t.Errorf("Request(%s) = %d, want %d", name, got, want)
		}
	}
	p.Spec.Resources = &api.ResourceRequirements{Limits: rl("memory=2Gi")}
	// Pod-level resources set, but no pod-level request: zero.
	if got := Request(p, "memory"); got != 0 {
		t.Errorf("Request(memory) with pod-level limits only = %d, want 0", got)
	}
	if got := Request(p, "cpu"); got != 0 {
		t.Errorf("Request(cpu) with pod-level resources = %d, want 0", got)
	}
}
