package scheduler

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// oneGPUCluster is one node "n1" with 2 cpu and one device, gpu-0, held
// by claim "held" of pod "victim" (1 cpu, priority 0, bound to n1). Pod
// "waiter" asks for claim "wanted", one device of class gpu.
func oneGPUCluster(t *testing.T) (*Scheduler, *api.Pod) {
	t.Helper()
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{"kubernetes.io/hostname": "n1"}}}
	n.Status.Allocatable = api.ResourceList{"cpu": quantity.MustParse("2"), "memory": quantity.MustParse("8Gi"), "pods": quantity.MustParse("10")}
	victim := draPod("victim", "held")
	victim.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": quantity.MustParse("1")}
	victim.Spec.NodeName = "n1"
	victim.Spec.Priority = ptr(int32(0))
	snap, err := cluster.NewSnapshot([]*api.Node{n}, []*api.Pod{victim})
	if err != nil {
		t.Fatal(err)
	}
	sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "n1-gpu"}}
	sl.Spec.Driver, sl.Spec.NodeName = "gpu.example.com", ptr("n1")
	sl.Spec.Pool = api.ResourcePool{Name: "n1", ResourceSliceCount: 1}
	sl.Spec.Devices = []api.Device{{Name: "gpu-0"}}
	held := draClaim("held", 1)
	held.Finalizers = []string{api.ResourceClaimFinalizer}
	held.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
		{Request: "gpu", Driver: "gpu.example.com", Pool: "n1", Device: "gpu-0"}}}}
	held.Status.ReservedFor = []api.ResourceClaimConsumerReference{{Resource: "pods", Name: "victim", UID: "victim"}}
	if err := snap.AddObjects(&api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}, sl, held, draClaim("wanted", 1)); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, victim
}

func waiter() *api.Pod {
	p := draPod("waiter", "wanted")
	p.Spec.Containers[0].Resources.Requests = nil
	p.Spec.Priority = ptr(int32(0))
	return p
}

// TestSimulatePreemptionFreesDevice: a pod waiting for the device a
// victim's claim holds is placed in the same run once a preemptor (for
// cpu) evicts the victim. The waiter goes first (higher priority) and
// is rejected by DynamicResources, unresolvable, so it cannot preempt.
// The resourceclaim controller deallocates the victim's claim;
// DynamicResources' hint queues the waiter on that deallocation, as
// kube-scheduler v1.37.2's isSchedulableAfterClaimChange does.
func TestSimulatePreemptionFreesDevice(t *testing.T) {
	s, _ := oneGPUCluster(t)
	w := waiter()
	w.Spec.Priority = ptr(int32(200))
	big := makePod("big")
	big.Spec.Priority = ptr(int32(100))
	big.Spec.Containers = []api.Container{{Name: "c", Image: "i", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"cpu": quantity.MustParse("2")}}}}
	out, err := s.Simulate(context.Background(), []*api.Pod{w, big})
	if err != nil {
		t.Fatal(err)
	}
	if out[1].Node != "n1" || len(out[1].Preemptions) != 1 || out[1].Preemptions[0].Victims[0].Name != "victim" {
		t.Fatalf("big: node %q, preemptions %+v, err %v", out[1].Node, out[1].Preemptions, out[1].Err)
	}
	if out[0].Node != "n1" {
		t.Fatalf("waiter: node %q after %d attempts, err %v", out[0].Node, out[0].Attempts, out[0].Err)
	}
	if out[0].Attempts != 2 {
		t.Errorf("waiter: %d attempts, want 2", out[0].Attempts)
	}
	held, _ := cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "default", "held")
	if held.Status.Allocation != nil || len(held.Status.ReservedFor) != 0 || len(held.Finalizers) != 0 {
		t.Errorf("held after the victim left: %+v, finalizers %v", held.Status, held.Finalizers)
	}
}

