package podtopologyspread

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

func spreadScores(t *rapid.T, nodes []*api.Node, pods []*api.Pod, objs []any, pod *api.Pod) map[string]int64 {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := snap.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	pl, _ := New(nil, testHandle{snap})
	p := pl.(*PodTopologySpread)
	ctx := context.Background()
	state := framework.NewCycleState()
	st := p.PreScore(ctx, state, pod, snap.Nodes())
	if st.IsSkip() {
		return nil
	}
	if !st.IsSuccess() {
		t.Fatal(st)
	}
	var list framework.NodeScoreList
	for _, ni := range snap.Nodes() {
		s, st := p.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			t.Fatal(st)
		}
		list = append(list, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	if st := p.NormalizeScore(ctx, state, pod, list); !st.IsSuccess() {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, s := range list {
		out[s.Name] = s.Score
	}
	return out
}

// Normalised scores are within [0, 100] and do not depend on the order of
// nodes or pods, with the pod's own ScheduleAnyway constraints or with
// the system defaults through a Service.
func TestSpreadScoreProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
			b := spreadNode().Name(fmt.Sprintf("n%d", i)).Label("kubernetes.io/hostname", fmt.Sprintf("n%d", i))
			if rapid.IntRange(0, 4).Draw(t, "noZone") != 0 {
				b.Label("topology.kubernetes.io/zone", rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone"))
			}
			nodes = append(nodes, b.Obj())
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			b := spreadPod().Name(fmt.Sprintf("p%d", i)).Node(nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")].Name)
			if rapid.Bool().Draw(t, "foo") {
				b.Label("foo", "")
			}
			pods = append(pods, b.Obj())
		}
		in := spreadPod().Name("incoming").Label("foo", "")
		var objs []any
		if rapid.Bool().Draw(t, "system") {
			objs = append(objs, &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": ""}}})
		} else {
			for range rapid.IntRange(1, 2).Draw(t, "constraints") {
				in.SpreadConstraint(rapid.IntRange(1, 5).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}).Draw(t, "key"),
					api.ScheduleAnyway, fooSelector, nil, nil, nil, nil)
			}
		}
		pod := in.Obj()
		want := spreadScores(t, nodes, pods, objs, pod)
		for n, s := range want {
			if s < 0 || s > framework.MaxNodeScore {
				t.Fatalf("%s scored %d", n, s)
			}
		}
		got := spreadScores(t, rapid.Permutation(nodes).Draw(t, "nodeOrder"), rapid.Permutation(pods).Draw(t, "podOrder"), objs, pod)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("order changed the scores: %v vs %v", want, got)
		}
	})
}

// spreadScoreCycle runs PreScore over nodes, then Score over every node of
// all (given or not), ScoreNodes over nodes whole and in two slices, and
// NormalizeScore over nodes' scores (checking NormalizeNodes against
// it); a skipped pod gives {"": -1}.
func spreadScoreCycle(t *rapid.T, p *PodTopologySpread, pod *api.Pod, all, nodes []*cluster.NodeInfo, cut int) map[string]int64 {
	ctx := context.Background()
	state := framework.NewCycleState()
	st := p.PreScore(ctx, state, pod, nodes)
	if st.IsSkip() {
		return map[string]int64{"": -1}
	}
	if !st.IsSuccess() {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, ni := range all {
		s, st := p.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			t.Fatal(st)
		}
		out[ni.Name()] = s
	}
	scores := make([]int64, len(nodes))
	if i, st := p.ScoreNodes(ctx, state, pod, nodes, scores); i >= 0 || st != nil {
		t.Fatalf("ScoreNodes: %d %v", i, st)
	}
	var list framework.NodeScoreList
	for i, ni := range nodes {
		out["nodes:"+ni.Name()] = scores[i]
		list = append(list, framework.NodeScore{Name: ni.Name(), Score: scores[i]})
	}
	// The scores PreScore computed are those of the node's labels and
	// pods, as Score computes them for a node PreScore was not given.
	s, err := readSpreadScoreState(state)
	if err != nil {
		t.Fatal(err)
	}
	for i, ni := range nodes {
		if got := s.score(ni); got != scores[i] {
			t.Fatalf("%s: PreScore computed %d, from its labels and pods %d", ni.Name(), scores[i], got)
		}
	}
	clear(scores)
	cut = min(cut, len(nodes))
	p.ScoreNodes(ctx, state, pod, nodes[cut:], scores[cut:])
	p.ScoreNodes(ctx, state, pod, nodes[:cut], scores[:cut])
	for i, ni := range nodes {
		out["chunks:"+ni.Name()] = scores[i]
	}
	byNodes := make([]int64, len(list))
	for i := range list {
		byNodes[i] = list[i].Score
	}
	if st := p.NormalizeScore(ctx, state, pod, list); !st.IsSuccess() {
		t.Fatal(st)
	}
	for _, s := range list {
		out["normalized:"+s.Name] = s.Score
	}
	// NormalizeNodes normalises the raw scores in place as
	// NormalizeScore does the list.
	if st := p.NormalizeNodes(ctx, state, pod, nodes, byNodes); !st.IsSuccess() {
		t.Fatal(st)
	}
	for i := range list {
		if byNodes[i] != list[i].Score {
			t.Fatalf("%s: NormalizeNodes %d, NormalizeScore %d", list[i].Name, byNodes[i], list[i].Score)
		}
	}
	return out
}

