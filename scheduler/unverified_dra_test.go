package scheduler

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// TestDRAExtendedMarks: a pod asking for an extended resource that a
// DeviceClass maps and a node lacks is unverified; one that every node
// advertises, or no class maps, is not.
func TestDRAExtendedMarks(t *testing.T) {
	gpuName := "example.com/gpu"
	n1 := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	n1.Status.Allocatable = api.ResourceList{"example.com/fpga": quantity.MustParse("1")}
	snap, err := cluster.NewSnapshot([]*api.Node{n1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	class := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	class.Spec.ExtendedResourceName = &gpuName
	fpga := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "fpga"}}
	fpga.Spec.ExtendedResourceName = ptr("example.com/fpga")
	if err := snap.AddObjects(class, fpga); err != nil {
		t.Fatal(err)
	}
	pod := func(res ...string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}
		c := api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{}}}
		for _, r := range res {
			c.Resources.Requests[api.ResourceName(r)] = quantity.MustParse("1")
		}
		p.Spec.Containers = []api.Container{c}
		return p
	}
	for _, tc := range []struct {
		pod  *api.Pod
		want []string
	}{
		{pod("example.com/gpu"), []string{"requests example.com/gpu, which a DeviceClass maps (DRA extended resources not implemented)"}},
		{pod("deviceclass.resource.kubernetes.io/gpu"), []string{"requests deviceclass.resource.kubernetes.io/gpu, which a DeviceClass maps (DRA extended resources not implemented)"}},
		{pod("example.com/fpga"), nil},
		{pod("example.com/other"), nil},
	} {
		if got := draExtendedMarks(tc.pod, snap); !cmp.Equal(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.pod.Spec.Containers[0].Resources.Requests, got, tc.want)
		}
	}
}
