package framework

import (
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

func shapePod() *api.Pod {
	res := api.ResourceList{api.ResourceCPU: quantity.MustParse("100m")}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "u", Labels: map[string]string{"app": "a"}},
		Spec: api.PodSpec{NodeSelector: map[string]string{"tier": "x"}, Containers: []api.Container{{
			Name: "c", Image: "pause", Resources: api.ResourceRequirements{Requests: res, Limits: res},
		}}},
	}
}

// A shape held by Refer is the pod's own: Alike holds for a copy of the
// pod under another name and not for another shape, Refer leaves the
// pod as it was, and the shape follows a change to the pod until Set
// copies it (the memo's second cycle), after which it no longer does.
func TestPodShapeRefer(t *testing.T) {
	pod := shapePod()
	before := pod.DeepCopy()
	var ps PodShape
	ps.Refer(pod)
	if !reflect.DeepEqual(pod, before) {
		t.Fatal("Refer changed the pod")
	}
	if !ps.Held() || !ps.Referred() {
		t.Fatal("Refer: no shape held, or not as referred")
	}
	other := pod.DeepCopy()
	other.Name, other.UID = "q", "v"
	if !ps.Alike(other) {
		t.Error("a copy under another name has another shape")
	}
	changed := pod.DeepCopy()
	changed.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = quantity.MustParse("200m")
	if ps.Alike(changed) {
		t.Error("another request has the same shape")
	}

	// The referred shape follows the pod.
	pod.Labels["app"] = "b"
	if ps.Alike(other) {
		t.Error("the pod changed, its old shape still held")
	}
	relabelled := other.DeepCopy()
	relabelled.Labels["app"] = "b"
	if !ps.Alike(relabelled) {
		t.Error("the pod changed, its new shape not held")
	}

	// Set copies: a later change to the pod is not seen.
	ps.Set(pod)
	if ps.Referred() {
		t.Error("Set: still referred")
	}
	pod.Labels["app"] = "c"
	if !ps.Alike(relabelled) {
		t.Error("Set's shape followed a change to the pod")
	}
	ps.Clear()
	if ps.Held() || ps.Referred() || ps.Alike(relabelled) {
		t.Error("Clear: a shape still held")
	}
}