// A long-lived plugin, whose PreScore keeps counts across cycles, scores
// exactly as a new one through pod, node and label changes and assumed
// pods, with the pod's own ScheduleAnyway constraints or the system
// defaults, for any subset of the nodes (in the view's order, rotated,
// or with a node the view does not hold).
func TestPropertySpreadScoreCache(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _, pods := testwrap.DrawSpreadWorld(t, 6, 10)
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": ""}}}
		if err := snap.AddObjects(svc); err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, testHandle{snap})
		cached := pl.(*PodTopologySpread)
		// A cache of four, so that the incoming pods below evict.
		cached.cache.size = 4
		var incoming []*api.Pod
		for i := range 6 { // more than the cache holds
			p := testwrap.SpreadIncomingGen(i, api.ScheduleAnyway).Draw(t, "incoming")
			if rapid.IntRange(0, 2).Draw(t, "systemDefaults") == 0 {
				p.Spec.TopologySpreadConstraints = nil
			}
			incoming = append(incoming, p)
		}
		extra := 0
		for step := range rapid.IntRange(1, 12).Draw(t, "steps") {
			pods, _ = testwrap.ChurnSpread(t, snap, pods, step, &extra, "zone", "topology.kubernetes.io/zone")
			pod := rapid.SampledFrom(incoming).Draw(t, "pod")
			all := snap.View().Nodes()
			// The nodes that passed Filter: a subsequence of the view's,
			// from a rotating start, sometimes with a node it lacks.
			start := rapid.IntRange(0, len(all)-1).Draw(t, "start")
			var given []*cluster.NodeInfo
			for i := range all {
				if ni := all[(start+i)%len(all)]; rapid.IntRange(0, 3).Draw(t, "filtered") != 0 {
					given = append(given, ni)
				}
			}
			if rapid.IntRange(0, 5).Draw(t, "foreign") == 0 {
				foreign := cluster.NewNodeInfo(testwrap.SpreadNodeGen("elsewhere").Draw(t, "node"))
				at := rapid.IntRange(0, len(given)).Draw(t, "foreignAt")
				given = append(given[:at], append([]*cluster.NodeInfo{foreign}, given[at:]...)...)
			}
			if len(given) == 0 {
				given = all[:1]
			}
			cut := rapid.IntRange(0, len(given)).Draw(t, "cut")
			got := spreadScoreCycle(t, cached, pod, all, given, cut)
			fresh, _ := New(nil, testHandle{snap})
			want := spreadScoreCycle(t, fresh.(*PodTopologySpread), pod, all, given, cut)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, new plugin %v", step, got, want)
			}
			// A new plugin's first counts come through the snapshot's
			// pod index; a plugin reading every pod counts the same.
			plain, _ := New(nil, testHandle{snap})
			plain.(*PodTopologySpread).cache.noIndex = true
			if want := spreadScoreCycle(t, plain.(*PodTopologySpread), pod, all, given, cut); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, plugin reading every pod %v", step, got, want)
			}
		}
	})
}

