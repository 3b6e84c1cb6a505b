package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// TestPropContainerRequestsMatchesPodRequests: for every pod it takes,
// the containers-only fast path derives the requests, the non-zero
// requests and the validation error resource.PodRequests and
// resource.NonZeroRequests give.
func TestPropContainerRequestsMatchesPodRequests(t *testing.T) {
	odd := []string{"0.0005", "1m", "100Mi", "1.5", "3", "0", "7Ki", "1e3", "9223372036854775807", "9223372036854775807m", "-1", "-250m"}
	names := []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, api.ResourcePods,
		resourcegen.GPU, resourcegen.HugePages2Mi, "storage", "kubernetes.io/batch", "example.com/a", "example.com/b",
		"example.com/c", "example.com/d", "example.com/e"}
	fast := 0
	rapid.Check(t, func(t *rapid.T) {
		pod := resourcegen.Pod().Draw(t, "pod")
		if rapid.IntRange(0, 3).Draw(t, "plain") > 0 {
			pod.Spec.InitContainers, pod.Spec.Overhead, pod.Spec.Resources = nil, nil, nil
		}
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			for range rapid.IntRange(0, 3).Draw(t, "extra") {
				if c.Resources.Requests == nil {
					c.Resources.Requests = api.ResourceList{}
				}
				name := rapid.SampledFrom(names).Draw(t, "name")
				c.Resources.Requests[name] = quantity.MustParse(rapid.SampledFrom(odd).Draw(t, "quantity"))
			}
		}
		switch rapid.IntRange(0, 9).Draw(t, "status") {
		case 0:
			pod.Status.ContainerStatuses = []api.ContainerStatus{{Name: pod.Spec.Containers[0].Name,
				AllocatedResources: api.ResourceList{api.ResourceCPU: quantity.MustParse("3")}}}
		case 1:
			pod.Status.Conditions = []api.PodCondition{{Type: api.PodResizePending, Reason: resource.PodReasonInfeasible}}
		case 2:
			pod.Status.Conditions = []api.PodCondition{{Type: api.PodResizePending, Reason: resource.PodReasonDeferred}}
		}
		for _, check := range []bool{false, true} {
			want := &PodInfo{Pod: pod}
			wantErr := want.podRequests(check, nil)
			got := &PodInfo{Pod: pod}
			ok, gotErr := got.containerRequests(check)
			if !ok {
				continue
			}
			fast++
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("check %v: fast path error %v, PodRequests %v", check, gotErr, wantErr)
			}
			if gotErr != nil {
				// With several bad totals PodRequests reports the first
				// its map yields, so only the kind of error is pinned.
				continue
			}
			if !got.Requests.Equal(want.Requests) || got.NonZeroMilliCPU != want.NonZeroMilliCPU || got.NonZeroMemory != want.NonZeroMemory {
				t.Fatalf("check %v: fast path %+v %d %d, PodRequests %+v %d %d", check,
					got.Requests, got.NonZeroMilliCPU, got.NonZeroMemory, want.Requests, want.NonZeroMilliCPU, want.NonZeroMemory)
			}
			if r, ok := ContainerRequests(pod); !ok || !r.Equal(want.Requests) {
				t.Fatalf("ContainerRequests: %+v %v, PodRequests %+v", r, ok, want.Requests)
			}
		}
	})
	if fast == 0 {
		t.Fatal("the fast path never ran")
	}
	t.Log(fmt.Sprint(fast, " fast-path comparisons"))
}
