package dra_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

// TestExtendedRequests pins upstream's Test_createRequestsAndMappings_requests
// (dynamicresources/extendeddynamicresources_test.go), row by row.
func TestExtendedRequests(t *testing.T) {
	const ext = "example.com/gpu"
	ctr := func(reqs map[api.ResourceName]int64) api.Container {
		c := api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{}}}
		for n, v := range reqs {
			c.Resources.Requests[n] = quantity.NewQuantity(v, quantity.DecimalSI)
		}
		return c
	}
	sidecar := func(c api.Container) api.Container {
		p := api.ContainerRestartPolicyAlways
		c.RestartPolicy = &p
		return c
	}
	pod := func(init []api.Container, cs ...api.Container) *api.Pod {
		return &api.Pod{Spec: api.PodSpec{InitContainers: init, Containers: cs}}
	}
	pod1 := pod(nil, ctr(map[api.ResourceName]int64{ext: 1, ext + "1": 2}))
	pod2 := pod(nil, ctr(map[api.ResourceName]int64{ext: 1}), ctr(map[api.ResourceName]int64{ext + "1": 2}))
	podInit := pod([]api.Container{ctr(map[api.ResourceName]int64{ext + "init": 2})}, ctr(map[api.ResourceName]int64{ext: 1}))
	podInit2 := pod([]api.Container{ctr(map[api.ResourceName]int64{ext + "init": 1}), ctr(map[api.ResourceName]int64{ext + "init": 2})},
		ctr(map[api.ResourceName]int64{ext: 1}))
	podInit3 := pod([]api.Container{ctr(map[api.ResourceName]int64{ext + "init": 1}), sidecar(ctr(map[api.ResourceName]int64{ext + "init": 1})),
		ctr(map[api.ResourceName]int64{ext + "init": 2})}, ctr(map[api.ResourceName]int64{ext: 1}))
	class := func(n string) *api.DeviceClass { c := &api.DeviceClass{}; c.Name = n; return c }
	devMap := map[api.ResourceName]*api.DeviceClass{ext: class("class")}
	devMap2 := map[api.ResourceName]*api.DeviceClass{ext: class("class"), ext + "1": class("class1")}
	devMapInit := map[api.ResourceName]*api.DeviceClass{ext: class("class"), ext + "init": class("classInit")}
	req := func(name, class string, n int64) api.DeviceRequest {
		return api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{DeviceClassName: class, AllocationMode: api.DeviceAllocationModeExactCount, Count: n}}
	}
	tests := map[string]struct {
		pod       *api.Pod
		resources []api.ResourceName
		classes   map[api.ResourceName]*api.DeviceClass
		want      []api.DeviceRequest
	}{
		"nil":                {pod: pod1},
		"one resource match": {pod: pod1, resources: []api.ResourceName{ext}, classes: devMap, want: []api.DeviceRequest{req("container-0-request-0", "class", 1)}},
		"one resource match, one resource not match": {pod: pod1, resources: []api.ResourceName{ext, ext + "1"}, classes: devMap, want: []api.DeviceRequest{req("container-0-request-0", "class", 1)}},
		"two resources match": {pod: pod1, resources: []api.ResourceName{ext, ext + "1"}, classes: devMap2,
			want: []api.DeviceRequest{req("container-0-request-0", "class", 1), req("container-0-request-1", "class1", 2)}},
		"two containers match": {pod: pod2, resources: []api.ResourceName{ext, ext + "1"}, classes: devMap2,
			want: []api.DeviceRequest{req("container-0-request-0", "class", 1), req("container-1-request-0", "class1", 2)}},
		"one init container, one regular container": {pod: podInit, resources: []api.ResourceName{ext, ext + "init"}, classes: devMapInit,
			want: []api.DeviceRequest{req("container-0-request-0", "classInit", 2), req("container-1-request-0", "class", 1)}},
		"two init containers, one regular container": {pod: podInit2, resources: []api.ResourceName{ext, ext + "init"}, classes: devMapInit,
			want: []api.DeviceRequest{req("container-1-request-0", "classInit", 2), req("container-2-request-0", "class", 1)}},
		"three init containers, one sidecar, one regular container": {pod: podInit3, resources: []api.ResourceName{ext, ext + "init"}, classes: devMapInit,
			want: []api.DeviceRequest{req("container-1-request-0", "classInit", 1), req("container-2-request-0", "classInit", 2), req("container-3-request-0", "class", 1)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, _ := dra.ExtendedRequests(tc.pod, tc.resources, func(n api.ResourceName) *api.DeviceClass { return tc.classes[n] })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtendedResourceClasses pins the extended resource cache of
// k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache
// fed with the classes in name order: the newer class keeps a shared
// name, the lower name on a tie, and a class losing when it is added
// gets no mapping at all.
func TestExtendedResourceClasses(t *testing.T) {
	at := func(name, ext string, sec int64) *api.DeviceClass {
		c := &api.DeviceClass{}
		c.Name = name
		c.CreationTimestamp = api.NewTime(time.Unix(sec, 0))
		if ext != "" {
			c.Spec.ExtendedResourceName = &ext
		}
		return c
	}
	names := func(m map[api.ResourceName]*api.DeviceClass) map[api.ResourceName]string {
		out := map[api.ResourceName]string{}
		for k, v := range m {
			out[k] = v.Name
		}
		return out
	}
	const p = api.ResourceDeviceClassPrefix
	tests := []struct {
		name    string
		classes []*api.DeviceClass
		want    map[api.ResourceName]string
	}{
		{"explicit and implicit", []*api.DeviceClass{at("a", "example.com/gpu", 1), at("b", "", 1)},
			map[api.ResourceName]string{"example.com/gpu": "a", p + "a": "a", p + "b": "b"}},
		{"newer added later wins", []*api.DeviceClass{at("a", "example.com/gpu", 1), at("b", "example.com/gpu", 2)},
			map[api.ResourceName]string{"example.com/gpu": "b", p + "a": "a", p + "b": "b"}},
		{"older added later gets nothing", []*api.DeviceClass{at("a", "example.com/gpu", 2), at("b", "example.com/gpu", 1)},
			map[api.ResourceName]string{"example.com/gpu": "a", p + "a": "a"}},
		{"tie: the lower name, seen first, stays", []*api.DeviceClass{at("b", "example.com/gpu", 1), at("a", "example.com/gpu", 1)},
			map[api.ResourceName]string{"example.com/gpu": "a", p + "a": "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(dra.ExtendedResourceClasses(tc.classes))); diff != "" {
				t.Errorf("mapping (-want +got):\n%s", diff)
			}
		})
	}
}
