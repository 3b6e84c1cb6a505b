package priorities

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

// Pins upstream TestBrokenLinearFunction.
func TestBrokenLinearFunction(t *testing.T) {
	tests := []struct {
		points     FunctionShape
		assertions [][2]int64
	}{
		{FunctionShape{{10, 1}, {90, 9}}, [][2]int64{{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9}, {99, 9}, {100, 9}, {110, 9}}},
		{FunctionShape{{0, 2}, {40, 10}, {100, 0}}, [][2]int64{{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
		{FunctionShape{{0, 2}, {40, 2}, {100, 2}}, [][2]int64{{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
	}
	for i, tc := range tests {
		f := BuildBrokenLinearFunction(tc.points)
		for _, a := range tc.assertions {
			if got := f(a[0]); got != a[1] {
				t.Errorf("case %d: f(%d) = %d, want %d", i, a[0], got, a[1])
			}
		}
	}
}

// Pins upstream noderesources/resource_allocation_test.go
// TestResourceAllocationScorerCalculateRequests (non-zero requests).
func TestResourceAllocationScorerCalculateRequests(t *testing.T) {
	const oneMi = 1048576
	q := resource.MustParse
	cm := func(cpu, mem string) api.ResourceRequirements {
		rl := api.ResourceList{}
		if cpu != "" {
			rl["cpu"] = q(cpu)
		}
		if mem != "" {
			rl["memory"] = q(mem)
		}
		return api.ResourceRequirements{Requests: rl}
	}
	overhead := api.ResourceList{"cpu": q("1"), "memory": q("1Mi")}
	tests := []struct {
		name     string
		pod      api.Pod
		cpu, mem int64
	}{
		{"overhead only", api.Pod{Spec: api.PodSpec{Overhead: overhead}}, 1000, oneMi},
		{"1x requestless container", api.Pod{Spec: api.PodSpec{Containers: []api.Container{{}}}}, resource.DefaultMilliCPURequest, resource.DefaultMemoryRequest},
		{"2x requestless container", api.Pod{Spec: api.PodSpec{Containers: []api.Container{{}, {}}}}, 2 * resource.DefaultMilliCPURequest, 2 * resource.DefaultMemoryRequest},
		{"request container + requestless container", api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: cm("1", "1Mi")}, {}}}},
			1000 + resource.DefaultMilliCPURequest, oneMi + resource.DefaultMemoryRequest},
		{"container + requestless container + overhead", api.Pod{Spec: api.PodSpec{Overhead: overhead, Containers: []api.Container{{Resources: cm("1", "1Mi")}, {}}}},
			2000 + resource.DefaultMilliCPURequest, 2*oneMi + resource.DefaultMemoryRequest},
		{"init container + container + requestless container + overhead", api.Pod{Spec: api.PodSpec{Overhead: overhead,
			InitContainers: []api.Container{{Resources: cm("3", "")}}, Containers: []api.Container{{Resources: cm("1", "1Mi")}, {}}}},
			4000, 2*oneMi + resource.DefaultMemoryRequest},
		{"requestless init container + small init container + small container ", api.Pod{Spec: api.PodSpec{
			InitContainers: []api.Container{{}, {Resources: cm("1m", "1")}}, Containers: []api.Container{{Resources: cm("3m", "3")}}}},
			resource.DefaultMilliCPURequest, resource.DefaultMemoryRequest},
		{"requestless init container + small init container + small container + requestless container ", api.Pod{Spec: api.PodSpec{
			InitContainers: []api.Container{{}, {Resources: cm("1m", "1")}}, Containers: []api.Container{{Resources: cm("3m", "3")}, {}}}},
			3 + resource.DefaultMilliCPURequest, 3 + resource.DefaultMemoryRequest},
	}
	s := NewFitScorer([]config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}})
	for _, tc := range tests {
		got := s.PodRequests(&tc.pod)
		if got[0] != tc.cpu || got[1] != tc.mem {
			t.Errorf("%s: got cpu %d memory %d, want %d %d", tc.name, got[0], got[1], tc.cpu, tc.mem)
		}
	}
}
