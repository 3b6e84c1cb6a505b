package resource_test

import (
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

func requirements(req, lim api.ResourceList) api.ResourceRequirements {
	return api.ResourceRequirements{Requests: req, Limits: lim}
}

// A pod's requests: the sidecar (an init container with restartPolicy
// Always) adds to the app container; the regular init container runs
// before both, alongside the sidecars started before it.
func ExamplePodRequests() {
	always := api.ContainerRestartPolicyAlways
	pod := &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{
			{Name: "proxy", RestartPolicy: &always, Resources: requirements(api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("64Mi")}, nil)},
			{Name: "migrate", Resources: requirements(api.ResourceList{"cpu": resource.MustParse("2"), "memory": resource.MustParse("128Mi")}, nil)},
		},
		Containers: []api.Container{
			{Name: "app", Resources: requirements(api.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("1Gi")}, nil)},
		},
		Overhead: api.ResourceList{"cpu": resource.MustParse("250m")},
	}}
	reqs := resource.PodRequests(pod, resource.PodResourcesOptions{})
	cpu, mem := reqs["cpu"], reqs["memory"]
	fmt.Println("cpu:", cpu.String())
	fmt.Println("memory:", mem.String())
	noOverhead := resource.PodRequests(pod, resource.PodResourcesOptions{ExcludeOverhead: true})
	cpu = noOverhead["cpu"]
	fmt.Println("cpu without overhead:", cpu.String())
	// Output:
	// cpu: 2350m
	// memory: 1088Mi
	// cpu without overhead: 2100m
}

// The scheduler counts a container without cpu or memory requests as
// asking for 100m and 200Mi when it scores nodes.
func ExampleNonZeroRequests() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{
		{Name: "a"},
		{Name: "b", Resources: requirements(api.ResourceList{"memory": resource.MustParse("1Gi")}, nil)},
	}}}
	milliCPU, memory := resource.NonZeroRequests(pod)
	fmt.Println(milliCPU, memory)
	// Output: 200 1283457024
}

// A LimitRange fills in the missing requests and limits, then checks its
// bounds; a violation leaves the pod as it was.
func ExampleApplyLimitRanges() {
	lr := api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "limits", Namespace: "shop"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
			Type:           api.LimitTypeContainer,
			Default:        api.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("512Mi")},
			DefaultRequest: api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("128Mi")},
			Min:            api.ResourceList{"cpu": resource.MustParse("50m")},
		}}},
	}
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "web"}}}}
	if err := resource.ApplyLimitRanges(pod, []api.LimitRange{lr}); err != nil {
		fmt.Println(err)
	}
	r := pod.Spec.Containers[0].Resources
	cpuReq, cpuLim := r.Requests["cpu"], r.Limits["cpu"]
	fmt.Println("cpu:", cpuReq.String(), "to", cpuLim.String())
	fmt.Println(pod.Annotations[resource.LimitRangerAnnotation])

	small := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "small", Namespace: "shop"}, Spec: api.PodSpec{Containers: []api.Container{
		{Name: "tiny", Resources: requirements(api.ResourceList{"cpu": resource.MustParse("10m")}, nil)},
	}}}
	err := resource.ApplyLimitRanges(small, []api.LimitRange{lr})
	fmt.Println(err)
	var v *resource.LimitRangeError
	if errors.As(err, &v) {
		fmt.Println(v)
	}
	// Output:
	// cpu: 100m to 500m
	// LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web
	// pods "small" is forbidden: minimum cpu usage per Container is 50m, but request is 10m
	// LimitRange "shop/limits": container "tiny" (spec.containers[0]): minimum cpu usage per Container is 50m, but request is 10m
}

// Validate reports every problem with the field it is in, as the API
// server prints a list of field errors.
func ExampleValidate() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name:  "web",
		Image: "nginx:1.27",
		Resources: requirements(
			api.ResourceList{"cpu": resource.MustParse("2"), "memory": resource.MustParse("-1")},
			api.ResourceList{"cpu": resource.MustParse("1")},
		),
	}}}}
	fmt.Println(resource.Validate(pod))
	// Output:
	// [spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1, spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0]
}

// Resource lists add, subtract and compare per name.
func ExampleSubtract() {
	allocatable := api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi")}
	requested := api.ResourceList{"cpu": resource.MustParse("1500m"), "memory": resource.MustParse("3Gi")}
	free := resource.Subtract(allocatable, requested)
	for _, name := range resource.ResourceNames(free) {
		q := free[name]
		fmt.Println(name, q.String())
	}
	fits, over := resource.LessThanOrEqual(api.ResourceList{"cpu": resource.MustParse("3")}, free)
	fmt.Println(fits, over)
	// Output:
	// cpu 2500m
	// memory 5Gi
	// false [cpu]
}
