package conformance

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	fwk "k8s.io/kube-scheduler/framework"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/quantity"
)

// The DRA stream workloads are v1.37.2's scheduler_perf DRA workloads
// (test/integration/scheduler_perf/dra/performance-config.yaml and
// extendedresource/performance-config.yaml, templates/) at 500 nodes:
// nodes scheduler-perf-dra-<i>, one ResourceSlice of ten devices each
// (resourceslice-basic-devices.yaml, attributes and capacity included),
// and the initial claims allocated, five devices per node.
//
//   - SchedulingWithResourceClaimTemplate/5000pods_500nodes: class
//     test-class, 2,500 initial claims allocated (allocResourceClaims),
//     each measured pod with a claim generated from
//     test-claim-template (one device of test-class), made before the
//     pod is scheduled as the resourceclaim controller makes it.
//   - ExtendedResource/Explicit_25classes_5000pods_500nodes: classes
//     test-class-<k> with extendedResourceName example.com/gpu-<k>,
//     2,500 initial pods' extended resource claims allocated, each
//     measured pod requesting example.com/gpu-<i mod 25>: 1.
//
// Only DynamicResources runs (the pods fit every other plugin of the
// default profile on these nodes): per measured pod PreFilter, Filter
// on every node, Score on the feasible ones, the first best node, and
// Reserve, whose allocation the next pod sees (upstream: the in-flight
// allocation in its claim tracker; schedkit: the plugin's assumed
// state).
type draStreamWorkload struct {
	name     string
	nodes    []*api.Node
	objects  []any
	measured func(i int) (*api.Pod, *api.ResourceClaim)
	// measurePods is the workload's measurePods at 5,000 pods.
	measurePods int
}

const draDriver = "test-driver.cdi.k8s.io"

