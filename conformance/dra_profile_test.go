package conformance

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	upconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/scheduler"
)

// draProfilePlugins are the default profile's plugins, in its order,
// that both sides run: the differential table's and DynamicResources.
func draProfilePlugins() []regression.PluginRef {
	table := upstream.PluginNames()
	var out []regression.PluginRef
	for _, p := range framework.DefaultPlugins() {
		if slices.Contains(table, p.Name) || p.Name == dynamicresources.Name {
			out = append(out, regression.PluginRef{Name: p.Name, Weight: p.Weight})
		}
	}
	return out
}

// badSelector is the start of the reason for a slice whose node selector
// does not parse: upstream lists slices in no fixed order, so which slice
// it names varies from run to run.
const badSelector = "gather pool information: failed to perform node selection for slice "

func normalizeDRAAnswer(a *regression.PluginsAnswer) {
	fix := func(s *regression.StatusAnswer) {
		for i, r := range s.Reasons {
			if j := strings.Index(r, badSelector); j >= 0 {
				s.Reasons[i] = r[:j+len(badSelector)] + "…"
			}
		}
	}
	if a.PreFilter != nil {
		fix(a.PreFilter)
	}
	for n, s := range a.Filter {
		fix(&s)
		a.Filter[n] = s
	}
	if i := strings.Index(a.Err, badSelector); i >= 0 {
		a.Err = a.Err[:i+len(badSelector)] + "…"
	}
}

