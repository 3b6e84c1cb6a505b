package interpodaffinity

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

// scoreAll returns each node's normalised score by name, or the
// PreScore status under "".
func scoreAll(t *rapid.T, c testwrap.IPACluster, pod *api.Pod, args config.InterPodAffinityArgs) map[string]int64 {
	snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(args, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinity)
	ctx := context.Background()
	state := framework.NewCycleState()
	if st := p.PreScore(ctx, state, pod, snap.View().Nodes()); st != nil {
		if !st.IsSkip() {
			t.Fatalf("PreScore: %v", st)
		}
		return map[string]int64{"": -1}
	}
	var l framework.NodeScoreList
	for _, ni := range snap.View().Nodes() {
		s, st := p.Score(ctx, state, pod, ni)
		if st != nil {
			t.Fatal(st)
		}
		l = append(l, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	if st := p.NormalizeScore(ctx, state, pod, l); st != nil {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, s := range l {
		out[s.Name] = s.Score
	}
	return out
}

// Normalised scores are within 0..100 and do not depend on the order of
// the nodes or of the pods.
func TestPropertyInterPodAffinityScores(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(false).Draw(t, "incoming")
		w := rapid.Int32Range(0, 100).Draw(t, "hardPodAffinityWeight")
		args := config.InterPodAffinityArgs{HardPodAffinityWeight: &w, IgnorePreferredTermsOfExistingPods: rapid.Bool().Draw(t, "ignore")}
		got := scoreAll(t, c, pod, args)
		for n, s := range got {
			if n != "" && (s < framework.MinNodeScore || s > framework.MaxNodeScore) {
				t.Fatalf("node %s scores %d", n, s)
			}
		}
		perm := rapid.Permutation(c.Nodes).Draw(t, "nodeOrder")
		pods := rapid.Permutation(c.Pods).Draw(t, "podOrder")
		if again := scoreAll(t, testwrap.IPACluster{Nodes: perm, Pods: pods, NS: c.NS}, pod, args); !reflect.DeepEqual(again, got) {
			t.Fatalf("reordered: %v, want %v", again, got)
		}
	})
}

// scoresWith runs PreScore, Score and NormalizeScore of p over the
// snapshot's nodes.
func scoresWith(t *rapid.T, p *InterPodAffinity, snap *cluster.Snapshot, pod *api.Pod) map[string]int64 {
	m, _, _ := scoresAndState(t, p, snap, pod)
	return m
}

// rawScores is Score over nodes with state.
func rawScores(t *rapid.T, p *InterPodAffinity, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) []int64 {
	var out []int64
	for _, ni := range nodes {
		s, st := p.Score(context.Background(), state, pod, ni)
		if st != nil {
			t.Fatal(st)
		}
		out = append(out, s)
	}
	return out
}

func scoresAndState(t *rapid.T, p *InterPodAffinity, snap *cluster.Snapshot, pod *api.Pod) (map[string]int64, *framework.CycleState, []*cluster.NodeInfo) {
	ctx := context.Background()
	state := framework.NewCycleState()
	nodes := snap.View().Nodes()
	if st := p.PreScore(ctx, state, pod, nodes); st != nil {
		return map[string]int64{"": int64(st.Code())}, nil, nil
	}
	var l framework.NodeScoreList
	for _, ni := range nodes {
		s, st := p.Score(ctx, state, pod, ni)
		if st != nil {
			t.Fatal(st)
		}
		l = append(l, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	raw := map[string]int64{}
	for _, s := range l {
		raw["raw/"+s.Name] = s.Score
	}
	if st := p.NormalizeScore(ctx, state, pod, l); st != nil {
		t.Fatal(st)
	}
	for _, s := range l {
		raw[s.Name] = s.Score
	}
	return raw, state, nodes
}

// A plugin that keeps its sums across cycles scores every cycle as a new
// plugin would, whatever happens to the snapshot between cycles.
func TestPropertyInterPodAffinityScoreCache(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		w := rapid.Int32Range(0, 3).Draw(t, "hardPodAffinityWeight")
		args := config.InterPodAffinityArgs{HardPodAffinityWeight: &w}
		pl, _ := New(args, ipaHandle{Snap: snap})
		cached := pl.(*InterPodAffinity)
		// A cache of four, so that the incoming pods below evict.
		cached.cache.size = 4
		var incoming []*api.Pod
		for i := range 6 { // more than the cache holds
			p := testwrap.IPAPodGen(rapid.IntRange(0, 3).Draw(t, "plainIncoming") == 0).Draw(t, "incoming")
			p.Name = fmt.Sprintf("incoming-%d", i)
			incoming = append(incoming, p)
		}
		pods := append([]*api.Pod(nil), c.Pods...)
		var prevState *framework.CycleState
		var prevPod *api.Pod
		var prevNodes []*cluster.NodeInfo
		var prevRaw []int64
		for step := range rapid.IntRange(1, 10).Draw(t, "steps") {
			var names []string
			for _, ni := range snap.View().Nodes() {
				names = append(names, ni.Name())
			}
			switch rapid.IntRange(0, 4).Draw(t, "change") {
			case 0, 1:
				p := testwrap.IPAPodGen(rapid.Bool().Draw(t, "plain")).Draw(t, "added")
				p.Name = fmt.Sprintf("added-%d", step)
				p.Spec.NodeName = rapid.SampledFrom(names).Draw(t, "onNode")
				if err := snap.AddPod(p); err != nil {
					t.Fatal(err)
				}
				pods = append(pods, p)
			case 2:
				if len(pods) > 0 {
					i := rapid.IntRange(0, len(pods)-1).Draw(t, "removed")
					if err := snap.RemovePod(pods[i]); err == nil {
						pods = append(pods[:i], pods[i+1:]...)
					}
				}
			case 3:
				name := fmt.Sprintf("new-%d", step)
				if err := snap.AddNode(ipaNode(name, map[string]string{"kubernetes.io/hostname": name, "zone": rapid.SampledFrom([]string{"z1", "z3"}).Draw(t, "zone")})); err != nil {
					t.Fatal(err)
				}
			case 4:
				if len(names) > 1 {
					name := rapid.SampledFrom(names).Draw(t, "removedNode")
					if err := snap.RemoveNode(name); err != nil {
						t.Fatal(err)
					}
				}
			}
			pod := rapid.SampledFrom(incoming).Draw(t, "pod")
			got, state, nodes := scoresAndState(t, cached, snap, pod)
			fresh, _ := New(args, ipaHandle{Snap: snap})
			if want := scoresWith(t, fresh.(*InterPodAffinity), snap, pod); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, new plugin %v", step, got, want)
			}
			// A new plugin's first sums come through the snapshot's pod
			// index; a plugin reading every pod sums the same.
			plain, _ := New(args, ipaHandle{Snap: snap})
			plain.(*InterPodAffinity).cache.noIndex = true
			if want := scoresWith(t, plain.(*InterPodAffinity), snap, pod); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, plugin reading every pod %v", step, got, want)
			}
			// The last cycle's state still scores as it did.
			if prevState != nil {
				if again := rawScores(t, cached, prevState, prevPod, prevNodes); !reflect.DeepEqual(again, prevRaw) {
					t.Fatalf("step %d: the previous cycle's state now scores %v, it scored %v", step, again, prevRaw)
				}
			}
			prevState, prevPod, prevNodes = state, pod, nodes
			if state != nil {
				prevRaw = rawScores(t, cached, state, pod, nodes)
			}
		}
	})
}

