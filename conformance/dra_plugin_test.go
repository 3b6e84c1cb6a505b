package conformance

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	updra "k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/quantity"
)

type draHandle struct{ s *cluster.Snapshot }

func (h draHandle) Snapshot() *cluster.Snapshot { return h.s }

// upstreamDRA is upstream's DynamicResources plugin over a fake client
// holding objs, with the informers, slice tracker and claim assume
// cache kube-scheduler builds, synced.
type upstreamDRA struct {
	pl     *updra.DynamicResources
	claims fwk.ResourceClaimTracker
	nodes  []fwk.NodeInfo
}

func newUpstreamDRA(ctx context.Context, t fataler, frac bool, nodes []*v1.Node, objs ...any) *upstreamDRA {
	client := fake.NewSimpleClientset()
	f := informers.NewSharedInformerFactory(client, 0)
	tracker, err := resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
		EnableDeviceTaintRules: true,
		SliceInformer:          f.Resource().V1().ResourceSlices(),
		TaintInformer:          f.Resource().V1().DeviceTaintRules(),
		KubeClient:             client,
	})
	if err != nil {
		t.Fatal(err)
	}
	claimsCache := assumecache.NewAssumeCache(klog.Background(), f.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	done := []cache.DoneChecker{tracker.HasSyncedChecker(), claimsCache.AddEventHandler(cache.ResourceEventHandlerFuncs{}).HasSyncedChecker()}
	mgr := updra.NewDRAManager(ctx, claimsCache, tracker, f)
	// The scheduler feeds the extended resource cache from the class
	// informer (eventhandlers.go); so does this harness.
	reg, err := f.Resource().V1().DeviceClasses().Informer().AddEventHandler(mgr.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache))
	if err != nil {
		t.Fatal(err)
	}
	done = append(done, reg.HasSyncedChecker())
	snap := schedcache.NewSnapshot(nil, nodes)
	fh, err := runtime.NewFramework(ctx, nil, nil,
		runtime.WithClientSet(client), runtime.WithInformerFactory(f), runtime.WithEventRecorder(&events.FakeRecorder{}),
		runtime.WithSharedDRAManager(mgr), runtime.WithSnapshotSharedLister(snap))
	if err != nil {
		t.Fatal(err)
	}
	fts := plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	fts.EnableDRAFractionalCapacityRange = frac
	args := &schedconfig.DynamicResourcesArgs{FilterTimeout: &metav1.Duration{Duration: 10 * time.Second},
		BindingTimeout: &metav1.Duration{Duration: 600 * time.Second}}
	pl, err := updra.New(ctx, args, fh, fts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		var err error
		switch o := o.(type) {
		case *resourceapi.ResourceClaim:
			_, err = client.ResourceV1().ResourceClaims(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
		case *resourceapi.DeviceClass:
			_, err = client.ResourceV1().DeviceClasses().Create(ctx, o, metav1.CreateOptions{})
		case *resourceapi.ResourceSlice:
			_, err = client.ResourceV1().ResourceSlices().Create(ctx, o, metav1.CreateOptions{})
		case *resourceapi.DeviceTaintRule:
			_, err = client.ResourceV1().DeviceTaintRules().Create(ctx, o, metav1.CreateOptions{})
		default:
			err = fmt.Errorf("unsupported %T", o)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	cache.WaitFor(ctx, "event handlers", done...)
	infos, err := snap.NodeInfos().List()
	if err != nil {
		t.Fatal(err)
	}
	return &upstreamDRA{pl: pl.(*updra.DynamicResources), claims: mgr.ResourceClaims(), nodes: infos}
}

func draStatus(code, msg string) string {
	if code == "Success" {
		return code
	}
	return code + ": " + msg
}

func upStatus(s *fwk.Status) string {
	if s == nil {
		return "Success"
	}
	return draStatus(s.Code().String(), s.Message())
}

func ourStatus(s *framework.Status) string {
	if s == nil {
		return "Success"
	}
	return draStatus(s.Code().String(), s.Message())
}

// TestDRAPluginDifferential draws DRA worlds (dragen) and a pod that
// names the world's claims, and runs upstream's DynamicResources and
// schedkit's through PreEnqueue, PreFilter, Filter per node, Score and
// the allocation Reserve keeps per feasible node: same status codes and
// messages, same scores, same devices.
func TestDRAPluginDifferential(t *testing.T) {
	for _, m := range fracModes {
		t.Run(m.name, func(t *testing.T) { draPluginDifferential(t, m.on) })
	}
}

func draPluginDifferential(t *testing.T, frac bool) {
	var feasible, rejected, prefail int
	defer func() {
		t.Logf("nodes: %d feasible, %d rejected; %d pods rejected before Filter", feasible, rejected, prefail)
	}()
	rapid.Check(t, func(rt *rapid.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		world := dragen.WorldGen().Draw(rt, "world")
		w := &world
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "pod-uid"}}
		for i, c := range w.Claims {
			c.UID = fmt.Sprintf("claim-uid-%d", i)
			pod.Spec.ResourceClaims = append(pod.Spec.ResourceClaims, api.PodResourceClaim{Name: fmt.Sprintf("c%d", i), ResourceClaimName: &c.Name})
		}
		if rapid.Bool().Draw(rt, "missing-claim") && len(w.Claims) > 1 {
			w.Claims = w.Claims[:1]
		}
		for i, c := range w.Allocated {
			c.UID = fmt.Sprintf("held-uid-%d", i)
		}
		ext := drawExtendedResources(rt, w, pod)
		var ours []any
		var theirs []any
		add := func(o any, up any) { ours = append(ours, o); theirs = append(theirs, up) }
		for _, c := range w.Classes {
			add(c, viaJSON[resourceapi.DeviceClass](rt, c))
		}
		for _, s := range w.Slices {
			add(s, viaJSON[resourceapi.ResourceSlice](rt, s))
		}
		for _, r := range w.TaintRules {
			add(r, viaJSON[resourceapi.DeviceTaintRule](rt, r))
		}
		for _, c := range append(append([]*api.ResourceClaim(nil), w.Claims...), w.Allocated...) {
			add(c, viaJSON[resourceapi.ResourceClaim](rt, c))
		}
		var vnodes []*v1.Node
		for _, n := range w.Nodes {
			vnodes = append(vnodes, viaJSON[v1.Node](rt, n))
		}
		up := newUpstreamDRA(ctx, rt, frac, vnodes, theirs...)
		snap, err := cluster.NewSnapshot(w.Nodes, nil)
		if err != nil {
			rt.Fatal(err)
		}
		if err := snap.AddObjects(ours...); err != nil {
			rt.Fatal(err)
		}
		p, err := dynamicresources.NewWithOptions(dynamicresources.Options{Features: dra.Features{FractionalCapacityRange: frac}})(nil, draHandle{snap})
		if err != nil {
			rt.Fatal(err)
		}
		pl := p.(*dynamicresources.DynamicResources)
		vpod := viaJSON[v1.Pod](rt, pod)

		if g, w := ourStatus(pl.PreEnqueue(ctx, pod)), upStatus(up.pl.PreEnqueue(ctx, vpod)); g != w {
			rt.Fatalf("PreEnqueue: %s, upstream %s", g, w)
		}
		ucs := schedframework.NewCycleState()
		_, ust := up.pl.PreFilter(ctx, ucs, vpod, up.nodes)
		ocs := framework.NewCycleState()
		_, ost := pl.PreFilter(ctx, ocs, pod, nil)
		if g, w := ourStatus(ost), upStatus(ust); g != w {
			rt.Fatalf("PreFilter: %s, upstream %s", g, w)
		}
		if ust != nil {
			prefail++
			return
		}
		upNodes := map[string]fwk.NodeInfo{}
		for _, ni := range up.nodes {
			upNodes[ni.Node().Name] = ni
		}
		for _, ni := range snap.View().Nodes() {
			name := ni.Node().Name
			uni := upNodes[name]
			g, w := ourStatus(pl.Filter(ctx, ocs, pod, ni)), upStatus(up.pl.Filter(ctx, ucs, vpod, uni))
			// Upstream lists slices from an informer, in no fixed order:
			// with several slices whose node selector does not parse, the
			// one it names varies from run to run.
			const badSel = "gather pool information: failed to perform node selection for slice "
			if g != w && !(strings.Contains(g, badSel) && strings.Contains(w, badSel)) {
				rt.Fatalf("Filter %s: %s, upstream %s\nslices %s\nclaims %s\nheld %s\nrules %s\nnodes %s", name, g, w,
					js(rt, world.Slices), js(rt, world.Claims), js(rt, world.Allocated), js(rt, world.TaintRules), js(rt, world.Nodes))
			}
			if w != "Success" || g != "Success" {
				rejected++
				continue
			}
			feasible++
			gs, gst := pl.Score(ctx, ocs, pod, ni)
			ws, wst := up.pl.Score(ctx, ucs, vpod, uni)
			if gs != ws || ourStatus(gst) != upStatus(wst) {
				rt.Fatalf("Score %s: %d %s, upstream %d %s", name, gs, ourStatus(gst), ws, upStatus(wst))
			}
			_, results, ok := dynamicresources.Allocations(ocs, name)
			// Upstream's Reserve changes the cycle's state: reserve on a
			// cycle of its own, filtered on this node only.
			ucs2 := schedframework.NewCycleState()
			if _, st := up.pl.PreFilter(ctx, ucs2, vpod, up.nodes); st != nil {
				rt.Fatalf("upstream PreFilter again: %v", st)
			}
			if st := up.pl.Filter(ctx, ucs2, vpod, uni); st != nil {
				rt.Fatalf("upstream Filter again %s: %v", name, st)
			}
			if st := up.pl.Reserve(ctx, ucs2, vpod, name); st != nil {
				rt.Fatalf("upstream Reserve %s: %v", name, st)
			}
			var want []*resourceapi.AllocationResult
			for _, c := range w2claims(world.Claims) {
				if a := up.claims.GetPendingAllocation(types.UID(c)); a != nil {
					want = append(want, a)
				}
			}
			var upDevs []string
			if ext {
				all, err := up.claims.ListAllAllocatedDevices()
				if err != nil {
					rt.Fatal(err)
				}
				for d := range all {
					upDevs = append(upDevs, d.String())
				}
			}
			up.pl.Unreserve(ctx, ucs2, vpod, name)
			if ext {
				// The extended resource claim's UID is random upstream:
				// compare every device held once reserved.
				got := heldDevices(append(slices.Clone(world.Allocated), world.Claims...))
				// ListAllAllocatedDevices counts an in-flight shared
				// device as the device itself.
				for _, r := range results {
					for _, d := range r.Devices.Results {
						if d.AdminAccess == nil || !*d.AdminAccess {
							got = append(got, d.Driver+"/"+d.Pool+"/"+d.Device)
						}
					}
				}
				slices.Sort(got)
				got = slices.Compact(got)
				slices.Sort(upDevs)
				if !slices.Equal(got, upDevs) {
					rt.Fatalf("node %s: devices held after Reserve %v, upstream %v\npod %s\nresults %s\nnodes %s\nclasses %s", name, got, upDevs, js(rt, pod.Spec), js(rt, results), js(rt, world.Nodes), js(rt, world.Classes))
				}
				if len(results) > len(want) {
					results = results[:len(want)]
				}
			}
			if !ok && len(want) == 0 {
				continue
			}
			if len(results) != len(want) {
				rt.Fatalf("node %s: %d allocations, upstream %d", name, len(results), len(want))
			}
			for j := range results {
				gj := viaJSON[resourceapi.AllocationResult](rt, &results[j])
				normalizeShares(gj)
				normalizeShares(want[j])
				if g, w := js(rt, gj), js(rt, want[j]); g != w {
					rt.Fatalf("node %s claim %d:\n got %s\nwant %s\nslices %s\nclaims %s\nheld %s", name, j, g, w,
						js(rt, world.Slices), js(rt, world.Claims), js(rt, world.Allocated))
				}
			}
		}
	})
}