// TestDRAProfileDifferential draws DRA worlds mixed with what the other
// default plugins read (dragen.MixedGen: zones, allocatable, taints,
// cordons, bound pods, and a pod with claims by name or template,
// requests, tolerations, node affinity and topology spread) and runs
// the pod through the whole profile, schedkit's and upstream's
// framework with DynamicResources: the same PreFilter verdict, filter
// verdict per node (code, plugin, reasons), normalised score per plugin
// and total per feasible node, the same tied best nodes, schedkit's
// scheduler picks one of them, and on each feasible node the devices
// upstream's Reserve allocates are schedkit's.
func TestDRAProfileDifferential(t *testing.T) {
	plugins := draProfilePlugins()
	var placed, unschedulable, prefail int
	firstFailing := map[string]int{}
	defer func() {
		t.Logf("first failing plugins: %v", firstFailing)
		t.Logf("pods: %d placed, %d fit nowhere, %d rejected before Filter", placed, unschedulable, prefail)
	}()
	rapid.Check(t, func(rt *rapid.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		m := dragen.MixedGen().Draw(rt, "mixed")
		// As in TestDRAPluginDifferential: DRAFractionalCapacityRange is
		// off by default in v1.37.2.
		for _, sl := range m.Slices {
			for _, d := range sl.Spec.Devices {
				for _, c := range d.Capacity {
					if c.RequestPolicy != nil && strings.Contains(js(rt, c.RequestPolicy), `m"`) {
						rt.Skip("fractional request policy")
					}
				}
			}
		}
		var ours, theirs []any
		add := func(o, up any) { ours = append(ours, o); theirs = append(theirs, up) }
		for _, c := range m.Classes {
			add(c, viaJSON[resourceapi.DeviceClass](rt, c))
		}
		for _, s := range m.Slices {
			add(s, viaJSON[resourceapi.ResourceSlice](rt, s))
		}
		for _, r := range m.TaintRules {
			add(r, viaJSON[resourceapi.DeviceTaintRule](rt, r))
		}
		for _, c := range append(slices.Clone(m.Claims), m.Allocated...) {
			add(c, viaJSON[resourceapi.ResourceClaim](rt, c))
		}
		vnodes, vpods := upstream.ConvertCluster(m.Nodes, m.Pods)
		up, err := upstream.NewDRAFramework(ctx, vnodes, vpods, theirs, plugins)
		if err != nil {
			rt.Fatal(err)
		}
		defer up.Close()
		mkSnap := func() *cluster.Snapshot {
			snap, err := cluster.NewSnapshot(m.Nodes, m.Pods)
			if err != nil {
				rt.Fatal(err)
			}
			if err := snap.AddObjects(ours...); err != nil {
				rt.Fatal(err)
			}
			return snap
		}
		snap := mkSnap()
		prof, err := regression.Profile(snap, plugins)
		if err != nil {
			rt.Fatal(err)
		}
		vpod := viaJSON[v1.Pod](rt, m.Pod)
		got := regression.RunCycle(prof, snap.View().Nodes(), m.Pod)
		want := up.RunCycle(ctx, up.NodeInfos(), vpod)
		normalizeDRAAnswer(&got)
		normalizeDRAAnswer(&want)
		if g, w := js(rt, got), js(rt, want); g != w {
			rt.Fatalf("cycle:\n got %s\nwant %s\nslices %s\nclaims %s\nheld %s\nrules %s", g, w,
				js(rt, m.Slices), js(rt, m.Claims), js(rt, m.Allocated), js(rt, m.TaintRules))
		}
		for _, st := range got.Filter {
			if st.Plugin != "" {
				firstFailing[st.Plugin]++
			}
		}
		switch {
		case got.PreFilter != nil || got.Err != "":
			prefail++
			return
		case len(got.Best) == 0:
			unschedulable++
		default:
			placed++
		}

		// The scheduler's pick is one of the tied best nodes.
		s, err := scheduler.New(mkSnap(), scheduler.WithProfiles(framework.ProfileConfig{Disabled: []string{"*"}, Plugins: profileRefs(plugins)}))
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		d, serr := s.Schedule(ctx, m.Pod)
		if len(got.Best) > 0 && (serr != nil || !slices.Contains(got.Best, d.Node)) {
			rt.Fatalf("scheduler picked %q (%v), best %v", d.Node, serr, got.Best)
		}
		if len(got.Best) == 0 && serr == nil {
			rt.Fatalf("scheduler placed the pod on %q; no node is feasible", d.Node)
		}

		// On each feasible node, the devices Reserve allocates.
		for _, node := range slices.Sorted(maps.Keys(got.Total)) {
			ocs := framework.NewCycleState()
			if _, st, _ := prof.RunPreFilterPlugins(ctx, ocs, m.Pod, snap.View().Nodes()); !st.IsSuccess() {
				rt.Fatalf("PreFilter again: %v", st)
			}
			ni, _ := snap.View().Get(node)
			if st := prof.RunFilterPlugins(ctx, ocs, m.Pod, ni); st != nil {
				rt.Fatalf("Filter again %s: %v", node, st)
			}
			_, results, _ := dynamicresources.Allocations(ocs, node)

			ucs := schedframework.NewCycleState()
			if _, st, _ := up.FW.RunPreFilterPlugins(ctx, ucs, vpod); !st.IsSuccess() {
				rt.Fatalf("upstream PreFilter again: %v", st)
			}
			uni := upNode(up, node)
			if st := up.FW.RunFilterPlugins(ctx, ucs, vpod, uni); !st.IsSuccess() {
				rt.Fatalf("upstream Filter again %s: %v", node, st)
			}
			if st := up.FW.RunReservePluginsReserve(ctx, ucs, vpod, node); !st.IsSuccess() {
				rt.Fatalf("upstream Reserve %s: %v", node, st)
			}
			var wantAlloc []*resourceapi.AllocationResult
			for _, c := range m.Claims {
				if a := up.Claims.GetPendingAllocation(types.UID(c.UID)); a != nil {
					wantAlloc = append(wantAlloc, a)
				}
			}
			up.FW.RunReservePluginsUnreserve(ctx, ucs, vpod, node)
			if len(results) != len(wantAlloc) {
				rt.Fatalf("node %s: %d allocations, upstream %d", node, len(results), len(wantAlloc))
			}
			for j := range results {
				g := viaJSON[resourceapi.AllocationResult](rt, &results[j])
				normalizeShares(g)
				normalizeShares(wantAlloc[j])
				if g, w := js(rt, g), js(rt, wantAlloc[j]); g != w {
					rt.Fatalf("node %s claim %d:\n got %s\nwant %s", node, j, g, w)
				}
			}
		}
	})
}

func profileRefs(plugins []regression.PluginRef) []framework.PluginRef {
	out := []framework.PluginRef{{Name: "PrioritySort"}, {Name: "DefaultBinder"}}
	for _, p := range plugins {
		out = append(out, framework.PluginRef{Name: p.Name, Weight: p.Weight})
	}
	return out
}

func upNode(f *upstream.DRAFramework, name string) fwk.NodeInfo {
	for _, ni := range f.NodeInfos() {
		if ni.Node().Name == name {
			return ni
		}
	}
	return nil
}

