package interpodaffinity

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

// filterAll returns each node's Filter status by name, or the PreFilter
// status under "".
func filterAll(t *rapid.T, c testwrap.IPACluster, pod *api.Pod) map[string]string {
	snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(nil, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinity)
	state := framework.NewCycleState()
	_, pre := p.PreFilter(context.Background(), state, pod, snap.View().Nodes())
	if pre != nil {
		return map[string]string{"": statusString(pre)}
	}
	out := map[string]string{}
	for _, ni := range snap.View().Nodes() {
		out[ni.Name()] = statusString(p.Filter(context.Background(), state, pod, ni))
	}
	return out
}

// Adding an existing pod that the incoming pod's required anti-affinity
// matches never lets a pod without required affinity fit a node it did
// not fit.
func TestPropertyInterPodAntiAffinityMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		if pod.Spec.Affinity != nil && pod.Spec.Affinity.PodAffinity != nil {
			pod.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
		}
		before := filterAll(t, c, pod)
		extra := testwrap.IPAPodGen(false).Draw(t, "extra")
		extra.Name = "extra"
		extra.Spec.NodeName = c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "extraNode")].Name
		c.Pods = append(c.Pods, extra)
		after := filterAll(t, c, pod)
		if _, ok := before[""]; ok {
			return // skipped before: every node fit
		}
		if _, ok := after[""]; ok {
			t.Fatalf("PreFilter skips after adding a pod: %v", after)
		}
		for n, st := range before {
			if st != "Success" && after[n] == "Success" {
				t.Fatalf("node %s: %s before adding %v, Success after", n, st, extra.Labels)
			}
		}
	})
}

// AddPod then RemovePod leaves the counts as PreFilter made them, and
// AddPod gives the Filter results a PreFilter over the snapshot with the
// pod added gives.
func TestPropertyInterPodAffinityAddRemovePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		pod.Name = "incoming"
		extra := testwrap.IPAPodGen(rapid.Bool().Draw(t, "plainExtra")).Draw(t, "extra")
		extra.Name = "extra"
		node := c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "extraNode")]
		extra.Spec.NodeName = node.Name

		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, ipaHandle{Snap: snap})
		p := pl.(*InterPodAffinity)
		state := framework.NewCycleState()
		if _, st := p.PreFilter(context.Background(), state, pod, snap.View().Nodes()); st != nil {
			return
		}
		s0, _ := readInterPodAffinityState(state)
		orig := s0.Clone().(*interPodAffinityState)
		ni, _ := snap.Get(node.Name)
		ctx := context.Background()
		with := state.Clone()
		ei := cluster.NewPodInfo(extra)
		if st := p.AddPod(ctx, with, pod, ei, ni); st != nil {
			t.Fatal(st)
		}
		// Filter after AddPod against a fresh PreFilter with the pod in
		// the snapshot.
		c2 := c
		c2.Pods = append(append([]*api.Pod(nil), c.Pods...), extra)
		fresh := filterAll(t, c2, pod)
		if _, ok := fresh[""]; !ok {
			snap2, _ := ipaSnapshot(c2.Nodes, c2.Pods, c2.NS)
			for _, n := range snap2.View().Nodes() {
				got := statusString(p.Filter(ctx, with, pod, n))
				if got != fresh[n.Name()] {
					t.Fatalf("node %s after AddPod: %s, fresh PreFilter: %s", n.Name(), got, fresh[n.Name()])
				}
			}
		}
		if st := p.RemovePod(ctx, with, pod, ei, ni); st != nil {
			t.Fatal(st)
		}
		s1, _ := readInterPodAffinityState(with)
		for _, pair := range []struct {
			name string
			a, b topologyCounts
		}{{"existingAnti", orig.m.existing, s1.m.existing}, {"affinity", orig.m.affinity, s1.m.affinity}, {"anti", orig.m.anti, s1.m.anti}} {
			if a, b := countsOf(pair.a), countsOf(pair.b); !reflect.DeepEqual(a, b) || pair.a.pairs != pair.b.pairs {
				t.Fatalf("%s counts after AddPod+RemovePod: %v (%d pairs), want %v (%d pairs)", pair.name, b, pair.b.pairs, a, pair.a.pairs)
			}
		}
		// The original state is untouched by the clone's updates.
		if now := s0.Clone().(*interPodAffinityState); !reflect.DeepEqual(countsOf(orig.m.affinity), countsOf(now.m.affinity)) || !reflect.DeepEqual(countsOf(orig.m.existing), countsOf(now.m.existing)) {
			t.Fatal("updating a cloned state changed the original")
		}
	})
}

