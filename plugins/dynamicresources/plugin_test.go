package dynamicresources

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Fixtures after upstream's dynamicresources_test.go: a pod "my-pod"
// whose claim "my-pod-my-resource" asks for one device of class
// "my-resource-class" of driver "some-driver", and a worker node whose
// slice has device "instance-1".
const (
	driver    = "some-driver"
	podName   = "my-pod"
	podUID    = "1234"
	claimName = podName + "-my-resource"
	className = "my-resource-class"
	nodeName  = "worker"
	node2Name = "worker-2"
)

func ptr[T any](v T) *T { return &v }

type handle struct{ s *cluster.Snapshot }

func (h handle) Snapshot() *cluster.Snapshot { return h.s }

func mkNode(name string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{"kubernetes.io/hostname": name}
	return n
}

func mkClass() *api.DeviceClass {
	c := &api.DeviceClass{}
	c.Name = className
	return c
}

func mkSlice(node string, devs ...api.Device) *api.ResourceSlice {
	s := &api.ResourceSlice{}
	s.Name = node + "-" + driver
	s.Spec.Driver = driver
	s.Spec.NodeName = ptr(node)
	s.Spec.Pool = api.ResourcePool{Name: node, ResourceSliceCount: 1}
	if len(devs) == 0 {
		devs = []api.Device{{Name: "instance-1"}}
	}
	s.Spec.Devices = devs
	return s
}

func exact(name, class string) api.DeviceRequest {
	return api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{DeviceClassName: class,
		AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}
}

func mkClaim(name string, reqs ...api.DeviceRequest) *api.ResourceClaim {
	c := &api.ResourceClaim{}
	c.Name, c.Namespace, c.UID = name, "default", "claim-"+name
	c.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: podName, UID: podUID, Controller: ptr(true)}}
	if len(reqs) == 0 {
		reqs = []api.DeviceRequest{exact("req-1", className)}
	}
	c.Spec.Devices.Requests = reqs
	return c
}

// allocated returns c allocated the worker's instance-1, usable from
// the node the selector names.
func allocated(c *api.ResourceClaim, onNode string) *api.ResourceClaim {
	cp := *c
	cp.Status.Allocation = &api.AllocationResult{
		Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{Request: "req-1", Driver: driver, Pool: nodeName, Device: "instance-1"}}},
		NodeSelector: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{onNode}}}}}},
	}
	return &cp
}

func podWithClaimName(name, claim string) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace, p.UID = name, "default", podUID
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "my-resource", ResourceClaimName: ptr(claim)}}
	return p
}

func podWithClaimTemplate(inStatus bool) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace, p.UID = podName, "default", podUID
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "my-resource", ResourceClaimTemplateName: ptr("my-template")}}
	if inStatus {
		p.Status.ResourceClaimStatuses = []api.PodResourceClaimStatus{{Name: "my-resource", ResourceClaimName: ptr(claimName)}}
	}
	return p
}

func setup(t testing.TB, nodes []*api.Node, objs ...any) (*DynamicResources, *cluster.Snapshot) {
	t.Helper()
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	pl, err := New(nil, handle{snap})
	if err != nil {
		t.Fatal(err)
	}
	return pl.(*DynamicResources), snap
}

func statusString(st *framework.Status) string {
	if st == nil {
		return "Success"
	}
	return st.Code().String() + ": " + st.Message()
}