// TestRemovePodFreesDevice: removing the pod that holds the device
// requeues the waiting pod, which RunQueue then places.
func TestRemovePodFreesDevice(t *testing.T) {
	s, victim := oneGPUCluster(t)
	ctx := context.Background()
	if err := s.Enqueue(ctx, waiter()); err != nil {
		t.Fatal(err)
	}
	if placed, err := s.RunQueue(ctx); err != nil || len(placed) != 0 {
		t.Fatalf("placed %v, err %v", placed, err)
	}
	if err := s.RemovePod(victim); err != nil {
		t.Fatal(err)
	}
	placed, err := s.RunQueue(ctx)
	if err != nil || len(placed) != 1 || placed[0].Node != "n1" {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
}

// TestUnrelatedClaimSkips: a pod placed with its own claim changes a
// claim the waiting pod does not use, so the waiter is not retried
// (isSchedulableAfterClaimChange's QueueSkip for an unrelated claim);
// a slice published later queues it (ResourceSlice add, no hint), and
// it takes the new device.
func TestUnrelatedClaimSkips(t *testing.T) {
	s, _ := oneGPUCluster(t)
	ctx := context.Background()
	if err := s.Enqueue(ctx, waiter()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunQueue(ctx); err != nil {
		t.Fatal(err)
	}
	slice := func(name, dev string) *api.ResourceSlice {
		sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: name}}
		sl.Spec.Driver, sl.Spec.NodeName = "gpu.example.com", ptr("n1")
		sl.Spec.Pool = api.ResourcePool{Name: name, ResourceSliceCount: 1}
		sl.Spec.Devices = []api.Device{{Name: dev}}
		return sl
	}
	// A slice written straight into the snapshot is no event; the pod
	// placed with it changes only its own claim.
	if err := s.Snapshot().AddObjects(slice("more", "gpu-1"), draClaim("other", 1)); err != nil {
		t.Fatal(err)
	}
	other := draPod("other", "other")
	other.Spec.Containers[0].Resources.Requests = nil
	if err := s.Assume(other, "n1"); err != nil {
		t.Fatal(err)
	}
	if placed, err := s.RunQueue(ctx); err != nil || len(placed) != 0 {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
	if p := s.Pending(); len(p) != 1 || p[0].Attempts != 1 {
		t.Fatalf("pending %+v", p)
	}
	// A slice published through the scheduler queues the waiter.
	if err := s.AddObjects(slice("even-more", "gpu-2")); err != nil {
		t.Fatal(err)
	}
	placed, err := s.RunQueue(ctx)
	if err != nil || len(placed) != 1 || placed[0].Node != "n1" || placed[0].Attempts != 2 {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
}

// TestPostFilterDeallocationRequeues: DynamicResources' PostFilter
// deallocates a claim allocated on a node the pod cannot use and
// reserved for nobody; the deallocation is a claim event that requeues
// the pod itself, which then gets a device where it fits, in the same
// run, as upstream's in-flight events do.
func TestPostFilterDeallocationRequeues(t *testing.T) {
	s, _ := oneGPUCluster(t)
	stale := draClaim("stale", 1)
	stale.Finalizers = []string{api.ResourceClaimFinalizer}
	stale.Status.Allocation = &api.AllocationResult{
		Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: "gpu.example.com", Pool: "gone", Device: "gpu-9"}}},
		NodeSelector: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"gone"}}}}}},
	}
	sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "n1-more"}}
	sl.Spec.Driver, sl.Spec.NodeName = "gpu.example.com", ptr("n1")
	sl.Spec.Pool = api.ResourcePool{Name: "n1-more", ResourceSliceCount: 1}
	sl.Spec.Devices = []api.Device{{Name: "gpu-1"}}
	if err := s.Snapshot().AddObjects(stale, sl); err != nil {
		t.Fatal(err)
	}
	p := draPod("p", "stale")
	p.Spec.Containers[0].Resources.Requests = nil
	out, err := s.Simulate(context.Background(), []*api.Pod{p})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Node != "n1" || out[0].Attempts != 2 {
		t.Fatalf("node %q after %d attempts, err %v", out[0].Node, out[0].Attempts, out[0].Err)
	}
}