// countsOf flattens counts to key → value → count, without empty keys.
func countsOf(c topologyCounts) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for i, k := range c.keys {
		if len(c.values[i]) > 0 {
			out[k] = c.values[i]
		}
	}
	return out
}

// The statuses do not depend on the order of the nodes or of the pods.
func TestPropertyInterPodAffinityOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		want := filterAll(t, c, pod)
		perm := rapid.Permutation(c.Nodes).Draw(t, "nodeOrder")
		pods := rapid.Permutation(c.Pods).Draw(t, "podOrder")
		got := filterAll(t, testwrap.IPACluster{Nodes: perm, Pods: pods, NS: c.NS}, pod)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("reordered: %v, want %v", got, want)
		}
	})
}

// filterWith runs PreFilter and Filter of p over the snapshot's nodes.
func filterWith(p *InterPodAffinity, snap *cluster.Snapshot, pod *api.Pod) (map[string]string, *framework.CycleState) {
	state := framework.NewCycleState()
	nodes := snap.View().Nodes()
	_, pre := p.PreFilter(context.Background(), state, pod, nodes)
	if pre != nil {
		return map[string]string{"": statusString(pre)}, state
	}
	out := map[string]string{}
	for _, ni := range nodes {
		out[ni.Name()] = statusString(p.Filter(context.Background(), state, pod, ni))
	}
	return out, state
}

// A plugin that keeps its counts across cycles decides every cycle as a
// new plugin would, whatever happens to the snapshot between cycles
// (pods and nodes added and removed, node labels changed) and whatever
// AddPod does to a cycle's state.
func TestPropertyInterPodAffinityCache(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, ipaHandle{Snap: snap})
		cached := pl.(*InterPodAffinity)
		// A cache of four, so that the incoming pods below evict.
		cached.cache.size = 4
		var incoming []*api.Pod
		for i := range 6 { // more than the cache holds
			p := testwrap.IPAPodGen(false).Draw(t, "incoming")
			p.Name = fmt.Sprintf("incoming-%d", i)
			incoming = append(incoming, p)
		}
		pods := append([]*api.Pod(nil), c.Pods...)
		extra := 0
		var prevState *framework.CycleState
		var prevPod *api.Pod
		var prevNodes []*cluster.NodeInfo
		var prevGot map[string]string
		for step := range rapid.IntRange(1, 10).Draw(t, "steps") {
			names := func() []string {
				var out []string
				for _, ni := range snap.View().Nodes() {
					out = append(out, ni.Name())
				}
				return out
			}()
			switch rapid.IntRange(0, 5).Draw(t, "change") {
			case 0, 1:
				if len(names) > 0 {
					p := testwrap.IPAPodGen(rapid.Bool().Draw(t, "plain")).Draw(t, "added")
					p.Name = fmt.Sprintf("added-%d", extra)
					extra++
					p.Spec.NodeName = rapid.SampledFrom(names).Draw(t, "onNode")
					if err := snap.AddPod(p); err != nil {
						t.Fatal(err)
					}
					pods = append(pods, p)
				}
			case 2:
				if len(pods) > 0 {
					i := rapid.IntRange(0, len(pods)-1).Draw(t, "removed")
					if err := snap.RemovePod(pods[i]); err == nil {
						pods = append(pods[:i], pods[i+1:]...)
					}
				}
			case 3:
				name := fmt.Sprintf("new-%d", step)
				labels := map[string]string{"kubernetes.io/hostname": name, "zone": rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "zone")}
				if err := snap.AddNode(ipaNode(name, labels)); err != nil {
					t.Fatal(err)
				}
			case 4:
				if len(names) > 1 {
					name := rapid.SampledFrom(names).Draw(t, "relabel")
					ni, _ := snap.Get(name)
					n := *ni.Node()
					n.Labels = maps.Clone(n.Labels)
					n.Labels["zone"] = rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "newZone")
					if rapid.Bool().Draw(t, "dropRack") {
						delete(n.Labels, "rack")
					}
					if err := snap.UpdateNode(&n); err != nil {
						t.Fatal(err)
					}
				}
			}
			pod := rapid.SampledFrom(incoming).Draw(t, "pod")
			got, state := filterWith(cached, snap, pod)
			fresh, _ := New(nil, ipaHandle{Snap: snap})
			want, _ := filterWith(fresh.(*InterPodAffinity), snap, pod)
			// A new plugin's first count, through the snapshot's pod
			// index, is a count of every pod.
			checkColdCounts(t, snap, pod, fmt.Sprintf("step %d", step))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, new plugin %v", step, got, want)
			}
			// The last cycle's state still filters as it did.
			if prevState != nil {
				for _, ni := range prevNodes {
					if st := statusString(cached.Filter(context.Background(), prevState, prevPod, ni)); st != prevGot[ni.Name()] {
						t.Fatalf("step %d: the previous cycle's state now gives %s on %s, it gave %s", step, st, ni.Name(), prevGot[ni.Name()])
					}
				}
				// Its counts too, read once AddPod and RemovePod of a
				// pod that matches nothing made them maps of its own.
				if len(prevNodes) > 0 {
					cl := prevState.Clone()
					quiet := cluster.NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "quiet", Namespace: "elsewhere"}})
					if st := cached.AddPod(context.Background(), cl, prevPod, quiet, prevNodes[0]); st != nil {
						t.Fatal(st)
					}
					if st := cached.RemovePod(context.Background(), cl, prevPod, quiet, prevNodes[0]); st != nil {
						t.Fatal(st)
					}
					for _, ni := range prevNodes {
						if st := statusString(cached.Filter(context.Background(), cl, prevPod, ni)); st != prevGot[ni.Name()] {
							t.Fatalf("step %d: the previous cycle's state, its counts as maps, now gives %s on %s, it gave %s", step, st, ni.Name(), prevGot[ni.Name()])
						}
					}
				}
			}
			// AddPod on this cycle's state (or a clone) must leave the
			// cache alone.
			direct := false
			if _, skipped := got[""]; !skipped && len(names) > 0 {
				p := testwrap.IPAPodGen(false).Draw(t, "nominated")
				p.Name = "nominated"
				ni, _ := snap.Get(rapid.SampledFrom(names).Draw(t, "nominatedNode"))
				into := state.Clone()
				if direct = rapid.Bool().Draw(t, "addPodDirect"); direct {
					into = state
				}
				if st := cached.AddPod(context.Background(), into, pod, cluster.NewPodInfo(p), ni); st != nil {
					t.Fatal(st)
				}
			}
			prevState, prevPod, prevNodes, prevGot = nil, nil, nil, nil
			if _, skipped := got[""]; !skipped && !direct {
				prevState, prevPod, prevNodes, prevGot = state, pod, snap.View().Nodes(), got
			}
		}
	})
}