func draStreamNodes(n int) []*api.Node {
	nodes := make([]*api.Node, n)
	for i := range n {
		name := fmt.Sprintf("scheduler-perf-dra-%d", i)
		capacity := sbList("pods", "110", "cpu", "4", "memory", "32Gi")
		nodes[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, Labels: map[string]string{"node-with-dra": "true"}},
			Status: api.NodeStatus{Capacity: capacity, Allocatable: capacity,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
	}
	return nodes
}

// draStreamSlice is resourceslice-basic-devices.yaml for node i.
func draStreamSlice(i int) *api.ResourceSlice {
	str := func(s string) api.DeviceAttribute { return api.DeviceAttribute{StringValue: &s} }
	s := &api.ResourceSlice{}
	s.Name = fmt.Sprintf("resourceslice-%d", i)
	s.Spec.Driver = draDriver
	s.Spec.Pool = api.ResourcePool{Name: s.Name, Generation: 1, ResourceSliceCount: 1}
	node := fmt.Sprintf("scheduler-perf-dra-%d", i)
	s.Spec.NodeName = &node
	for d := range 10 {
		ver, yes := "1.2.3", true
		s.Spec.Devices = append(s.Spec.Devices, api.Device{
			Name: fmt.Sprintf("basic-device-%d", d),
			Attributes: map[api.QualifiedName]api.DeviceAttribute{
				"driver": str("xe"), "driverVersion": {VersionValue: &ver},
				"resource.k8s.io/pciRoot": str(fmt.Sprint(d % 2)), "family": str("Arc Pro B-Series"),
				"health": str("Healthy"), "model": str("B60"), "pciAddress": str(fmt.Sprintf("0000:0%d:00.0", d)),
				"pciId": str("0xe211"), "pciRoot": str(fmt.Sprintf("0%d", d%2)),
				"resource.kubernetes.io/pciBusID": str(fmt.Sprintf("0000:0%d:00.0", d)),
				"resource.kubernetes.io/pciRoot":  str(fmt.Sprintf("pci0000:0%d", d%2)),
				"sriov":                           {BoolValue: &yes}, "type": str("gpu"),
			},
			Capacity: map[api.QualifiedName]api.DeviceCapacity{
				"memory": {Value: quantity.MustParse("24480Mi")}, "millicores": {Value: quantity.MustParse("1k")},
			},
		})
	}
	return s
}

func draStreamClass(name string, ext *string) *api.DeviceClass {
	c := &api.DeviceClass{}
	c.Name = name
	c.Spec.Selectors = []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.driver == "test-driver.cdi.k8s.io"`}}}
	c.Spec.ExtendedResourceName = ext
	return c
}

// draHeldClaim is initial claim k, allocated device k/nodes of node
// k mod nodes.
func draHeldClaim(k, nodes int, ns, name, request, class string) *api.ResourceClaim {
	c := &api.ResourceClaim{}
	c.Namespace, c.Name, c.UID = ns, name, "uid-"+ns+"-"+name
	c.Spec.Devices.Requests = []api.DeviceRequest{{Name: request, Exactly: &api.ExactDeviceRequest{
		DeviceClassName: class, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}
	node := k % nodes
	c.Status.Allocation = &api.AllocationResult{
		Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{
			Request: request, Driver: draDriver, Pool: fmt.Sprintf("resourceslice-%d", node), Device: fmt.Sprintf("basic-device-%d", k/nodes)}}},
		NodeSelector: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{fmt.Sprintf("scheduler-perf-dra-%d", node)}}}}}},
	}
	return c
}

func draStreamWorkloads(nodes int) []draStreamWorkload {
	base := func() []any {
		var objs []any
		for i := range nodes {
			objs = append(objs, draStreamSlice(i))
		}
		return objs
	}
	held := nodes * 5
	tmpl := base()
	tmpl = append(tmpl, draStreamClass("test-class", nil))
	for k := range held {
		tmpl = append(tmpl, draHeldClaim(k, nodes, "init", fmt.Sprintf("test-claim-%d", k), "req-0", "test-class"))
	}
	ext := base()
	for k := range 25 {
		n := fmt.Sprintf("example.com/gpu-%d", k)
		ext = append(ext, draStreamClass(fmt.Sprintf("test-class-%d", k), &n))
	}
	for k := range held {
		c := draHeldClaim(k, nodes, "init", fmt.Sprintf("test-dra-%d-extended-resources-x", k), "container-0-request-0", fmt.Sprintf("test-class-%d", k%25))
		c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
		ext = append(ext, c)
	}
	return []draStreamWorkload{
		{name: fmt.Sprintf("SchedulingWithResourceClaimTemplate/%dpods_%dnodes", nodes*10, nodes), nodes: draStreamNodes(nodes), objects: tmpl,
			measurePods: held, measured: func(i int) (*api.Pod, *api.ResourceClaim) {
				name := fmt.Sprintf("test-dra-%d", i)
				claimName := name + "-resource-abcde"
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test", UID: "uid-test-" + name}}
				p.Spec.Containers = []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10.1"}}
				p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "resource", ResourceClaimTemplateName: draPtr("test-claim-template")}}
				p.Status.ResourceClaimStatuses = []api.PodResourceClaimStatus{{Name: "resource", ResourceClaimName: &claimName}}
				c := &api.ResourceClaim{}
				c.Namespace, c.Name, c.UID = "test", claimName, "uid-claim-"+name
				c.Annotations = map[string]string{api.PodResourceClaimAnnotation: "resource"}
				c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: name, UID: p.UID, Controller: draPtr(true), BlockOwnerDeletion: draPtr(true)}}
				c.Spec.Devices.Requests = []api.DeviceRequest{{Name: "req-0", Exactly: &api.ExactDeviceRequest{
					DeviceClassName: "test-class", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}
				return p, c
			}},
		{name: fmt.Sprintf("ExtendedResource/Explicit_25classes_%dpods_%dnodes", nodes*10, nodes), nodes: draStreamNodes(nodes), objects: ext,
			measurePods: held, measured: func(i int) (*api.Pod, *api.ResourceClaim) {
				name := fmt.Sprintf("test-dra-%d", i)
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test", UID: "uid-test-" + name}}
				r := api.ResourceList{api.ResourceName(fmt.Sprintf("example.com/gpu-%d", i%25)): quantity.MustParse("1")}
				p.Spec.Containers = []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.9",
					Resources: api.ResourceRequirements{Requests: r, Limits: r}}}
				return p, nil
			}},
	}
}

func draPtr[T any](v T) *T { return &v }

// draStreamLen is the measured pods of a stream: -stream.pods, else 200
// (the workloads' 2,500 take minutes upstream on a loaded machine).
func (w draStreamWorkload) streamLen() int {
	if *streamPodsFlag > 0 {
		return min(*streamPodsFlag, w.measurePods)
	}
	return min(200, w.measurePods)
}

// draSide places a stream of pods with one side's DynamicResources.
type draSide interface {
	// place runs the pod's cycle and reserves it on the first best node;
	// "" when no node fits.
	place(i int) (string, error)
}

type upDRAStream struct {
	ctx   context.Context
	up    *upstreamDRA
	order []fwk.NodeInfo
	pods  []*v1.Pod
}

func newUpDRAStream(ctx context.Context, t fataler, w draStreamWorkload, n int) *upDRAStream {
	var objs []any
	for _, o := range w.objects {
		objs = append(objs, draToUpstream(t, o))
	}
	s := &upDRAStream{ctx: ctx}
	for i := range n {
		p, c := w.measured(i)
		if c != nil {
			objs = append(objs, viaJSON[resourceapi.ResourceClaim](t, c))
		}
		s.pods = append(s.pods, viaJSON[v1.Pod](t, p))
	}
	var vnodes []*v1.Node
	for _, nd := range w.nodes {
		vnodes = append(vnodes, viaJSON[v1.Node](t, nd))
	}
	s.up = newUpstreamDRA(ctx, t, false, vnodes, objs...)
	byName := map[string]fwk.NodeInfo{}
	for _, ni := range s.up.nodes {
		byName[ni.Node().Name] = ni
	}
	for _, nd := range w.nodes {
		s.order = append(s.order, byName[nd.Name])
	}
	return s
}

func draToUpstream(t fataler, o any) any {
	switch o := o.(type) {
	case *api.ResourceSlice:
		return viaJSON[resourceapi.ResourceSlice](t, o)
	case *api.DeviceClass:
		return viaJSON[resourceapi.DeviceClass](t, o)
	case *api.ResourceClaim:
		return viaJSON[resourceapi.ResourceClaim](t, o)
	}
	t.Fatalf("unsupported %T", o)
	return nil
}

func (s *upDRAStream) place(i int) (string, error) {
	pod := s.pods[i]
	cs := schedframework.NewCycleState()
	if _, st := s.up.pl.PreFilter(s.ctx, cs, pod, s.up.nodes); !st.IsSuccess() {
		if st.IsSkip() {
			return s.order[0].Node().Name, nil
		}
		return "", fmt.Errorf("upstream PreFilter: %v", st)
	}
	best, bestScore := "", int64(-1)
	for _, ni := range s.order {
		if st := s.up.pl.Filter(s.ctx, cs, pod, ni); !st.IsSuccess() {
			continue
		}
		sc, st := s.up.pl.Score(s.ctx, cs, pod, ni)
		if !st.IsSuccess() {
			return "", fmt.Errorf("upstream Score: %v", st)
		}
		if sc > bestScore {
			best, bestScore = ni.Node().Name, sc
		}
	}
	if best == "" {
		return "", nil
	}
	if st := s.up.pl.Reserve(s.ctx, cs, pod, best); !st.IsSuccess() {
		return "", fmt.Errorf("upstream Reserve: %v", st)
	}
	return best, nil
}

type skDRAStream struct {
	ctx   context.Context
	pl    *dynamicresources.DynamicResources
	order []*cluster.NodeInfo
	pods  []*api.Pod
}

func newSkDRAStream(ctx context.Context, t fataler, w draStreamWorkload, n int) *skDRAStream {
	s := &skDRAStream{ctx: ctx}
	objs := slices.Clone(w.objects)
	for i := range n {
		p, c := w.measured(i)
		if c != nil {
			objs = append(objs, c)
		}
		s.pods = append(s.pods, p)
	}
	snap, err := cluster.NewSnapshot(w.nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	p, err := dynamicresources.New(nil, draHandle{snap})
	if err != nil {
		t.Fatal(err)
	}
	s.pl = p.(*dynamicresources.DynamicResources)
	for _, nd := range w.nodes {
		ni, _ := snap.View().Get(nd.Name)
		s.order = append(s.order, ni)
	}
	return s
}

func (s *skDRAStream) place(i int) (string, error) {
	pod := s.pods[i]
	cs := framework.NewCycleState()
	if _, st := s.pl.PreFilter(s.ctx, cs, pod, nil); st != nil {
		if st.IsSkip() {
			return s.order[0].Node().Name, nil
		}
		return "", fmt.Errorf("schedkit PreFilter: %v", st)
	}
	best, bestScore := "", int64(-1)
	for _, ni := range s.order {
		if st := s.pl.Filter(s.ctx, cs, pod, ni); st != nil {
			continue
		}
		sc, st := s.pl.Score(s.ctx, cs, pod, ni)
		if st != nil {
			return "", fmt.Errorf("schedkit Score: %v", st)
		}
		if sc > bestScore {
			best, bestScore = ni.Node().Name, sc
		}
	}
	if best == "" {
		return "", nil
	}
	if st := s.pl.Reserve(s.ctx, cs, pod, best); st != nil {
		return "", fmt.Errorf("schedkit Reserve: %v", st)
	}
	return best, nil
}

// runDRAStream places n pods on side, returning the nodes chosen.
func runDRAStream(side draSide, n int) ([]string, error) {
	out := make([]string, 0, n)
	for i := range n {
		node, err := side.place(i)
		if err != nil {
			return nil, err
		}
		out = append(out, node)
	}
	return out, nil
}

// BenchmarkDRAStream times the DRA stream workloads side by side:
// DRAStream/<Workload>/<upstream|schedkit>, ns/pod and cpu-ns/pod per
// measured pod (see draStreamWorkload). Each op builds the cluster
// (off the clock) and places the stream, each pod's allocation kept
// before the next. TestDRAStreamAgrees checks both sides place alike.
func BenchmarkDRAStream(b *testing.B) {
	ctx := context.Background()
	for _, w := range draStreamWorkloads(500) {
		n := w.streamLen()
		sides := []struct {
			name string
			make func() draSide
		}{
			{"upstream", func() draSide { return newUpDRAStream(ctx, b, w, n) }},
			{"schedkit", func() draSide { return newSkDRAStream(ctx, b, w, n) }},
		}
		for _, side := range sides {
			b.Run(w.name+"/"+side.name, func(b *testing.B) {
				skipSide(b, side.name)
				var st streamStats
				pods := 0
				for b.Loop() {
					b.StopTimer()
					s := side.make()
					runtime.GC()
					b.StartTimer()
					t0, c0, m0 := startStats()
					placed, err := runDRAStream(s, n)
					st.add(t0, c0, m0)
					if err != nil {
						b.Fatal(err)
					}
					if slices.Contains(placed, "") {
						b.Fatalf("%s: a measured pod did not fit: %v", side.name, placed)
					}
					pods += n
				}
				st.report(b, pods)
			})
		}
	}
}

// TestDRAStreamAgrees places the first pods of each DRA stream workload
// on both sides (50 nodes): the same node for every pod, as the devices
// fill up node by node.
func TestDRAStreamAgrees(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, w := range draStreamWorkloads(50) {
		t.Run(w.name, func(t *testing.T) {
			n := 40
			up, err := runDRAStream(newUpDRAStream(ctx, t, w, n), n)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := runDRAStream(newSkDRAStream(ctx, t, w, n), n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(up, ours) {
				t.Fatalf("placements differ:\n ours %v\nupstream %v", ours, up)
			}
			if slices.Contains(ours, "") || ours[0] == ours[n-1] {
				t.Fatalf("placements %v: want every pod placed, the devices filling up node by node", ours)
			}
		})
	}
}