// TestExtendedResourceClaimStatus: a pod whose example.com/gpu a
// DeviceClass backs is placed with the claim DynamicResources makes for
// it, and the placed pod (and the snapshot's) carries
// status.extendedResourceClaimStatus as upstream's PreBind patches it:
// the claim's generated name (<pod>-extended-resources- and five
// characters) and one request mapping per container.
func TestExtendedResourceClaimStatus(t *testing.T) {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{"kubernetes.io/hostname": "n1"}}}
	n.Status.Allocatable = api.ResourceList{"cpu": quantity.MustParse("2"), "memory": quantity.MustParse("8Gi"), "pods": quantity.MustParse("10")}
	snap, err := cluster.NewSnapshot([]*api.Node{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	class := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	class.Spec.ExtendedResourceName = ptr("example.com/gpu")
	sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "n1-gpu"}}
	sl.Spec.Driver, sl.Spec.NodeName = "gpu.example.com", ptr("n1")
	sl.Spec.Pool = api.ResourcePool{Name: "n1", ResourceSliceCount: 1}
	sl.Spec.Devices = []api.Device{{Name: "gpu-0"}, {Name: "gpu-1"}}
	if err := snap.AddObjects(class, sl); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := makePod("trainer")
	p.Spec.Containers = []api.Container{{Name: "main", Image: "i", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"example.com/gpu": quantity.MustParse("2")}}}}
	out, err := s.Simulate(context.Background(), []*api.Pod{p})
	if err != nil || out[0].Node != "n1" {
		t.Fatalf("placement %+v, err %v", out[0], err)
	}
	st := out[0].Pod.Status.ExtendedResourceClaimStatus
	if st == nil {
		t.Fatal("no extendedResourceClaimStatus")
	}
	if len(st.ResourceClaimName) != len("trainer-extended-resources-")+5 || st.ResourceClaimName[:len("trainer-extended-resources-")] != "trainer-extended-resources-" {
		t.Errorf("claim name %q", st.ResourceClaimName)
	}
	want := []api.ContainerExtendedResourceRequest{{ContainerName: "main", ResourceName: "example.com/gpu", RequestName: "container-0-request-0"}}
	if len(st.RequestMappings) != 1 || st.RequestMappings[0] != want[0] {
		t.Errorf("mappings %+v, want %+v", st.RequestMappings, want)
	}
	if p.Status.ExtendedResourceClaimStatus != nil {
		t.Error("the pod given was modified")
	}
	c, ok := cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "default", st.ResourceClaimName)
	if !ok || c.Status.Allocation == nil || len(c.Status.Allocation.Devices.Results) != 2 {
		t.Fatalf("claim %s: %v %+v", st.ResourceClaimName, ok, c)
	}
	pi, _, ok := s.Snapshot().Pod("default", "trainer")
	if !ok || pi.Pod.Status.ExtendedResourceClaimStatus == nil || pi.Pod.Status.ExtendedResourceClaimStatus.ResourceClaimName != st.ResourceClaimName {
		t.Errorf("snapshot's pod lacks the status")
	}
}