func w2claims(cs []*api.ResourceClaim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.UID)
	}
	return out
}

func normalizeShares(a *resourceapi.AllocationResult) {
	for i := range a.Devices.Results {
		if a.Devices.Results[i].ShareID != nil {
			u := types.UID("00000000-0000-4000-8000-000000000000")
			a.Devices.Results[i].ShareID = &u
		}
	}
}

// drawExtendedResources gives pod, sometimes, a container requesting an
// extended resource one of w's classes backs (its extendedResourceName
// or the implicit name), sometimes dropping the pod's claims, and gives
// each node that resource as a device plugin would (missing, zero or
// two allocatable). It reports whether it did.
func drawExtendedResources(rt *rapid.T, w *dragen.World, pod *api.Pod) bool {
	mode := rapid.IntRange(0, 2).Draw(rt, "ext-mode")
	if mode == 0 || len(w.Classes) == 0 {
		return false
	}
	w.Classes = slices.Clone(w.Classes)
	ci := rapid.IntRange(0, len(w.Classes)-1).Draw(rt, "ext-class")
	name := api.ResourceName(api.ResourceDeviceClassPrefix + w.Classes[ci].Name)
	if mode == 1 {
		cp := *w.Classes[ci]
		n := "example.com/gpu"
		cp.Spec.ExtendedResourceName = &n
		w.Classes[ci] = &cp
		name = api.ResourceName(n)
	}
	c := api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		name: quantity.NewQuantity(rapid.Int64Range(1, 2).Draw(rt, "ext-count"), quantity.DecimalSI)}}}
	if rapid.Bool().Draw(rt, "ext-init") {
		ic := c
		ic.Name = "init"
		pod.Spec.InitContainers = []api.Container{ic}
	}
	pod.Spec.Containers = []api.Container{c}
	if rapid.Bool().Draw(rt, "ext-only") {
		pod.Spec.ResourceClaims = nil
		w.Claims = nil
	}
	w.Nodes = slices.Clone(w.Nodes)
	for i, n := range w.Nodes {
		cp := *n
		cp.Status.Allocatable = maps.Clone(n.Status.Allocatable)
		switch rapid.IntRange(0, 2).Draw(rt, fmt.Sprintf("ext-node-%d", i)) {
		case 1:
			if cp.Status.Allocatable == nil {
				cp.Status.Allocatable = api.ResourceList{}
			}
			cp.Status.Allocatable[name] = quantity.NewQuantity(0, quantity.DecimalSI)
		case 2:
			if cp.Status.Allocatable == nil {
				cp.Status.Allocatable = api.ResourceList{}
			}
			cp.Status.Allocatable[name] = quantity.NewQuantity(2, quantity.DecimalSI)
		}
		w.Nodes[i] = &cp
	}
	return true
}

// heldDevices are the devices the allocated claims hold, as
// driver/pool/device, without shared (multi-allocation) ones and those
// held with admin access, which upstream does not count as in use.
func heldDevices(claims []*api.ResourceClaim) []string {
	var out []string
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, d := range c.Status.Allocation.Devices.Results {
			if d.ShareID == nil && (d.AdminAccess == nil || !*d.AdminAccess) {
				out = append(out, d.Driver+"/"+d.Pool+"/"+d.Device)
			}
		}
	}
	return out
}
