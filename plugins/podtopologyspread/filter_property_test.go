package podtopologyspread

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

// spreadWorld draws a few nodes over zones and hosts (some without a
// zone), labelled pods bound to them and an incoming pod with DoNotSchedule
// constraints over zone or hostname.
func spreadWorld(t *rapid.T) ([]*api.Node, []*api.Pod, *api.Pod) {
	var nodes []*api.Node
	for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
		b := spreadNode().Name(fmt.Sprintf("n%d", i)).Label("kubernetes.io/hostname", fmt.Sprintf("n%d", i))
		if rapid.IntRange(0, 5).Draw(t, "noZone") != 0 {
			b.Label("zone", rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "zone"))
		}
		nodes = append(nodes, b.Obj())
	}
	var pods []*api.Pod
	for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
		b := spreadPod().Name(fmt.Sprintf("p%d", i)).Node(nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")].Name)
		if rapid.Bool().Draw(t, "foo") {
			b.Label("foo", "")
		}
		pods = append(pods, b.Obj())
	}
	in := spreadPod().Name("incoming").Label("foo", "")
	for range rapid.IntRange(1, 2).Draw(t, "constraints") {
		var minDomains *int32
		if rapid.Bool().Draw(t, "hasMinDomains") {
			minDomains = spreadPtr(rapid.Int32Range(1, 4).Draw(t, "minDomains"))
		}
		in.SpreadConstraint(rapid.IntRange(1, 2).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key"),
			api.DoNotSchedule, fooSelector, minDomains, nil, nil, nil)
	}
	return nodes, pods, in.Obj()
}

func spreadFilterAll(t *rapid.T, nodes []*api.Node, pods []*api.Pod, pod *api.Pod) (map[string]framework.Code, *PodTopologySpread, *framework.CycleState, *cluster.Snapshot) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, spreadHandle{snap})
	p := pl.(*PodTopologySpread)
	state := framework.NewCycleState()
	if _, st := p.PreFilter(context.Background(), state, pod, snap.Nodes()); !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st)
	}
	codes := map[string]framework.Code{}
	for _, ni := range snap.Nodes() {
		codes[ni.Name()] = p.Filter(context.Background(), state, pod, ni).Code()
	}
	return codes, p, state, snap
}

// The filter's answers do not depend on the order of nodes or pods.
func TestSpreadFilterOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		want, _, _, _ := spreadFilterAll(t, nodes, pods, pod)
		pn := rapid.Permutation(nodes).Draw(t, "nodeOrder")
		pp := rapid.Permutation(pods).Draw(t, "podOrder")
		got, _, _, _ := spreadFilterAll(t, pn, pp, pod)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("order changed the answers: %v vs %v", want, got)
		}
	})
}

// AddPod then RemovePod of the same pod restores the counts, and AddPod
// gives the counts a fresh PreFilter computes with the pod in the
// cluster.
func TestSpreadAddRemovePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		_, p, state, snap := spreadFilterAll(t, nodes, pods, pod)
		before := state.Clone()
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")]
		added := spreadPod().Name("added").Label("foo", "").Node(target.Name).Obj()
		ni, _ := snap.Get(target.Name)
		ctx := context.Background()
		if st := p.AddPod(ctx, state, pod, cluster.NewPodInfo(added), ni); !st.IsSuccess() {
			t.Fatal(st)
		}
		withPod, _, fresh, _ := spreadFilterAll(t, nodes, append(append([]*api.Pod{}, pods...), added), pod)
		a, _ := readSpreadFilterState(state)
		f, _ := readSpreadFilterState(fresh)
		if !reflect.DeepEqual(a.countsByValue(), f.countsByValue()) {
			t.Fatalf("AddPod counts %v, fresh PreFilter %v", a.countsByValue(), f.countsByValue())
		}
		for _, n := range snap.Nodes() {
			if got := p.Filter(ctx, state, pod, n).Code(); got != withPod[n.Name()] {
				t.Fatalf("%s: after AddPod %v, fresh %v", n.Name(), got, withPod[n.Name()])
			}
		}
		if st := p.RemovePod(ctx, state, pod, cluster.NewPodInfo(added), ni); !st.IsSuccess() {
			t.Fatal(st)
		}
		b, _ := readSpreadFilterState(before)
		a, _ = readSpreadFilterState(state)
		if !reflect.DeepEqual(a.countsByValue(), b.countsByValue()) || a.paths[0][0].count != b.paths[0][0].count {
			t.Fatalf("RemovePod did not restore: %v vs %v", a.countsByValue(), b.countsByValue())
		}
	})
}