// The fast path's promise (framework.FastPath): ScoreNodes gives each
// node what Score gives it. PreScore's status and state are also the same
// for any non-empty node list, as upstream's (which never reads it): the
// plugin could promise ScoresAnyNodes, and does not only because an
// early PreScore costs every plain pod's cycle (see FastPath).
func TestPropertyInterPodAffinityFastPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := testwrap.IPAClusterGen().Draw(t, "cluster")
		pod := testwrap.IPAPodGen(rapid.Bool().Draw(t, "plain")).Draw(t, "incoming")
		w := rapid.Int32Range(0, 100).Draw(t, "hardPodAffinityWeight")
		args := config.InterPodAffinityArgs{HardPodAffinityWeight: &w, IgnorePreferredTermsOfExistingPods: rapid.Bool().Draw(t, "ignore")}
		snap, err := ipaSnapshot(c.Nodes, c.Pods, c.NS)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := New(args, ipaHandle{Snap: snap})
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*InterPodAffinity)
		fp := p.FastPath()
		if fp.ScoresAnyNodes || fp.ScoreNodes == nil || fp.NormalizeByMax != nil {
			t.Fatalf("FastPath %+v", fp)
		}
		ctx := context.Background()
		nodes := snap.View().Nodes()
		state := framework.NewCycleState()
		st := p.PreScore(ctx, state, pod, nodes)
		subset := rapid.SliceOfNDistinct(rapid.SampledFrom(nodes), 1, len(nodes), func(ni *cluster.NodeInfo) string { return ni.Name() }).Draw(t, "subset")
		// A fresh plugin, so that the kept sums do not hide a difference.
		pl2, _ := New(args, ipaHandle{Snap: snap})
		state2 := framework.NewCycleState()
		st2 := pl2.(*InterPodAffinity).PreScore(ctx, state2, pod, subset)
		if st.Code() != st2.Code() || st.Message() != st2.Message() {
			t.Fatalf("PreScore over %d of %d nodes: %v, over all: %v", len(subset), len(nodes), st2, st)
		}
		if st != nil {
			return
		}
		got := make([]int64, len(nodes))
		if i, st := fp.ScoreNodes(ctx, state2, pod, nodes, got); st != nil {
			t.Fatalf("ScoreNodes: node %d: %v", i, st)
		}
		if want := rawScores(t, p, state, pod, nodes); !reflect.DeepEqual(got, want) {
			t.Fatalf("ScoreNodes %v, Score %v", got, want)
		}
		// The sums by domain id (summed so by the first sync) give what
		// every node's contribution summed into maps by label value
		// gives.
		s, _ := readInterPodAffinityScoreState(state2)
		if s.dense == nil {
			t.Fatalf("sums over the snapshot's nodes not indexed by domain id")
		}
		ref := byValue(t, p, pod, snap.View())
		for i, ni := range nodes {
			if ref := ref.score(ni.Node()); ref != got[i] {
				t.Fatalf("node %s: ScoreNodes %d, sums by value %d", ni.Name(), got[i], ref)
			}
		}
	})
}

