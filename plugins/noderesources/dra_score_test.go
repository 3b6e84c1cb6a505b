package noderesources

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/quantity"
)

const draTestDriver = "test-driver"

var draTestClass = func() *api.DeviceClass {
	c := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "device-class-name"}}
	c.Spec.ExtendedResourceName = fitPtr(string(extendedResourceDRA))
	return c
}()

// draSlice is st.MakeResourceSlice(node, driver).Devices(devs...): a
// node-local slice whose pool is named after the node.
func draSlice(node string, devs ...string) *api.ResourceSlice {
	s := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: node + "-" + draTestDriver}}
	s.Spec.Driver, s.Spec.NodeName = draTestDriver, fitPtr(node)
	s.Spec.Pool = api.ResourcePool{Name: node, ResourceSliceCount: 1}
	for _, d := range devs {
		s.Spec.Devices = append(s.Spec.Devices, api.Device{Name: d})
	}
	return s
}

func draAllocated(name, pool, dev string, share *string) *api.ResourceClaim {
	c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	c.Spec.Devices.Requests = []api.DeviceRequest{{Name: "req-1", Exactly: &api.ExactDeviceRequest{DeviceClassName: draTestClass.Name,
		AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}
	c.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
		{Request: "req-1", Driver: draTestDriver, Pool: pool, Device: dev, ShareID: share}}}}
	return c
}

// TestCalculateResourceAllocatableRequestDRA pins upstream's
// TestCalculateResourceAllocatableRequest (resource_allocation_test.go)
// with DRAExtendedResource on, as v1.37.2 locks it: the node's
// allocatable and allocated amounts of the extended resource, from its
// device plugin or from the DRA devices of the class behind it. The
// feature-disabled row is left out: the gate cannot be turned off.
func TestCalculateResourceAllocatableRequestDRA(t *testing.T) {
	const nodeName = "resource-node"
	explicit := extendedResourceDRA
	implicit := api.ResourceName(api.ResourceDeviceClassPrefix + draTestClass.Name)
	perDeviceClass := func() *api.DeviceClass {
		c := *draTestClass
		c.Spec.Selectors = []api.DeviceSelector{{CEL: &api.CELDeviceSelector{
			Expression: `device.driver == "test-driver" && device.capacity["test-driver"].memory.compareTo(quantity("8Gi")) >= 0 && device.attributes["test-driver"].model.startsWith("SOME-")`}}}
		return &c
	}()
	gpu := func(name string, model, mem string) api.Device {
		return api.Device{Name: name,
			Attributes: map[api.QualifiedName]api.DeviceAttribute{"model": {StringValue: fitPtr(model)}},
			Capacity:   map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse(mem)}}}
	}
	perDevice := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "per-device-slice"}}
	perDevice.Spec.Driver = draTestDriver
	perDevice.Spec.Pool = api.ResourcePool{Name: "per-device-pool", ResourceSliceCount: 1}
	perDevice.Spec.PerDeviceNodeSelection = fitPtr(true)
	d1, d2, d3 := gpu("device-1", "SOME-XYZ", "16Gi"), gpu("device-2", "SOME-ZYX", "12Gi"), gpu("device-3", "SOME-XZY", "24Gi")
	d1.NodeName, d2.NodeName = fitPtr(nodeName), fitPtr("other-node")
	d3.NodeSelector = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
		{Key: "zone", Operator: api.NodeSelectorOpIn, Values: []string{"us-east-1a"}}}}}}
	perDevice.Spec.Devices = []api.Device{d1, d2, d3}

	for _, tc := range []struct {
		name          string
		allocatable   api.ResourceList
		labels        map[string]string
		resource      api.ResourceName
		objs          []any
		wantAlloc     int64
		wantAllocated int64
	}{
		{name: "device-plugin-resource-feature-enabled", allocatable: api.ResourceList{explicit: quantity.MustParse("4")},
			resource: explicit, wantAlloc: 4},
		{name: "DRA-backed-resource-explicit", resource: explicit, objs: []any{draTestClass, draSlice(nodeName, "device-1")}, wantAlloc: 1},
		{name: "DRA-backed-resource-implicit", resource: implicit,
			objs: []any{&api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: draTestClass.Name}}, draSlice(nodeName, "device-1")}, wantAlloc: 1},
		{name: "DRA-backed-resource-no-slices", resource: explicit, objs: []any{draTestClass}},
		{name: "DRA-backed-resource-with-allocated-device", resource: explicit,
			objs:      []any{draTestClass, draSlice(nodeName, "device-1", "device-2"), draAllocated("test-claim", nodeName, "device-1", nil)},
			wantAlloc: 2, wantAllocated: 1},
		{name: "DRA-backed-resource-with-shared-device-allocation", resource: explicit,
			objs:      []any{draTestClass, draSlice(nodeName, "device-1", "device-2"), draAllocated("test-claim", nodeName, "device-1", fitPtr("share-123"))},
			wantAlloc: 2, wantAllocated: 1},
		{name: "DRA-backed-resource-multiple-devices-mixed-allocation", resource: explicit,
			objs: []any{draTestClass, draSlice(nodeName, "device-1", "device-2", "device-3"),
				draAllocated("test-claim-1", nodeName, "device-1", nil), draAllocated("test-claim-2", nodeName, "device-2", fitPtr("share-456"))},
			wantAlloc: 3, wantAllocated: 2},
		{name: "DRA-backed-resource-with-per-device-node-selection", resource: explicit, labels: map[string]string{"zone": "us-east-1a"},
			objs:      []any{perDeviceClass, perDevice, draAllocated("test-claim", "per-device-pool", "device-1", nil)},
			wantAlloc: 2, wantAllocated: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{ObjectMeta: api.ObjectMeta{Name: nodeName, Labels: tc.labels}}
			node.Status.Allocatable = tc.allocatable
			snap := snapshot(t, []*api.Node{node}, nil)
			if err := snap.AddObjects(tc.objs...); err != nil {
				t.Fatal(err)
			}
			p, err := NewFit(&config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated,
				Resources: []config.ResourceSpec{{Name: string(tc.resource), Weight: 1}}}}, fitDRAHandle{snap})
			if err != nil {
				t.Fatal(err)
			}
			ni := snap.View().Nodes()[0]
			alloc, allocated := ni.Allocatable.Scalar(tc.resource), ni.Requested.Scalar(tc.resource)
			if alloc == 0 {
				d, st := p.(*Fit).dra.forPod()
				if st != nil {
					t.Fatal(st)
				}
				if ext := d.amounts(); ext != nil {
					alloc, allocated = ext(0, ni)
				}
			}
			if alloc != tc.wantAlloc || allocated != tc.wantAllocated {
				t.Errorf("allocatable %d, allocated %d; want %d, %d", alloc, allocated, tc.wantAlloc, tc.wantAllocated)
			}
		})
	}
}