// Adding a matching pod never makes an infeasible node feasible... except
// by raising the global minimum: adding it to a domain other than the
// node's own can only raise the minimum, so this checks the node's own
// domain, where the pod raises the node's count at least as much as the
// minimum.
func TestSpreadAddingToOwnDomainKeepsInfeasible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		before, _, _, _ := spreadFilterAll(t, nodes, pods, pod)
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")]
		added := spreadPod().Name("added").Label("foo", "").Node(target.Name).Obj()
		after, _, _, _ := spreadFilterAll(t, nodes, append(append([]*api.Pod{}, pods...), added), pod)
		if before[target.Name] != framework.Success && after[target.Name] == framework.Success {
			t.Fatalf("%s became feasible after a matching pod was added to it", target.Name)
		}
	})
}

// spreadStatuses is every node's Filter status through Filter and through
// FilterNodes over the whole list, over two slices of it and over some of
// its nodes picked into a slice of their own (keyed by node name, then
// "nodes:", "chunks:" and "picked:" and the name).
func spreadStatuses(p *PodTopologySpread, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, cut int) map[string]string {
	ctx := context.Background()
	out := map[string]string{}
	for _, ni := range nodes {
		out[ni.Name()] = statusString(p.Filter(ctx, state, pod, ni))
	}
	sts := make([]*framework.Status, len(nodes))
	p.FilterNodes(ctx, state, pod, nodes, sts)
	for i, ni := range nodes {
		out["nodes:"+ni.Name()] = statusString(sts[i])
	}
	clear(sts)
	cut = min(cut, len(nodes))
	p.FilterNodes(ctx, state, pod, nodes[cut:], sts[cut:])
	p.FilterNodes(ctx, state, pod, nodes[:cut], sts[:cut])
	for i, ni := range nodes {
		out["chunks:"+ni.Name()] = statusString(sts[i])
	}
	// Some of the nodes, in order, in a slice of their own (as the
	// engine passes the nodes earlier filters kept).
	var picked []*cluster.NodeInfo
	for i, ni := range nodes {
		if (i+cut)%3 != 0 {
			picked = append(picked, ni)
		}
	}
	clear(sts)
	p.FilterNodes(ctx, state, pod, picked, sts[:len(picked)])
	for i, ni := range picked {
		out["picked:"+ni.Name()] = statusString(sts[i])
	}
	return out
}

// spreadFastAgrees fails unless every FilterNodes status in m (keys
// "nodes:", "chunks:" and "picked:" and a name) is Filter's for the node.
func spreadFastAgrees(t interface{ Fatalf(string, ...any) }, m map[string]string) {
	for k, v := range m {
		if _, name, ok := strings.Cut(k, ":"); ok && v != m[name] {
			t.Fatalf("%s: FilterNodes gives %s, Filter %s", k, v, m[name])
		}
	}
}

// spreadCycle runs PreFilter then spreadStatuses; a skipped pod gives
// {"": "Skip"}.
func spreadCycle(p *PodTopologySpread, pod *api.Pod, nodes []*cluster.NodeInfo, cut int) (map[string]string, *framework.CycleState) {
	state := framework.NewCycleState()
	if _, st := p.PreFilter(context.Background(), state, pod, nodes); !st.IsSuccess() {
		return map[string]string{"": statusString(st)}, state
	}
	return spreadStatuses(p, state, pod, nodes, cut), state
}