// TestDRAExtendedScoringDifferential draws DRA worlds whose pod requests
// an extended resource a DeviceClass backs (drawExtendedResources: the
// class's extendedResourceName or its implicit name, nodes with none,
// zero or two of it allocatable) and runs it through NodeResourcesFit
// and NodeResourcesBalancedAllocation scoring that resource beside cpu
// and memory (LeastAllocated or MostAllocated, a drawn weight), with
// DynamicResources: upstream's and schedkit's filter verdicts, scores
// and totals agree. On a node without the resource allocatable both
// score the class's devices there (calculateDRAResourceTotals).
// BalancedAllocation scores the resource only when the class has no CEL
// selector: v1.37.2's NewBalancedAllocation leaves the scorer's CEL
// cache nil, and upstream panics on a selector there.
func TestDRAExtendedScoringDifferential(t *testing.T) {
	plugins := []regression.PluginRef{{Name: "NodeResourcesFit", Weight: 1}, {Name: "NodeResourcesBalancedAllocation", Weight: 1},
		{Name: dynamicresources.Name, Weight: 2}}
	rapid.Check(t, func(rt *rapid.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		m := dragen.MixedGen().Draw(rt, "mixed")
		for _, sl := range m.Slices {
			for _, d := range sl.Spec.Devices {
				for _, c := range d.Capacity {
					if c.RequestPolicy != nil && strings.Contains(js(rt, c.RequestPolicy), `m"`) {
						rt.Skip("fractional request policy")
					}
				}
			}
		}
		if !drawExtendedResources(rt, &m.World, m.Pod) {
			rt.Skip("no extended resource")
		}
		var ext api.ResourceName
		for n := range m.Pod.Spec.Containers[0].Resources.Requests {
			ext = n
		}
		balanced := []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}
		upBalanced := []upconfig.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}
		if c := dra.ExtendedResourceClasses(m.Classes)[ext]; c != nil && !slices.ContainsFunc(c.Spec.Selectors, func(s api.DeviceSelector) bool { return s.CEL != nil }) {
			balanced = append(balanced, config.ResourceSpec{Name: string(ext), Weight: 1})
			upBalanced = append(upBalanced, upconfig.ResourceSpec{Name: string(ext), Weight: 1})
		}
		strategy := rapid.SampledFrom([]string{"LeastAllocated", "MostAllocated"}).Draw(rt, "strategy")
		weight := rapid.Int64Range(1, 5).Draw(rt, "ext-weight")
		ours := map[string]any{
			"NodeResourcesFit": &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.ScoringStrategyType(strategy),
				Resources: []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: string(ext), Weight: weight}}}},
			"NodeResourcesBalancedAllocation": &config.NodeResourcesBalancedAllocationArgs{Resources: balanced},
		}
		theirs := []upconfig.PluginConfig{
			{Name: "NodeResourcesFit", Args: &upconfig.NodeResourcesFitArgs{ScoringStrategy: &upconfig.ScoringStrategy{Type: upconfig.ScoringStrategyType(strategy),
				Resources: []upconfig.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: string(ext), Weight: weight}}}}},
			{Name: "NodeResourcesBalancedAllocation", Args: &upconfig.NodeResourcesBalancedAllocationArgs{Resources: upBalanced}},
		}
		var objs, upObjs []any
		add := func(o, up any) { objs = append(objs, o); upObjs = append(upObjs, up) }
		for _, c := range m.Classes {
			add(c, viaJSON[resourceapi.DeviceClass](rt, c))
		}
		for _, s := range m.Slices {
			add(s, viaJSON[resourceapi.ResourceSlice](rt, s))
		}
		for _, r := range m.TaintRules {
			add(r, viaJSON[resourceapi.DeviceTaintRule](rt, r))
		}
		for _, c := range append(slices.Clone(m.Claims), m.Allocated...) {
			add(c, viaJSON[resourceapi.ResourceClaim](rt, c))
		}
		vnodes, vpods := upstream.ConvertCluster(m.Nodes, m.Pods)
		up, err := upstream.NewDRAFramework(ctx, vnodes, vpods, upObjs, plugins, theirs...)
		if err != nil {
			rt.Fatal(err)
		}
		defer up.Close()
		snap, err := cluster.NewSnapshot(m.Nodes, m.Pods)
		if err != nil {
			rt.Fatal(err)
		}
		if err := snap.AddObjects(objs...); err != nil {
			rt.Fatal(err)
		}
		prof, err := regression.ProfileWithArgs(snap, plugins, ours)
		if err != nil {
			rt.Fatal(err)
		}
		got := regression.RunCycle(prof, snap.View().Nodes(), m.Pod)
		want := up.RunCycle(ctx, up.NodeInfos(), viaJSON[v1.Pod](rt, m.Pod))
		normalizeDRAAnswer(&got)
		normalizeDRAAnswer(&want)
		if g, w := js(rt, got), js(rt, want); g != w {
			rt.Fatalf("cycle (%s, %s weight %d):\n got %s\nwant %s\nslices %s\nclasses %s\nheld %s\nclaims %s\nnodes %s\npod %s", strategy, ext, weight, g, w,
				js(rt, m.Slices), js(rt, m.Classes), js(rt, m.Allocated), js(rt, m.Claims), js(rt, m.Nodes), js(rt, m.Pod))
		}
	})
}