// Without PreScore's state, ScoreNodes fails at the first node with
// Score's error, and succeeds over no nodes.
func TestInterPodAffinityScoreNodesWithoutState(t *testing.T) {
	snap, err := ipaSnapshot([]*api.Node{testwrap.IPANode("n0", nil)}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(nil, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinity)
	ctx, state, pod := context.Background(), framework.NewCycleState(), &api.Pod{}
	nodes := snap.View().Nodes()
	_, want := p.Score(ctx, state, pod, nodes[0])
	if i, st := p.ScoreNodes(ctx, state, pod, nodes, make([]int64, 1)); i != 0 || st.Message() != want.Message() || want == nil {
		t.Errorf("ScoreNodes: %d %v, want 0 %v", i, st, want)
	}
	if i, st := p.ScoreNodes(ctx, state, pod, nil, nil); i != -1 || st != nil {
		t.Errorf("ScoreNodes over no nodes: %d %v", i, st)
	}
}

// byValue sums every node's contribution for pod into maps by label
// value (scoreTotals.apply, as a sync after the first does), without the
// plugin's cache.
func byValue(t *rapid.T, p *InterPodAffinity, pod *api.Pod, view *cluster.View) *interPodAffinityScoreState {
	a := pod.Spec.Affinity
	hasPreferred := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	sc, err := p.newScorer(pod, hasPreferred, view)
	if err != nil {
		t.Fatal(err)
	}
	var totals scoreTotals
	for _, ni := range view.Nodes() {
		var v nodeScore
		if sc.node(ni, &v) {
			totals.apply(&v, 1)
		}
	}
	return &totals.scores
}