// A long-lived plugin, whose PreFilter keeps counts across cycles, decides
// exactly as a new one through pod, node and label changes, assumed pods
// and AddPod/RemovePod on a cycle's state or its clone; a previous
// cycle's state keeps filtering as it did.
func TestPropertySpreadCache(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _, pods := testwrap.DrawSpreadWorld(t, 6, 10)
		var names []string // the view's nodes before each step's change
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, spreadHandle{snap})
		cached := pl.(*PodTopologySpread)
		// A cache of four, so that the incoming pods below evict.
		cached.cache.size = 4
		var incoming []*api.Pod
		for i := range 6 { // more than the cache holds
			incoming = append(incoming, testwrap.SpreadIncomingGen(i, api.DoNotSchedule).Draw(t, "incoming"))
		}
		extra := 0
		var prevState *framework.CycleState
		var prevPod *api.Pod
		var prevNodes []*cluster.NodeInfo
		var prevGot map[string]string
		var prevCut int
		for step := range rapid.IntRange(1, 12).Draw(t, "steps") {
			pods, names = testwrap.ChurnSpread(t, snap, pods, step, &extra, "zone")
			pod := rapid.SampledFrom(incoming).Draw(t, "pod")
			view := snap.View().Nodes()
			if r := rapid.IntRange(0, len(view)-1).Draw(t, "rotate"); r > 0 && rapid.IntRange(0, 3).Draw(t, "rotated") == 0 {
				// Not the view's order: positions differ from its index.
				view = append(append([]*cluster.NodeInfo(nil), view[r:]...), view[:r]...)
			}
			cut := rapid.IntRange(0, len(view)).Draw(t, "cut")
			got, state := spreadCycle(cached, pod, view, cut)
			fresh, _ := New(nil, spreadHandle{snap})
			want, freshState := spreadCycle(fresh.(*PodTopologySpread), pod, view, cut)
			spreadFastAgrees(t, got)
			spreadFastAgrees(t, want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, new plugin %v", step, got, want)
			}
			// A new plugin's first counts come through the snapshot's
			// pod index; a plugin reading every pod counts the same.
			plain, _ := New(nil, spreadHandle{snap})
			plain.(*PodTopologySpread).cache.noIndex = true
			if p, _ := spreadCycle(plain.(*PodTopologySpread), pod, view, cut); !reflect.DeepEqual(got, p) {
				t.Fatalf("step %d: cached plugin %v, plugin reading every pod %v", step, got, p)
			}
			if prevState != nil {
				if st := spreadStatuses(cached, prevState, prevPod, prevNodes, prevCut); !reflect.DeepEqual(st, prevGot) {
					t.Fatalf("step %d: the previous cycle's state now gives %v, it gave %v", step, st, prevGot)
				}
			}
			prevState, prevPod, prevNodes, prevGot, prevCut = nil, nil, nil, nil, 0
			if _, skipped := got[""]; skipped || len(names) == 0 {
				continue
			}
			// AddPod and RemovePod on this cycle's state (or a clone)
			// agree with the new plugin's and leave the cache alone.
			direct := rapid.Bool().Draw(t, "direct")
			into, freshInto := state.Clone(), freshState.Clone()
			if direct {
				into, freshInto = state, freshState
			}
			for i := range rapid.IntRange(1, 3).Draw(t, "nominated") {
				p := testwrap.SpreadExistingPodGen(fmt.Sprintf("nominated-%d", i), names).Draw(t, "pod")
				ni, _ := snap.Get(p.Spec.NodeName)
				if rapid.IntRange(0, 4).Draw(t, "otherNode") == 0 {
					// A node PreFilter did not see.
					ni = cluster.NewNodeInfo(testwrap.SpreadNodeGen("elsewhere").Draw(t, "node"))
				}
				op := cached.AddPod
				freshOp := fresh.(*PodTopologySpread).AddPod
				if rapid.Bool().Draw(t, "remove") {
					op, freshOp = cached.RemovePod, fresh.(*PodTopologySpread).RemovePod
				}
				if st := op(context.Background(), into, pod, cluster.NewPodInfo(p), ni); st != nil {
					t.Fatal(st)
				}
				if st := freshOp(context.Background(), freshInto, pod, cluster.NewPodInfo(p), ni); st != nil {
					t.Fatal(st)
				}
				a, _ := readSpreadFilterState(into)
				f, _ := readSpreadFilterState(freshInto)
				if !reflect.DeepEqual(a.countsByValue(), f.countsByValue()) {
					t.Fatalf("step %d: after AddPod/RemovePod counts %v, new plugin's %v", step, a.countsByValue(), f.countsByValue())
				}
				g, w := spreadStatuses(cached, into, pod, view, cut), spreadStatuses(cached, freshInto, pod, view, cut)
				spreadFastAgrees(t, g)
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("step %d: after AddPod/RemovePod %v, new plugin's %v", step, g, w)
				}
			}
			if !direct {
				prevState, prevPod, prevNodes, prevGot, prevCut = state, pod, view, got, cut
			}
		}
	})
}