// FilterNodes gives each node Filter's status; Filter's check by domain
// ids (or one lookup per key of the anti-affinity counts) gives the
// term-by-term check's status of the count maps (taken after AddPod adds
// a key), also after AddPod.
func TestPropertyInterPodAffinityFilterNodes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, ipaHandle{Snap: snap})
		p := pl.(*InterPodAffinity)
		ctx := context.Background()
		state := framework.NewCycleState()
		nodes := snap.View().Nodes()
		if _, st := p.PreFilter(ctx, state, pod, nodes); st != nil {
			return
		}
		if rapid.Bool().Draw(t, "again") {
			// A second cycle over the same counts (the count maps made
			// from the first cycle's counts by domain id; the plugin
			// merges the anti-affinity counts' values, antiIndex.both,
			// only when there is no dense index).
			state = framework.NewCycleState()
			if _, st := p.PreFilter(ctx, state, pod, nodes); st != nil {
				t.Fatal(st)
			}
		}
		added := rapid.Bool().Draw(t, "addPod")
		if added {
			extra := testwrap.IPAPodGen(false).Draw(t, "extra")
			extra.Name = "extra"
			ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "extraNode")]
			if st := p.AddPod(ctx, state, pod, cluster.NewPodInfo(extra), ni); st != nil {
				t.Fatal(st)
			}
		}
		s, _ := readInterPodAffinityState(state)
		if !added && s.dense == nil {
			t.Fatalf("counts over the snapshot's nodes not indexed by domain id")
		}
		slow := *s
		slow.materialize()              // count maps of its own (the state's may be cold)
		slow.idx, slow.dense = nil, nil // the term-by-term check of the count maps
		got := make([]*framework.Status, len(nodes))
		p.FastPath().FilterNodes(ctx, state, pod, nodes, got)
		for i, ni := range nodes {
			want := p.Filter(ctx, state, pod, ni)
			if statusString(got[i]) != statusString(want) {
				t.Fatalf("node %s: FilterNodes %s, Filter %s", ni.Name(), statusString(got[i]), statusString(want))
			}
			if ref := slow.filter(ni.Node()); statusString(ref) != statusString(want) {
				t.Fatalf("node %s: Filter %s, term by term %s", ni.Name(), statusString(want), statusString(ref))
			}
		}
	})
}

