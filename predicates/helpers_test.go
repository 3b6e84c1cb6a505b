package predicates

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

// usage is what one container of newResourcePod requests, like upstream
// tests' framework.Resource: cpu in millicores, memory and ephemeral
// storage in bytes, scalars in units. Like upstream, cpu, memory, pods and
// ephemeral-storage are always set, even to zero.
type usage struct {
	cpu, mem, eph int64
	scalars       map[api.ResourceName]int64
}

// newResourcePod mirrors upstream's fit_test.go newResourcePod.
func newResourcePod(us ...usage) *api.Pod {
	var cs []api.Container
	for i, u := range us {
		rl := api.ResourceList{
			api.ResourceCPU:              resource.NewMilliQuantity(u.cpu, resource.DecimalSI),
			api.ResourceMemory:           resource.NewQuantity(u.mem, resource.BinarySI),
			api.ResourcePods:             resource.NewQuantity(0, resource.BinarySI),
			api.ResourceEphemeralStorage: resource.NewQuantity(u.eph, resource.BinarySI),
		}
		for n, v := range u.scalars {
			rl[n] = resource.NewQuantity(v, resource.DecimalSI)
		}
		cs = append(cs, api.Container{Name: fmt.Sprintf("c%d", i), Resources: api.ResourceRequirements{Requests: rl}})
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{Containers: cs}}
}

// newResourceInitPod mirrors upstream's newResourceInitPod.
func newResourceInitPod(pod *api.Pod, us ...usage) *api.Pod {
	pod.Spec.InitContainers = newResourcePod(us...).Spec.Containers
	for i := range pod.Spec.InitContainers {
		pod.Spec.InitContainers[i].Name = fmt.Sprintf("init%d", i)
	}
	return pod
}

func newResourceOverheadPod(pod *api.Pod, overhead api.ResourceList) *api.Pod {
	pod.Spec.Overhead = overhead
	return pod
}

func newPodLevelResourcesPod(pod *api.Pod, r api.ResourceRequirements) *api.Pod {
	pod.Spec.Resources = &r
	return pod
}

// makeAllocatableResources mirrors upstream's helper of that name.
func makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA int64) api.ResourceList {
	return api.ResourceList{
		api.ResourceCPU:              resource.NewMilliQuantity(milliCPU, resource.DecimalSI),
		api.ResourceMemory:           resource.NewQuantity(memory, resource.BinarySI),
		api.ResourcePods:             resource.NewQuantity(pods, resource.DecimalSI),
		extendedResourceA:            resource.NewQuantity(extendedA, resource.DecimalSI),
		api.ResourceEphemeralStorage: resource.NewQuantity(storage, resource.BinarySI),
		hugePageResourceA:            resource.NewQuantity(hugePageA, resource.BinarySI),
	}
}

var (
	extendedResourceA     = api.ResourceName("example.com/aaa")
	extendedResourceB     = api.ResourceName("example.com/bbb")
	kubernetesIOResourceA = api.ResourceName("kubernetes.io/something")
	kubernetesIOResourceB = api.ResourceName("subdomain.kubernetes.io/something")
	hugePageResourceA     = api.ResourceName("hugepages-2Mi")
)

func insufficient(n api.ResourceName) string { return "Insufficient " + string(n) }

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}

func pvcs(bs ...vbPVC) []*api.PersistentVolumeClaim {
	out := make([]*api.PersistentVolumeClaim, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolumeClaim
	}
	return out
}

func pvs(bs ...vbPV) []*api.PersistentVolume {
	out := make([]*api.PersistentVolume, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolume
	}
	return out
}