// Cycles running at once on one plugin (PreFilter, FilterNodes and AddPod
// on their states) while the snapshot changes between rounds agree with a
// new plugin's, and a state keeps filtering as it did while later cycles
// refresh the kept counts (run with -race).
func TestSpreadCacheConcurrentCycles(t *testing.T) {
	nodes, pods := testwrap.SpreadChurnCluster()
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, spreadHandle{snap})
	shared := pl.(*PodTopologySpread)
	incoming := []*api.Pod{
		spreadPod().Name("zone").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
		spreadPod().Name("host").Label("foo", "").SpreadConstraint(1, "kubernetes.io/hostname", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
	}
	type done struct {
		state *framework.CycleState
		pod   *api.Pod
		nodes []*cluster.NodeInfo
		want  map[string]string
	}
	var prev []done
	for round := range 6 {
		if round > 0 {
			p := spreadPod().Name(fmt.Sprintf("added-%d", round)).Label("foo", "").Node(nodes[round*97%len(nodes)].Name).Obj()
			if err := snap.AddPod(p); err != nil {
				t.Fatal(err)
			}
		}
		view := snap.View().Nodes()
		var wants []map[string]string
		for _, pod := range incoming {
			fresh, _ := New(nil, spreadHandle{snap})
			w, _ := spreadCycle(fresh.(*PodTopologySpread), pod, view, 256)
			spreadFastAgrees(t, w)
			wants = append(wants, w)
		}
		results := make(chan done, 8)
		errs := make(chan string, 16)
		for g := range 8 {
			go func() {
				pod, want := incoming[g%2], wants[g%2]
				got, state := spreadCycle(shared, pod, view, 256)
				if !reflect.DeepEqual(got, want) {
					errs <- fmt.Sprintf("round %d goroutine %d: got %v, want %v", round, g, got, want)
				}
				// AddPod on a clone, as preemption does.
				into := state.Clone()
				ni := view[g*37%len(view)]
				if st := shared.AddPod(context.Background(), into, pod, cluster.NewPodInfo(spreadPod().Name("nominated").Label("foo", "").Obj()), ni); st != nil {
					errs <- st.Message()
				}
				spreadStatuses(shared, into, pod, view, 300)
				results <- done{state, pod, view, got}
			}()
		}
		// Meanwhile the last round's states filter again.
		for _, d := range prev {
			if got := spreadStatuses(shared, d.state, d.pod, d.nodes, 256); !reflect.DeepEqual(got, d.want) {
				t.Fatalf("round %d: a previous state now gives %v, it gave %v", round, got, d.want)
			}
		}
		prev = prev[:0]
		for range 8 {
			prev = append(prev, <-results)
		}
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}

// A node list holding a nil NodeInfo or one without a node counts nothing
// for them, as before the counts were kept (and a second cycle sees the
// same).
func TestSpreadPreFilterNodelessInfos(t *testing.T) {
	snap, err := cluster.NewSnapshot([]*api.Node{spreadNode().Name("a").Label("zone", "z1").Obj()},
		[]*api.Pod{spreadPod().Name("p").Label("foo", "").Node("a").Obj()})
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, spreadHandle{snap})
	p := pl.(*PodTopologySpread)
	pod := spreadPod().Name("in").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj()
	nodes := append([]*cluster.NodeInfo{nil, cluster.NewNodeInfo(nil)}, snap.View().Nodes()...)
	for cycle := range 2 {
		state := framework.NewCycleState()
		if _, st := p.PreFilter(context.Background(), state, pod, nodes); !st.IsSuccess() {
			t.Fatal(st)
		}
		s, _ := readSpreadFilterState(state)
		if got, want := s.countsByValue(), []map[string]int{{"z1": 1}}; !reflect.DeepEqual(got, want) {
			t.Fatalf("cycle %d: counts %v, want %v", cycle, got, want)
		}
		sts := make([]*framework.Status, len(nodes))
		p.FilterNodes(context.Background(), state, pod, nodes, sts)
		if sts[0] == nil || sts[1] == nil || sts[2] != nil {
			t.Fatalf("cycle %d: statuses %v", cycle, sts)
		}
	}
}