// TestFitScoreDRA pins the two DRA rows of upstream's TestFitScore
// ("test case for ScoringStrategy LeastAllocated with Extended
// resources", with and without PreScore): the devices of the class on
// each node stand for the resource's allocatable.
func TestFitScoreDRA(t *testing.T) {
	for _, preScore := range []bool{true, false} {
		nodes := []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "node1"}}, {ObjectMeta: api.ObjectMeta{Name: "node2"}}}
		snap := snapshot(t, nodes, nil)
		if err := snap.AddObjects(draTestClass, draSlice("node1", "device-1", "device-2", "device-3"), draSlice("node2", "device-1", "device-2")); err != nil {
			t.Fatal(err)
		}
		p, err := NewFit(&config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated,
			Resources: []config.ResourceSpec{{Name: string(extendedResourceDRA), Weight: 1}}}}, fitDRAHandle{snap})
		if err != nil {
			t.Fatal(err)
		}
		pod := newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceDRA: 1}})
		got, _ := scoreNodes(t, p, pod, snap, nodes, preScore)
		checkScores(t, got, framework.NodeScoreList{{Name: "node1", Score: 66}, {Name: "node2", Score: 50}})
		scores := make([]int64, 2)
		state := framework.NewCycleState()
		if preScore {
			_ = p.(framework.PreScorePlugin).PreScore(t.Context(), state, pod, snap.Nodes())
		}
		if _, st := p.(*Fit).ScoreNodes(t.Context(), state, pod, snap.Nodes(), scores); st != nil {
			t.Fatal(st)
		}
		if scores[0] != 66 || scores[1] != 50 {
			t.Errorf("ScoreNodes: %v", scores)
		}
	}
}

// TestBalancedAllocationDRA pins the two DRA rows of upstream's
// TestNodeResourcesBalancedAllocation ("include DRA resource on a node
// for balanced resource allocation", with and without PreScore).
func TestBalancedAllocationDRA(t *testing.T) {
	for _, preScore := range []bool{true, false} {
		nodes := []*api.Node{makeNodeMilli("node1", 3500, 40000, nil), makeNodeMilli("node2", 3500, 40000, nil)}
		pods := []*api.Pod{
			makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
			makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
		}
		snap := snapshot(t, nodes, pods)
		devs := []string{"device-1", "device-2", "device-3", "device-4", "device-5", "device-6", "device-7", "device-8"}
		if err := snap.AddObjects(draTestClass, draSlice("node1", devs...)); err != nil {
			t.Fatal(err)
		}
		p, err := NewBalancedAllocation(&config.NodeResourcesBalancedAllocationArgs{Resources: []config.ResourceSpec{
			{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: string(extendedResourceDRA), Weight: 1}}}, fitDRAHandle{snap})
		if err != nil {
			t.Fatal(err)
		}
		pod := newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceDRA: 1}})
		got, _ := scoreNodes(t, p, pod, snap, nodes, preScore)
		checkScores(t, got, framework.NodeScoreList{{Name: "node1", Score: 76}, {Name: "node2", Score: 75}})
	}
}
