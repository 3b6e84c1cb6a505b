package noderesources

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
)

// TestIsSchedulableAfterDeviceClassEvent pins upstream's
// Test_isSchedulableAfterDeviceClassChange (fit_test.go), row by row
// under upstream's names.
func TestIsSchedulableAfterDeviceClassEvent(t *testing.T) {
	ern := func(s string) *string { return &s }
	podWith := func(name string) *api.Pod {
		p := &api.Pod{}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceName(name): quantity.MustParse("1")}}}}
		return p
	}
	memPod := podWith("memory")
	class := func(name string, n *string) *api.DeviceClass {
		c := &api.DeviceClass{}
		c.Name = name
		c.Spec.ExtendedResourceName = n
		return c
	}
	implicit := "deviceclass.resource.kubernetes.io/gpuclass"
	for _, tc := range []struct {
		name     string
		pod      *api.Pod
		old, new any
		want     framework.QueueingHint
	}{
		{"backoff-wrong-new-object", &api.Pod{}, nil, "not-a-class", framework.Queue},
		{"backoff-wrong-old-object", &api.Pod{}, "not-a-class", &api.DeviceClass{}, framework.Queue},
		{"skip-queue-on-class-nil-extended-resource-name-pointer", memPod, class("", nil), class("", nil), framework.QueueSkip},
		{"skip-queue-on-class-same-extended-resource-name-pointer", memPod, class("", ern("example.com/gpu")), class("", ern("example.com/gpu")), framework.QueueSkip},
		{"skip-queue-on-class-same-extended-resource-name", memPod, class("", ern("example.com/gpu")), class("", ern("example.com/gpu")), framework.QueueSkip},
		{"queue-on-class-add-with-implicit-extended-resource-name", podWith(implicit), nil, class("gpuclass", ern("example.com/gpu")), framework.Queue},
		{"skip-on-class-add-with-implicit-extended-resource-name-not-matching", podWith(implicit), nil, class("myclass", ern("example.com/gpu")), framework.QueueSkip},
		{"skip-on-class-add-with-explicit-extended-resource-name-not-matching", podWith("example.com/othergpu"), nil, class("myclass", ern("example.com/gpu")), framework.QueueSkip},
		{"skip-on-class-update-with-implicit-extended-resource-name", podWith(implicit), class("gpuclass", nil), class("gpuclass", ern("example.com/gpu")), framework.QueueSkip},
		{"queue-on-class-add-with-extended-resource-name", podWith("example.com/gpu"), nil, class("", ern("example.com/gpu")), framework.Queue},
		{"queue-on-class-update-with-extended-resource-name", podWith("example.com/gpu"), class("", ern("example.com/gpu1")), class("", ern("example.com/gpu")), framework.Queue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind := framework.DeviceClassUpdate
			if tc.old == nil {
				kind = framework.DeviceClassAdd
			}
			pl := &Fit{}
			if got := pl.QueueingHint(tc.pod, framework.Event{Kind: kind, Old: tc.old, New: tc.new}); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