// PreScore and Score running at once on one plugin while the snapshot
// changes between rounds agree with a new plugin's, and a state keeps
// scoring as it did while later cycles refresh the kept counts (run with
// -race).
func TestSpreadScoreCacheConcurrentCycles(t *testing.T) {
	nodes, pods := testwrap.SpreadChurnCluster()
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, testHandle{snap})
	shared := pl.(*PodTopologySpread)
	incoming := []*api.Pod{
		spreadPod().Name("zone").Label("foo", "").SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
		spreadPod().Name("host").Label("foo", "").SpreadConstraint(1, "kubernetes.io/hostname", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
	}
	score := func(p *PodTopologySpread, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) []int64 {
		out := make([]int64, len(nodes))
		for i, ni := range nodes {
			out[i], _ = p.Score(context.Background(), state, pod, ni)
		}
		return out
	}
	cycle := func(p *PodTopologySpread, pod *api.Pod, nodes []*cluster.NodeInfo) ([]int64, *framework.CycleState) {
		state := framework.NewCycleState()
		if st := p.PreScore(context.Background(), state, pod, nodes); !st.IsSuccess() {
			panic(st.Message())
		}
		out := make([]int64, len(nodes))
		p.ScoreNodes(context.Background(), state, pod, nodes, out)
		return append(out, score(p, state, pod, nodes)...), state
	}
	type done struct {
		state *framework.CycleState
		pod   *api.Pod
		nodes []*cluster.NodeInfo
		want  []int64
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
		given := view[round*50:]
		var wants [][]int64
		for _, pod := range incoming {
			fresh, _ := New(nil, testHandle{snap})
			w, _ := cycle(fresh.(*PodTopologySpread), pod, given)
			wants = append(wants, w)
		}
		results := make(chan done, 8)
		errs := make(chan string, 8)
		for g := range 8 {
			go func() {
				got, state := cycle(shared, incoming[g%2], given)
				if !reflect.DeepEqual(got, wants[g%2]) {
					errs <- fmt.Sprintf("round %d goroutine %d: scores differ from a new plugin's", round, g)
				}
				results <- done{state, incoming[g%2], given, got[len(given):]}
			}()
		}
		for _, d := range prev {
			if got := score(shared, d.state, d.pod, d.nodes); !reflect.DeepEqual(got, d.want) {
				t.Fatalf("round %d: a previous state now scores differently", round)
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

// The kept totals follow a change of numbering exactly: a score cache
// synced over the same nodes under Topologies that number the domains in
// other orders (as a later view may), or under the view's, holds what a
// new cache counts under the last ones, id by id (nodes without the key,
// or with the value "", under the same id), and a node subset in between
// changes nothing either.
func TestPropertySpreadScoreCacheRenumbered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		var names []string
		for i := range rapid.IntRange(1, 8).Draw(t, "nodes") {
			name := fmt.Sprintf("n%d", i)
			n := testwrap.SpreadNodeGen(name).Draw(t, "node")
			if rapid.IntRange(0, 4).Draw(t, "emptyZone") == 0 {
				n.Labels = maps.Clone(n.Labels)
				n.Labels["zone"] = ""
			}
			nodes, names = append(nodes, n), append(names, name)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			pods = append(pods, testwrap.SpreadExistingPodGen(fmt.Sprintf("p%d", i), names).Draw(t, "pod"))
		}
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		pod := testwrap.SpreadIncomingGen(0, api.ScheduleAnyway).Draw(t, "incoming")
		cs, err := spreadConstraints(pod, nil, nil, api.ScheduleAnyway)
		if err != nil || len(cs) == 0 {
			t.Skip("no constraints")
		}
		req := affinity.GetRequiredNodeAffinity(pod)
		requireAll := rapid.Bool().Draw(t, "requireAll")
		view := snap.View()
		all := view.Nodes()
		kept := newScoreCounts(requireAll, cs, &nodeTrack{}, len(all))
		for round := range rapid.IntRange(1, 5).Draw(t, "rounds") {
			in := all
			if rapid.IntRange(0, 3).Draw(t, "subset") == 0 {
				in = all[:rapid.IntRange(0, len(all)).Draw(t, "cut")]
			}
			topos := spreadScoreTopologies(cs, view, nil)
			if rapid.IntRange(0, 2).Draw(t, "own") != 0 {
				order := rapid.Permutation(all).Draw(t, "order")
				for i := range cs {
					if topos[i] != nil {
						topos[i] = cluster.NewTopology(cs[i].TopologyKey, order)
					}
				}
			}
			kept.sync(in, nil, topos, inputs{pod: pod, req: req})
			kept.shared = rapid.Bool().Draw(t, "shared")
			fresh := newScoreCounts(requireAll, cs, &nodeTrack{}, len(in))
			fresh.sync(in, nil, topos, inputs{pod: pod, req: req})
			for i := range cs {
				if a, b := kept.domains[i].tot, fresh.domains[i].tot; !reflect.DeepEqual(a, b) {
					t.Fatalf("round %d, constraint %d: kept totals %v, fresh %v", round, i, a, b)
				}
			}
			if !reflect.DeepEqual(kept.dom, fresh.dom) || !reflect.DeepEqual(kept.cnt, fresh.cnt) || !reflect.DeepEqual(kept.flag, fresh.flag) {
				t.Fatalf("round %d: kept dom %v cnt %v flag %v, fresh %v %v %v", round, kept.dom, kept.cnt, kept.flag, fresh.dom, fresh.cnt, fresh.flag)
			}
		}
	})
}