// The kept counts follow a change of numbering exactly: a cache synced
// over the same nodes under Topologies that number the domains in other
// orders (as a later view may), or under the view's, holds what a new
// cache counts under the last ones, id by id, with the same critical
// paths; a node subset in between changes nothing either.
func TestPropertySpreadCacheRenumbered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _, pods := testwrap.DrawSpreadWorld(t, 8, 12)
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		pod := testwrap.SpreadIncomingGen(0, api.DoNotSchedule).Draw(t, "incoming")
		cs, err := spreadConstraints(pod, nil, nil, api.DoNotSchedule)
		if err != nil || len(cs) == 0 {
			t.Skip("no constraints")
		}
		req := affinity.GetRequiredNodeAffinity(pod)
		view := snap.View()
		all := view.Nodes()
		kept := newFilterCounts(cs, &nodeTrack{}, len(all))
		for round := range rapid.IntRange(1, 5).Draw(t, "rounds") {
			in := all
			if rapid.IntRange(0, 3).Draw(t, "subset") == 0 {
				in = all[:rapid.IntRange(0, len(all)).Draw(t, "cut")]
			}
			topos := spreadTopologies(cs, view, in, nil)
			if rapid.IntRange(0, 2).Draw(t, "own") != 0 {
				topos = spreadTopologies(cs, nil, rapid.Permutation(all).Draw(t, "order"), nil)
			}
			kept.sync(in, topos, inputs{pod: pod, req: req})
			kept.shared = rapid.Bool().Draw(t, "shared")
			fresh := newFilterCounts(cs, &nodeTrack{}, len(in))
			fresh.sync(in, topos, inputs{pod: pod, req: req})
			for i := range cs {
				a, b := &kept.domains[i], &fresh.domains[i]
				if !slices.Equal(a.refs, b.refs) || !slices.Equal(a.counts, b.counts) || a.live != b.live {
					t.Fatalf("round %d, constraint %d: kept refs %v counts %v live %d, fresh %v %v %d",
						round, i, a.refs, a.counts, a.live, b.refs, b.counts, b.live)
				}
			}
			if !reflect.DeepEqual(kept.paths, fresh.paths) {
				t.Fatalf("round %d: kept paths %v, fresh %v", round, kept.paths, fresh.paths)
			}
		}
	})
}

// PreFilter given NodeInfos of no view beside the view's (a value the
// view's Topology does not number) counts and filters as a plugin without
// a snapshot does over the same nodes, cycle after cycle, and a later
// cycle over the view's nodes alone as a new plugin does.
func TestSpreadPreFilterNodesOfNoView(t *testing.T) {
	snap, err := cluster.NewSnapshot([]*api.Node{
		spreadNode().Name("a").Label("zone", "z1").Obj(),
		spreadNode().Name("b").Label("zone", "z2").Obj(),
	}, []*api.Pod{
		spreadPod().Name("p1").Label("foo", "").Node("a").Obj(),
		spreadPod().Name("p2").Label("foo", "").Node("a").Obj(),
	})
	if err != nil {
		t.Fatal(err)
	}
	other := cluster.NewNodeInfo(spreadNode().Name("c").Label("zone", "z9").Obj())
	other.AddPod(cluster.NewPodInfo(spreadPod().Name("p3").Label("foo", "").Node("c").Obj()))
	nodes := append(slices.Clone(snap.View().Nodes()), other)
	pod := spreadPod().Name("in").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj()
	pl, _ := New(nil, spreadHandle{snap})
	p := pl.(*PodTopologySpread)
	for cycle := range 3 {
		in := nodes
		if cycle == 2 {
			in = snap.View().Nodes()
		}
		ref, _ := New(nil, nil)
		if cycle == 2 {
			ref, _ = New(nil, spreadHandle{snap})
		}
		got, state := spreadCycle(p, pod, in, 1)
		want, refState := spreadCycle(ref.(*PodTopologySpread), pod, in, 1)
		spreadFastAgrees(t, got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("cycle %d: %v, want %v", cycle, got, want)
		}
		a, _ := readSpreadFilterState(state)
		b, _ := readSpreadFilterState(refState)
		if !reflect.DeepEqual(a.countsByValue(), b.countsByValue()) {
			t.Fatalf("cycle %d: counts %v, want %v", cycle, a.countsByValue(), b.countsByValue())
		}
	}
}