// TestClaimCreatedAdmitsGatedPod: a pod whose claim does not exist yet
// is held back by DynamicResources' PreEnqueue; creating the claim is a
// ResourceClaim add its hint queues the pod on, and the pod is placed.
func TestClaimCreatedAdmitsGatedPod(t *testing.T) {
	s, victim := oneGPUCluster(t)
	ctx := context.Background()
	if err := s.RemovePod(victim); err != nil {
		t.Fatal(err)
	}
	p := draPod("late", "later")
	p.Spec.Containers[0].Resources.Requests = nil
	if err := s.Enqueue(ctx, p); err != nil {
		t.Fatal(err)
	}
	if placed, err := s.RunQueue(ctx); err != nil || len(placed) != 0 {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
	var ge *GatedError
	if pend := s.Pending(); len(pend) != 1 || !errors.As(pend[0].Err, &ge) {
		t.Fatalf("pending %+v", pend)
	}
	// An unrelated claim leaves it held back.
	if err := s.AddObjects(draClaim("unrelated", 1)); err != nil {
		t.Fatal(err)
	}
	if placed, err := s.RunQueue(ctx); err != nil || len(placed) != 0 {
		t.Fatalf("placed after an unrelated claim %+v, err %v", placed, err)
	}
	if err := s.AddObjects(draClaim("later", 1)); err != nil {
		t.Fatal(err)
	}
	placed, err := s.RunQueue(ctx)
	if err != nil || len(placed) != 1 || placed[0].Node != "n1" {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
}

// TestRemovePodDeletesGeneratedClaim pins what v1.37.2 does when a pod
// with a claim generated from its template leaves: the resourceclaim
// controller drops the pod from the claims' reservedFor and deallocates
// those reserved for nobody (syncClaim), and the garbage collector
// deletes the claims whose only owner is the pod (the generated one).
// A shared claim the pod used is deallocated and kept; a generated
// claim of another pod is kept. The waiting pod gets the freed device.
func TestRemovePodDeletesGeneratedClaim(t *testing.T) {
	s, victim := oneGPUCluster(t)
	ctx := context.Background()
	o := s.Snapshot().Objects()
	held, _ := cluster.GetObject[api.ResourceClaim](o, "default", "held")
	gen := *held
	gen.Name, gen.UID = "victim-accel-x7k2q", "claim-gen"
	gen.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "victim", UID: "victim", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
	gen.Annotations = map[string]string{api.PodResourceClaimAnnotation: "accel"}
	shared := *held
	shared.Name, shared.UID, shared.Status.Allocation = "shared", "claim-shared", nil
	shared.Status.ReservedFor = slices.Clone(held.Status.ReservedFor)
	others := *draClaim("other-gen", 1)
	others.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "other", UID: "other", Controller: ptr(true)}}
	if err := s.Snapshot().RemoveObject(held); err != nil {
		t.Fatal(err)
	}
	if err := s.Snapshot().AddObjects(&gen, &shared, &others); err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, waiter()); err != nil {
		t.Fatal(err)
	}
	if placed, err := s.RunQueue(ctx); err != nil || len(placed) != 0 {
		t.Fatalf("placed %v, err %v", placed, err)
	}
	if err := s.RemovePod(victim); err != nil {
		t.Fatal(err)
	}
	o = s.Snapshot().Objects()
	if c, ok := cluster.GetObject[api.ResourceClaim](o, "default", gen.Name); ok {
		t.Errorf("generated claim kept after its pod left: %+v", c.Status)
	}
	if c, ok := cluster.GetObject[api.ResourceClaim](o, "default", "shared"); !ok || len(c.Status.ReservedFor) != 0 {
		t.Errorf("shared claim: found %v, %+v", ok, c)
	}
	if _, ok := cluster.GetObject[api.ResourceClaim](o, "default", "other-gen"); !ok {
		t.Error("another pod's generated claim was deleted")
	}
	placed, err := s.RunQueue(ctx)
	if err != nil || len(placed) != 1 || placed[0].Node != "n1" {
		t.Fatalf("placed %+v, err %v", placed, err)
	}
}

// TestSharedClaimNewPodsWithoutUID: two new pods (no uid yet, as pods
// read from manifests are) sharing a claim are both in its reservedFor,
// so removing one keeps the device allocated to the other. Upstream's
// pods always have uids and match reservations by uid alone; here a pod
// without one is matched by name too.
func TestSharedClaimNewPodsWithoutUID(t *testing.T) {
	s, victim := oneGPUCluster(t)
	if err := s.RemovePod(victim); err != nil {
		t.Fatal(err)
	}
	a, b := waiter(), waiter()
	a.UID, b.UID, b.Name = "", "", "waiter-2"
	for _, p := range []*api.Pod{a, b} {
		if err := s.Assume(p, "n1"); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "default", "wanted")
	if len(c.Status.ReservedFor) != 2 {
		t.Fatalf("reservedFor %+v, want both pods", c.Status.ReservedFor)
	}
	pi, _, _ := s.Snapshot().Pod("default", "waiter")
	if err := s.RemovePod(pi.Pod); err != nil {
		t.Fatal(err)
	}
	c, _ = cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "default", "wanted")
	if c.Status.Allocation == nil || len(c.Status.ReservedFor) != 1 || c.Status.ReservedFor[0].Name != "waiter-2" {
		t.Fatalf("after the first pod left: reservedFor %+v, allocated %v", c.Status.ReservedFor, c.Status.Allocation != nil)
	}
}