// TestPlugin runs upstream's TestPlugin rows (dynamicresources_test.go,
// named as upstream names them) through PreEnqueue, PreFilter, Filter,
// PostFilter and Score.
func TestPlugin(t *testing.T) {
	worker, worker2 := mkNode(nodeName), mkNode(node2Name)
	pending := mkClaim(claimName)
	prio := mkClaim(claimName, api.DeviceRequest{Name: "req-1", FirstAvailable: []api.DeviceSubRequest{
		{Name: "subreq-1", DeviceClassName: className, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1,
			Selectors: []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.attributes["some-driver"].healthy`}}}},
		{Name: "subreq-2", DeviceClassName: className, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1},
	}})
	healthy := func(node string, v bool) *api.ResourceSlice {
		return mkSlice(node, api.Device{Name: "instance-1", Attributes: map[api.QualifiedName]api.DeviceAttribute{"healthy": {BoolValue: ptr(v)}}})
	}
	other := mkClaim("other")
	other.OwnerReferences = nil
	deleted := allocated(pending, nodeName)
	deleted.DeletionTimestamp = &api.Time{}
	wrongOwner := mkClaim(claimName)
	wrongOwner.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: podName, UID: podUID + "123", Controller: ptr(true)}}
	otherAllocated := allocated(other, nodeName)

	type want struct {
		preEnqueue, preFilter string
		filter                map[string]string
		postFilter            string
		scores                map[string]int64
		normalized            map[string]int64
	}
	tests := []struct {
		name  string
		pod   *api.Pod
		nodes []*api.Node
		objs  []any
		want  want
	}{
		// upstream "empty": a pod without claims is skipped.
		{name: "empty", pod: &api.Pod{ObjectMeta: api.ObjectMeta{Name: podName, Namespace: "default"}},
			want: want{preFilter: "Skip: "}},
		// upstream "claim-reference": an allocated claim usable on the node.
		{name: "claim-reference", pod: podWithClaimName(podName, claimName), objs: []any{allocated(pending, nodeName), mkClass()},
			want: want{filter: map[string]string{nodeName: "Success"}}},
		// upstream "claim-template": the generated claim, found through the pod's status.
		{name: "claim-template", pod: podWithClaimTemplate(true), objs: []any{allocated(pending, nodeName), mkClass()},
			want: want{filter: map[string]string{nodeName: "Success"}}},
		// upstream "missing-claim"
		{name: "missing-claim", pod: podWithClaimTemplate(false), objs: []any{allocated(pending, nodeName)},
			want: want{preEnqueue: `UnschedulableAndUnresolvable: pod "default/my-pod": ResourceClaim not created yet`,
				preFilter: `UnschedulableAndUnresolvable: pod "default/my-pod": ResourceClaim not created yet`}},
		// upstream "deleted-claim"
		{name: "deleted-claim", pod: podWithClaimTemplate(true), objs: []any{deleted},
			want: want{preEnqueue: `UnschedulableAndUnresolvable: resourceclaim "my-pod-my-resource" is being deleted`,
				preFilter: `UnschedulableAndUnresolvable: resourceclaim "my-pod-my-resource" is being deleted`}},
		// upstream "wrong-claim"
		{name: "wrong-claim", pod: podWithClaimTemplate(true), objs: []any{wrongOwner},
			want: want{preEnqueue: "UnschedulableAndUnresolvable: ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)",
				preFilter: "UnschedulableAndUnresolvable: ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)"}},
		// upstream "no-resources"
		{name: "no-resources", pod: podWithClaimName(podName, claimName), objs: []any{pending, mkClass()},
			want: want{filter: map[string]string{nodeName: "UnschedulableAndUnresolvable: cannot allocate all claims"}, postFilter: "Unschedulable: "}},
		// upstream "with-resources"
		{name: "with-resources", pod: podWithClaimName(podName, claimName), objs: []any{pending, mkClass(), mkSlice(nodeName)},
			want: want{filter: map[string]string{nodeName: "Success"}, scores: map[string]int64{nodeName: 0}}},
		// upstream "exhausted-resources-in-informer-cache": another claim holds the device.
		{name: "exhausted-resources-in-informer-cache", pod: podWithClaimName(podName, claimName), objs: []any{pending, otherAllocated, mkClass(), mkSlice(nodeName)},
			want: want{filter: map[string]string{nodeName: "UnschedulableAndUnresolvable: cannot allocate all claims"}, postFilter: "Unschedulable: "}},
		// upstream "missing-class"
		{name: "missing-class", pod: podWithClaimName(podName, claimName), objs: []any{pending},
			want: want{preFilter: "UnschedulableAndUnresolvable: request req-1: device class my-resource-class does not exist"}},
		// upstream "claim-with-request-with-unknown-device-class"
		{name: "claim-with-request-with-unknown-device-class", pod: podWithClaimName(podName, claimName),
			objs: []any{mkClaim(claimName, exact("req-1", "unknown-class")), mkClass()},
			want: want{preFilter: "UnschedulableAndUnresolvable: request req-1: device class unknown-class does not exist"}},
		// upstream "claim-with-prioritized-list-unknown-device-class"
		{name: "claim-with-prioritized-list-unknown-device-class", pod: podWithClaimName(podName, claimName),
			objs: []any{mkClaim(claimName, api.DeviceRequest{Name: "req-1", FirstAvailable: []api.DeviceSubRequest{
				{Name: "subreq-1", DeviceClassName: "unknown-class", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}), mkClass()},
			want: want{preFilter: "UnschedulableAndUnresolvable: request req-1/subreq-1: device class unknown-class does not exist"}},
		// upstream "wrong-topology": PostFilter would deallocate the claim.
		{name: "wrong-topology", pod: podWithClaimName(podName, claimName), objs: []any{allocated(pending, "other-node"), mkClass()},
			want: want{filter: map[string]string{nodeName: "UnschedulableAndUnresolvable: resourceclaim not available on the node"},
				postFilter: "Unschedulable: deallocation of ResourceClaim completed"}},
		// upstream "good-topology"
		{name: "good-topology", pod: podWithClaimName(podName, claimName), objs: []any{allocated(pending, nodeName), mkClass()},
			want: want{filter: map[string]string{nodeName: "Success"}}},
		// upstream "single-claim-prioritized-list-scoring": subreq-1 on the healthy node scores 8, subreq-2 7.
		{name: "single-claim-prioritized-list-scoring", pod: podWithClaimName(podName, claimName), nodes: []*api.Node{worker, worker2},
			objs: []any{prio, mkClass(), healthy(nodeName, true), healthy(node2Name, false)},
			want: want{filter: map[string]string{nodeName: "Success", node2Name: "Success"},
				scores: map[string]int64{nodeName: 8, node2Name: 7}, normalized: map[string]int64{nodeName: 100, node2Name: 87}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := tc.nodes
			if nodes == nil {
				nodes = []*api.Node{worker}
			}
			pl, snap := setup(t, nodes, tc.objs...)
			ctx := context.Background()
			if got := statusString(pl.PreEnqueue(ctx, tc.pod)); got != or(tc.want.preEnqueue, "Success") {
				t.Errorf("PreEnqueue: %s, want %s", got, or(tc.want.preEnqueue, "Success"))
			}
			cs := framework.NewCycleState()
			_, st := pl.PreFilter(ctx, cs, tc.pod, nil)
			if got := statusString(st); got != or(tc.want.preFilter, "Success") {
				t.Fatalf("PreFilter: %s, want %s", got, or(tc.want.preFilter, "Success"))
			}
			if st != nil {
				return
			}
			for _, ni := range snap.View().Nodes() {
				want, ok := tc.want.filter[ni.Node().Name]
				if got := statusString(pl.Filter(ctx, cs, tc.pod, ni)); ok && got != want {
					t.Errorf("Filter %s: %s, want %s", ni.Node().Name, got, want)
				}
			}
			if tc.want.postFilter != "" {
				_, st := pl.PostFilter(ctx, cs, tc.pod, nil)
				if got := statusString(st); got != tc.want.postFilter {
					t.Errorf("PostFilter: %s, want %s", got, tc.want.postFilter)
				}
			}
			if tc.want.scores != nil {
				var list framework.NodeScoreList
				for _, ni := range snap.View().Nodes() {
					sc, st := pl.Score(ctx, cs, tc.pod, ni)
					if st != nil {
						t.Fatal(st)
					}
					if sc != tc.want.scores[ni.Node().Name] {
						t.Errorf("Score %s: %d, want %d", ni.Node().Name, sc, tc.want.scores[ni.Node().Name])
					}
					list = append(list, framework.NodeScore{Name: ni.Node().Name, Score: sc})
				}
				if tc.want.normalized != nil {
					pl.NormalizeScore(ctx, cs, tc.pod, list)
					for _, s := range list {
						if s.Score != tc.want.normalized[s.Name] {
							t.Errorf("NormalizeScore %s: %d, want %d", s.Name, s.Score, tc.want.normalized[s.Name])
						}
					}
				}
			}
		})
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// TestReserveHidesDevices: after Reserve, the next pod's PreFilter sees
// the devices in use; Unreserve restores the state before it.
func TestReserveHidesDevices(t *testing.T) {
	c1, c2 := mkClaim("c1"), mkClaim("c2")
	c2.OwnerReferences = nil
	pl, snap := setup(t, []*api.Node{mkNode(nodeName)}, c1, c2, mkClass(), mkSlice(nodeName))
	ctx := context.Background()
	ni := snap.View().Nodes()[0]
	filter := func(p *api.Pod) (*framework.CycleState, string) {
		cs := framework.NewCycleState()
		if _, st := pl.PreFilter(ctx, cs, p, nil); st != nil {
			t.Fatal(st)
		}
		return cs, statusString(pl.Filter(ctx, cs, p, ni))
	}
	p1, p2 := podWithClaimName("p1", "c1"), podWithClaimName("p2", "c2")
	p2.UID = "p2"
	cs1, got := filter(p1)
	if got != "Success" {
		t.Fatalf("p1: %s", got)
	}
	if st := pl.Reserve(ctx, cs1, p1, nodeName); st != nil {
		t.Fatal(st)
	}
	if _, got := filter(p2); got != "UnschedulableAndUnresolvable: cannot allocate all claims" {
		t.Errorf("p2 after p1's Reserve: %s", got)
	}
	pl.Unreserve(ctx, cs1, p1, nodeName)
	if _, got := filter(p2); got != "Success" {
		t.Errorf("p2 after p1's Unreserve: %s", got)
	}
	// AssumeClaims writes p1's allocation into the snapshot.
	if _, err := pl.AssumeClaims(ctx, snap, p1, ni); err != nil {
		t.Fatal(err)
	}
	c, _ := cluster.GetObject[api.ResourceClaim](snap.Objects(), "default", "c1")
	if c.Status.Allocation == nil || len(c.Status.ReservedFor) != 1 || c.Status.ReservedFor[0].UID != podUID {
		t.Fatalf("assumed claim %+v", c.Status)
	}
	if got := c.Status.Allocation.Devices.Results[0]; got.Device != "instance-1" || got.Pool != nodeName || got.Request != "req-1" {
		t.Errorf("allocation %+v", got)
	}
	if _, got := filter(p2); got != "UnschedulableAndUnresolvable: cannot allocate all claims" {
		t.Errorf("p2 after p1's Assume: %s", got)
	}
}

// TestNeverDoubleBooks: pods each with a claim for one device, placed in
// turn with AssumeClaims, never get a device another pod holds.
func TestNeverDoubleBooks(t *testing.T) {
	var devs []api.Device
	for i := range 3 {
		devs = append(devs, api.Device{Name: fmt.Sprintf("dev-%d", i)})
	}
	var objs []any
	for i := range 5 {
		c := mkClaim(fmt.Sprintf("c%d", i))
		c.OwnerReferences = nil
		objs = append(objs, c)
	}
	objs = append(objs, mkClass(), mkSlice(nodeName, devs...))
	pl, snap := setup(t, []*api.Node{mkNode(nodeName)}, objs...)
	ctx := context.Background()
	used := map[string]bool{}
	placed := 0
	for i := range 5 {
		p := podWithClaimName(fmt.Sprintf("p%d", i), fmt.Sprintf("c%d", i))
		p.UID = fmt.Sprintf("uid-%d", i)
		ni := snap.View().Nodes()[0]
		if _, err := pl.AssumeClaims(ctx, snap, p, ni); err != nil {
			continue
		}
		placed++
		c, _ := cluster.GetObject[api.ResourceClaim](snap.Objects(), "default", fmt.Sprintf("c%d", i))
		d := c.Status.Allocation.Devices.Results[0].Device
		if used[d] {
			t.Fatalf("device %s handed out twice", d)
		}
		used[d] = true
	}
	if placed != 3 {
		t.Errorf("placed %d pods on 3 devices", placed)
	}
}

// BenchmarkFilterOneClaim filters a node for a pod with one claim.
func BenchmarkFilterOneClaim(b *testing.B) {
	pl, snap := setup(b, []*api.Node{mkNode(nodeName)}, mkClaim(claimName), mkClass(), mkSlice(nodeName))
	ctx := context.Background()
	pod := podWithClaimName(podName, claimName)
	cs := framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, pod, nil); st != nil {
		b.Fatal(st)
	}
	ni := snap.View().Nodes()[0]
	b.ReportAllocs()
	for b.Loop() {
		if st := pl.Filter(ctx, cs, pod, ni); st != nil {
			b.Fatal(st)
		}
	}
}

// TestFilterAllocatesNothing: once the search buffers are warm, Filter
// allocates nothing per node for a pod with one claim (per-pod work is
// PreFilter's), whether the node fits or not; nor for later pods of the
// same claim shape, which read the answers kept per node, alike.
func TestFilterAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not pinned under the race detector")
	}
	var nodes []*api.Node
	objs := []any{mkClaim(claimName), mkClass(), mkClaim("second-claim"), mkClaim("third-claim")}
	for i := range 50 {
		n := mkNode(fmt.Sprintf("node-%d", i))
		nodes = append(nodes, n)
		if i%2 == 0 {
			objs = append(objs, mkSlice(n.Name))
		}
	}
	pl, snap := setup(t, nodes, objs...)
	ctx := context.Background()
	pod := podWithClaimName(podName, claimName)
	cs := framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, pod, nil); st != nil {
		t.Fatal(st)
	}
	all := snap.View().Nodes()
	feasible := 0
	for _, ni := range all {
		if pl.Filter(ctx, cs, pod, ni) == nil {
			feasible++
		}
	}
	if feasible != 25 {
		t.Fatalf("%d feasible nodes, want 25", feasible)
	}
	if n := testing.AllocsPerRun(20, func() {
		for _, ni := range all {
			_ = pl.Filter(ctx, cs, pod, ni)
		}
	}); n >= 1 {
		// A garbage collection may empty the allocator's pool of
		// searches once: below one per pass of every node is none per
		// node.
		t.Errorf("%v allocations filtering %d nodes", n, len(all))
	}
	// The second pod of the shape keeps its answers, the third reads
	// them.
	for _, claim := range []string{"second-claim", "third-claim"} {
		pod := podWithClaimName(podName, claim)
		cs := framework.NewCycleState()
		if _, st := pl.PreFilter(ctx, cs, pod, nil); st != nil {
			t.Fatal(st)
		}
		feasible := 0
		for _, ni := range all {
			if pl.Filter(ctx, cs, pod, ni) == nil {
				feasible++
			}
		}
		if feasible != 25 {
			t.Fatalf("%s: %d feasible nodes, want 25", claim, feasible)
		}
		if n := testing.AllocsPerRun(20, func() {
			for _, ni := range all {
				_ = pl.Filter(ctx, cs, pod, ni)
			}
		}); n >= 1 {
			t.Errorf("%s: %v allocations filtering %d nodes", claim, n, len(all))
		}
	}
}