// Without PreFilter's state, FilterNodes gives every node Filter's error.
func TestInterPodAffinityFilterNodesWithoutState(t *testing.T) {
	snap, err := ipaSnapshot([]*api.Node{testwrap.IPANode("n0", nil), testwrap.IPANode("n1", nil)}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, ipaHandle{Snap: snap})
	p := pl.(*InterPodAffinity)
	ctx, state, pod := context.Background(), framework.NewCycleState(), &api.Pod{}
	nodes := snap.View().Nodes()
	got := make([]*framework.Status, len(nodes))
	p.FilterNodes(ctx, state, pod, nodes, got)
	for i, ni := range nodes {
		if want := p.Filter(ctx, state, pod, ni); want == nil || statusString(got[i]) != statusString(want) {
			t.Errorf("node %d: %v, want %v", i, got[i], want)
		}
	}
}

// The first cycle of a pod signature counts by domain id (coldCounts);
// its counts, once in maps, are those of a count from scratch into maps
// (countAll), pairs included, and stay so after AddPod and RemovePod of
// the same pod.
// checkColdCounts checks a new plugin's first counts of pod on snap
// (found through the snapshot's pod index) against a count of every pod
// (countAll), and returns the plugin and its cycle state (nil when
// PreFilter skips).
func checkColdCounts(t *rapid.T, snap *cluster.Snapshot, pod *api.Pod, when string) (*InterPodAffinity, *framework.CycleState) {
	pl, _ := New(nil, ipaHandle{Snap: snap})
	p := pl.(*InterPodAffinity)
	state := framework.NewCycleState()
	view := snap.View()
	nodes := view.Nodes()
	if _, st := p.PreFilter(context.Background(), state, pod, nodes); st != nil {
		return p, nil
	}
	s, _ := readInterPodAffinityState(state)
	ref := &interPodAffinityState{pod: s.pod, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti}
	p.countAll(ref, view, nodes)
	compareCounts(t, when, ref, s.Clone().(*interPodAffinityState))
	return p, state
}

// compareCounts fails unless got's counts are ref's, pairs included.
func compareCounts(t *rapid.T, when string, ref, got *interPodAffinityState) {
	for _, pair := range []struct {
		name string
		a, b topologyCounts
	}{{"existingAnti", ref.m.existing, got.m.existing}, {"affinity", ref.m.affinity, got.m.affinity}, {"anti", ref.m.anti, got.m.anti}} {
		if a, b := countsOf(pair.a), countsOf(pair.b); !reflect.DeepEqual(a, b) || pair.a.pairs != pair.b.pairs {
			t.Fatalf("%s: %s counts %v (%d pairs), counted from scratch %v (%d pairs)", when, pair.name, b, pair.b.pairs, a, pair.a.pairs)
		}
	}
}

func TestPropertyInterPodAffinityColdCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, ipaHandle{Snap: snap})
		p := pl.(*InterPodAffinity)
		ctx := context.Background()
		state := framework.NewCycleState()
		view := snap.View()
		nodes := view.Nodes()
		if _, st := p.PreFilter(ctx, state, pod, nodes); st != nil {
			return
		}
		s, _ := readInterPodAffinityState(state)
		ref := &interPodAffinityState{pod: s.pod, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti}
		p.countAll(ref, view, nodes)
		check := func(when string, got *interPodAffinityState) {
			for _, pair := range []struct {
				name string
				a, b topologyCounts
			}{{"existingAnti", ref.m.existing, got.m.existing}, {"affinity", ref.m.affinity, got.m.affinity}, {"anti", ref.m.anti, got.m.anti}} {
				if a, b := countsOf(pair.a), countsOf(pair.b); !reflect.DeepEqual(a, b) || pair.a.pairs != pair.b.pairs {
					t.Fatalf("%s: %s counts %v (%d pairs), counted from scratch %v (%d pairs)", when, pair.name, b, pair.b.pairs, a, pair.a.pairs)
				}
			}
		}
		check("first cycle", s.Clone().(*interPodAffinityState))
		if len(nodes) == 0 {
			return
		}
		extra := testwrap.IPAPodGen(false).Draw(t, "extra")
		extra.Name = "extra"
		ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "extraNode")]
		ei := cluster.NewPodInfo(extra)
		if st := p.AddPod(ctx, state, pod, ei, ni); st != nil {
			t.Fatal(st)
		}
		if st := p.RemovePod(ctx, state, pod, ei, ni); st != nil {
			t.Fatal(st)
		}
		s, _ = readInterPodAffinityState(state)
		check("after AddPod and RemovePod", s)
	})
}
