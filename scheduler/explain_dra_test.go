package scheduler

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// draCluster is a small cluster for explain's devices: gpu-1 publishes
// gpu-0 and gpu-1, gpu-2 publishes gpu-0 (held by claim "held"), cpu-1
// publishes nothing and small-1 publishes gpu-0 but has too little cpu.
func draCluster(t *testing.T) *Scheduler {
	t.Helper()
	node := func(name, cpu string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
		n.Status.Allocatable = api.ResourceList{"cpu": quantity.MustParse(cpu), "memory": quantity.MustParse("8Gi"), "pods": quantity.MustParse("10")}
		return n
	}
	slice := func(node string, devs ...string) *api.ResourceSlice {
		s := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: node + "-gpu"}}
		s.Spec.Driver, s.Spec.NodeName = "gpu.example.com", ptr(node)
		s.Spec.Pool = api.ResourcePool{Name: node, ResourceSliceCount: 1}
		for _, d := range devs {
			s.Spec.Devices = append(s.Spec.Devices, api.Device{Name: d})
		}
		return s
	}
	snap, err := cluster.NewSnapshot([]*api.Node{node("gpu-1", "4"), node("gpu-2", "4"), node("cpu-1", "4"), node("small-1", "100m")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	class := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	held := draClaim("held", 1)
	held.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
		{Request: "gpu", Driver: "gpu.example.com", Pool: "gpu-2", Device: "gpu-0"}}}}
	if err := snap.AddObjects(class, slice("gpu-1", "gpu-0", "gpu-1"), slice("gpu-2", "gpu-0"), slice("small-1", "gpu-0"), held,
		draClaim("one", 1), draClaim("two", 2), draClaim("three", 3)); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func draClaim(name string, count int64) *api.ResourceClaim {
	c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "claim-" + name}}
	c.Spec.Devices.Requests = []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{DeviceClassName: "gpu",
		AllocationMode: api.DeviceAllocationModeExactCount, Count: count}}}
	return c
}

// draPod asks for 500m cpu and the claim named claim, by name.
func draPod(name, claim string) *api.Pod {
	p := makePod(name)
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "accel", ResourceClaimName: ptr(claim)}}
	p.Spec.Containers = []api.Container{{Name: "c", Image: "i", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"cpu": quantity.MustParse("500m")}, Claims: []api.ContainerResourceClaim{{Name: "accel"}}}}}
	return p
}

// devicesLine is one node's devices in a test's words: "ok: req=pool/dev,…"
// or the status's plugin and reasons.
func devicesLine(nd *NodeDevices) string {
	if nd == nil {
		return "-"
	}
	if !nd.Status.IsSuccess() {
		return fmt.Sprintf("%s %s: %s", nd.Status.Code(), nd.Status.Plugin(), strings.Join(nd.Status.Reasons(), "; "))
	}
	var parts []string
	for _, c := range nd.Claims {
		for _, d := range c.Devices {
			w := fmt.Sprintf("%s/%s/%s=%s/%s", c.PodClaim, c.Claim, d.Request, d.Pool, d.Device)
			if c.Allocated {
				w += "(allocated)"
			}
			parts = append(parts, w)
		}
	}
	return "ok: " + strings.Join(parts, ",")
}

// TestExplainDevices pins Explain's devices per node: the allocator's
// pick on each feasible node, DynamicResources' own reason on a node it
// rejects, and its verdict on a node another plugin rejected.
func TestExplainDevices(t *testing.T) {
	for _, c := range []struct {
		name  string
		pod   *api.Pod
		nodes map[string]string
	}{
		{"one device", draPod("p", "one"), map[string]string{
			"gpu-1":   "ok: accel/one/gpu=gpu-1/gpu-0",
			"gpu-2":   "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
			"cpu-1":   "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
			"small-1": "ok: accel/one/gpu=small-1/gpu-0",
		}},
		{"two devices", draPod("p", "two"), map[string]string{
			"gpu-1":   "ok: accel/two/gpu=gpu-1/gpu-0,accel/two/gpu=gpu-1/gpu-1",
			"gpu-2":   "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
			"cpu-1":   "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
			"small-1": "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
		}},
		{"three devices fit nowhere", draPod("p", "three"), map[string]string{
			"gpu-1": "UnschedulableAndUnresolvable DynamicResources: cannot allocate all claims",
		}},
		{"allocated claim", draPod("p", "held"), map[string]string{
			"gpu-2": "ok: accel/held/gpu=gpu-2/gpu-0(allocated)",
			"gpu-1": "ok: accel/held/gpu=gpu-2/gpu-0(allocated)",
		}},
		{"missing claim", draPod("p", "absent"), map[string]string{
			"gpu-1": `UnschedulableAndUnresolvable DynamicResources: could not find ResourceClaim "default/absent"`,
		}},
		{"no claims", makePod("p"), map[string]string{"gpu-1": "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := draCluster(t)
			ex, err := s.Explain(context.Background(), c.pod)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, n := range ex.Nodes {
				got[n.Name] = devicesLine(n.Devices)
			}
			for n, want := range c.nodes {
				if got[n] != want {
					t.Errorf("%s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}

// TestExplainDevicesChosen: the chosen node's devices are those Reserve
// writes when the pod is assumed there.
func TestExplainDevicesChosen(t *testing.T) {
	s := draCluster(t)
	pod := draPod("p", "one")
	ex, err := s.Explain(context.Background(), pod)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Node != "gpu-1" {
		t.Fatalf("node %q, want gpu-1", ex.Node)
	}
	var want string
	for _, n := range ex.Nodes {
		if n.Name == ex.Node {
			want = devicesLine(n.Devices)
		}
	}
	if err := s.Assume(pod, ex.Node); err != nil {
		t.Fatal(err)
	}
	c, _ := cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "default", "one")
	if c.Status.Allocation == nil {
		t.Fatal("claim not allocated by Assume")
	}
	got := devicesLine(&NodeDevices{Claims: []ClaimDevices{{PodClaim: "accel", Claim: "one", Devices: c.Status.Allocation.Devices.Results}}})
	if got != want {
		t.Errorf("assumed %q, explained %q", got, want)
	}
}
