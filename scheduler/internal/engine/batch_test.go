package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

var errInjected = errors.New("injected status")

type queueSort struct{}

func (queueSort) Name() string                            { return "QueueSort" }
func (queueSort) Less(a, b *framework.QueuedPodInfo) bool { return a.Priority() > b.Priority() }

func factoryOf(p framework.Plugin) framework.PluginFactory {
	return func(any, framework.Handle) (framework.Plugin, error) { return p, nil }
}

func makeNode(name string) *api.Node { return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}} }

// tablePlugin filters and scores nodes by table: its results for node i
// (named n<i>) are filter[i] and score[i], failing with scoreErr[i]. It
// normalises (adding normAdd to every score) when norm is set.
type tablePlugin struct {
	name     string
	filter   []*framework.Status
	score    []int64
	scoreErr []*framework.Status
	norm     bool
	normAdd  int64
	// byMax makes the normaliser DefaultNormalizeScore's, also offered
	// by max (FastPath.NormalizeByMax; reversed when reverse is set).
	byMax, reverse bool
	// minMax makes the normaliser InterPodAffinity's: the lowest score
	// maps to 0 and the highest to 100 (not by max).
	minMax bool
	// normErr makes NormalizeScore fail.
	normErr bool
}

func nodeIndex(ni *cluster.NodeInfo) int {
	var i int
	fmt.Sscanf(ni.Name(), "n%d", &i)
	return i
}

func (p *tablePlugin) Name() string { return p.name }
func (p *tablePlugin) FastPath() framework.FastPath {
	if p.norm && p.byMax {
		return framework.FastPath{NormalizeByMax: maxNormExt{p}.NormalizeByMax}
	}
	return framework.FastPath{}
}
func (p *tablePlugin) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	return p.filter[nodeIndex(ni)]
}
func (p *tablePlugin) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	i := nodeIndex(ni)
	return p.score[i], p.scoreErr[i]
}
func (p *tablePlugin) ScoreExtensions() framework.ScoreExtensions {
	switch {
	case p.norm && p.byMax:
		return maxNormExt{p}
	case p.norm:
		return p
	}
	return nil
}

// maxNormExt normalises as DefaultNormalizeScore does, list by list or
// by the highest score.
type maxNormExt struct{ p *tablePlugin }

func (e maxNormExt) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	raw := make([]int64, len(scores))
	highest := int64(0)
	for i := range scores {
		raw[i] = scores[i].Score
		highest = max(highest, raw[i])
	}
	e.NormalizeByMax(raw, highest)
	for i := range scores {
		scores[i].Score = raw[i]
	}
	return nil
}

func (e maxNormExt) NormalizeByMax(scores []int64, highest int64) {
	if highest == 0 {
		if e.p.reverse {
			for i := range scores {
				scores[i] = framework.MaxNodeScore
			}
		}
		return
	}
	for i, sc := range scores {
		sc = framework.MaxNodeScore * sc / highest
		if e.p.reverse {
			sc = framework.MaxNodeScore - sc
		}
		scores[i] = sc
	}
}
func (p *tablePlugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	if p.normErr {
		return framework.AsStatus(fmt.Errorf("normalize error in %s", p.name))
	}
	if p.minMax {
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for i := range scores {
			lo, hi = min(lo, scores[i].Score), max(hi, scores[i].Score)
		}
		for i := range scores {
			f := 0.0
			if hi > lo {
				f = float64(framework.MaxNodeScore) * float64(scores[i].Score-lo) / float64(hi-lo)
			}
			scores[i].Score = int64(f)
		}
		return nil
	}
	for i := range scores {
		scores[i].Score += p.normAdd
	}
	return nil
}

// batchTablePlugin is tablePlugin with FilterNodes and ScoreNodes,
// computed from the per-node results.
type batchTablePlugin struct{ *tablePlugin }

func (p batchTablePlugin) FastPath() framework.FastPath {
	f := p.tablePlugin.FastPath()
	f.FilterNodes, f.ScoreNodes = p.FilterNodes, p.ScoreNodes
	return f
}

func (p batchTablePlugin) FilterNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	for i, ni := range nodes {
		statuses[i] = p.Filter(ctx, state, pod, ni)
	}
}

func (p batchTablePlugin) ScoreNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	for i, ni := range nodes {
		s, st := p.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			return i, st
		}
		scores[i] = s
	}
	return -1, nil
}

// TestPropBatchMatchesNodeByNode: the engine's block filter (with
// FilterNodes where offered) gives each node the status the plain
// framework.Profile.RunFilterPlugins gives it, and its by-max scoring
// (with ScoreNodes where offered, chunks scored in any order, whole or in
// part) gives the totals, best node, ties and first error of the plain
// framework.Profile.RunScorePlugins.
func TestPropBatchMatchesNodeByNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "nodes")
		nodes := make([]*cluster.NodeInfo, n)
		for i := range nodes {
			nodes[i] = cluster.NewNodeInfo(makeNode(fmt.Sprintf("n%d", i)))
		}
		filterStatuses := []*framework.Status{
			nil, nil, nil, nil, nil, framework.NewStatus(framework.Success),
			framework.NewStatus(framework.Unschedulable, "full"),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, "never"),
			framework.NewStatus(framework.Pending, "later"),
			framework.AsStatus(errInjected),
			framework.NewStatus(framework.Skip),
		}
		rare := func(t *rapid.T, label string) bool { return rapid.IntRange(0, 2*n+5).Draw(t, label) == 0 }
		k := rapid.IntRange(1, 4).Draw(t, "plugins")
		var plain, mixed []framework.Plugin
		weights := map[string]int32{}
		skipFilter, skipScore := map[string]struct{}{}, map[string]struct{}{}
		for j := range k {
			p := &tablePlugin{name: fmt.Sprintf("P%d", j), norm: rapid.Bool().Draw(t, "norm")}
			if p.norm {
				p.normAdd = rapid.Int64Range(-1, 1).Draw(t, "normAdd")
				p.byMax = rapid.IntRange(0, 3).Draw(t, "byMax") > 0
				p.reverse = rapid.Bool().Draw(t, "reverse")
				if !p.byMax {
					p.minMax = rapid.Bool().Draw(t, "minMax")
					p.normErr = rare(t, "normErr")
				}
			}
			failing := rapid.Bool().Draw(t, "failing")
			for range n {
				st := filterStatuses[rapid.IntRange(0, 4).Draw(t, "filter")]
				if failing {
					st = rapid.SampledFrom(filterStatuses).Draw(t, "filterFail")
				}
				p.filter = append(p.filter, st)
				sc := rapid.Int64Range(0, 100).Draw(t, "score")
				if rare(t, "outOfRange") {
					sc = rapid.SampledFrom([]int64{-1, 101}).Draw(t, "bad")
				}
				p.score = append(p.score, sc)
				var err *framework.Status
				if rare(t, "scoreErr") {
					err = framework.AsStatus(fmt.Errorf("score error %d", len(p.scoreErr)))
				}
				p.scoreErr = append(p.scoreErr, err)
			}
			weights[p.name] = int32(rapid.IntRange(1, 3).Draw(t, "weight"))
			if rapid.IntRange(0, 4).Draw(t, "skipFilter") == 0 {
				skipFilter[p.name] = struct{}{}
			}
			if rapid.IntRange(0, 4).Draw(t, "skipScore") == 0 {
				skipScore[p.name] = struct{}{}
			}
			plain = append(plain, p)
			if rapid.Bool().Draw(t, "batch") {
				mixed = append(mixed, batchTablePlugin{p})
			} else {
				mixed = append(mixed, p)
			}
		}
		profile := func(plugins []framework.Plugin) *framework.Profile {
			r := framework.Registry{"QueueSort": factoryOf(queueSort{})}
			cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{{Name: "QueueSort"}}}
			for _, p := range plugins {
				r[p.Name()] = factoryOf(p)
				cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: p.Name(), Weight: weights[p.Name()]})
			}
			p, err := framework.NewProfile(cfg, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		ref, got := profile(plain), profile(mixed)
		ctx := context.Background()
		state := framework.NewCycleState()
		state.SkipFilterPlugins = skipFilter
		state.SkipScorePlugins = skipScore
		pod := &api.Pod{}

		e := New(rapid.IntRange(1, 3).Draw(t, "parallelism"))
		defer e.Close()
		e.SetMinParallelPieces(1)
		pi := e.info(got)
		// The bits variant: bits from a random offset, statuses only for
		// nodes that do not pass.
		off := rapid.IntRange(0, 70).Draw(t, "bitOffset")
		passed := make([]uint64, (off+n+63)/64+1)
		bst := make([]*framework.Status, n)
		npassed := pi.filterOnNodes(ctx, state, pod, nodes, bst, passed, off, pi.skipMask(state))
		count := 0
		for i, ni := range nodes {
			want := ref.RunFilterPlugins(ctx, state, pod, ni)
			b := off + i
			bit := passed[b>>6]&(1<<(b&63)) != 0
			if bit != want.IsSuccess() {
				t.Fatalf("node %d: bit %v, status %v", i, bit, want.Code())
			}
			if bit {
				count++
				if bst[i] != nil {
					t.Fatalf("node %d passed but has a status", i)
				}
			} else if !bst[i].Equal(want) || bst[i].Plugin() != want.Plugin() {
				t.Fatalf("node %d: bits status %v %q, want %v %q", i, bst[i].Code(), bst[i].Message(), want.Code(), want.Message())
			}
		}
		if count != npassed {
			t.Fatalf("%d passed, returned %d", count, npassed)
		}
		for b := range len(passed) * 64 {
			if (b < off || b >= off+n) && passed[b>>6]&(1<<(b&63)) != 0 {
				t.Fatalf("bit %d set outside [%d, %d)", b, off, off+n)
			}
		}

		wantScores, wantSt := ref.RunScorePlugins(ctx, state, pod, nodes)
		gotScores, gotSt := got.RunScorePlugins(ctx, state, pod, nodes)
		if gotSt.Code() != wantSt.Code() || gotSt.Message() != wantSt.Message() {
			t.Fatalf("score status %v %q, want %v %q", gotSt.Code(), gotSt.Message(), wantSt.Code(), wantSt.Message())
		}
		if !reflect.DeepEqual(gotScores, wantScores) {
			t.Fatalf("scores differ:\n got %+v\nwant %+v", gotScores, wantScores)
		}
		// The general scoring, whatever the normalisers, gives the same
		// totals, best node, ties and error; twice, the second time in
		// the first's buffers.
		var gb generalBuffer
		for range 2 {
			pi.activeAll(state, &gb)
			if len(gb.active) == 0 || n == 0 {
				break
			}
			totals, best, ties, st := e.scoreGeneral(ctx, pi, state, pod, nodes, &gb)
			if st.Code() != wantSt.Code() || st.Message() != wantSt.Message() {
				t.Fatalf("general status %v %q, want %v %q", st.Code(), st.Message(), wantSt.Code(), wantSt.Message())
			}
			if !st.IsSuccess() {
				continue
			}
			wantBest, wantTies := 0, 0
			for i := range wantScores {
				if totals[i] != wantScores[i].TotalScore {
					t.Fatalf("general node %d: total %d, want %d", i, totals[i], wantScores[i].TotalScore)
				}
				switch {
				case wantScores[i].TotalScore > wantScores[wantBest].TotalScore:
					wantBest, wantTies = i, 1
				case wantScores[i].TotalScore == wantScores[wantBest].TotalScore:
					wantTies++
				}
			}
			if best != wantBest || ties != wantTies {
				t.Fatalf("general best %d, %d ties; want %d, %d", best, ties, wantBest, wantTies)
			}
		}
		// A scoreRun over every active plugin, whatever it normalises by
		// (an eager run: startEager), its chunks scored only in part and
		// in any order, gives what scoring just those nodes gives.
		if n > 0 {
			var b4 scoreBuffer
			for k, name := range pi.scoreNames {
				if _, skip := skipScore[name]; !skip {
					b4.active = append(b4.active, k)
					b4.maxNorm = append(b4.maxNorm, pi.normByMax[k])
					b4.general = append(b4.general, pi.normalizes[k] && pi.normByMax[k] == nil)
				}
			}
			if len(b4.active) > 0 {
				chunk := rapid.IntRange(1, 16).Draw(t, "eagerChunk")
				run := pi.newScoreRun(ctx, state, pod, nodes, &b4, chunk)
				var subset []*cluster.NodeInfo
				ks := make([]int, run.chunks)
				for c := range ks {
					ks[c] = rapid.IntRange(0, min(chunk, n-c*chunk)).Draw(t, "eagerK")
					subset = append(subset, nodes[c*chunk:c*chunk+ks[c]]...)
				}
				order := rapid.Permutation(seq(run.chunks)).Draw(t, "eagerOrder")
				for _, c := range order {
					run.scoreFirst(c, ks[c])
				}
				if run.normalize() {
					for _, c := range order {
						run.sum(c)
					}
				}
				best, ties, rst := run.finish()
				want, wst := ref.RunScorePlugins(ctx, state, pod, subset)
				if rst.Code() != wst.Code() || rst.Message() != wst.Message() {
					t.Fatalf("eager status %v %q, want %v %q", rst.Code(), rst.Message(), wst.Code(), wst.Message())
				}
				if rst.IsSuccess() {
					rt := run.totals()
					if len(rt) != len(want) {
						t.Fatalf("eager: %d totals, want %d", len(rt), len(want))
					}
					wantBest, wantTies := -1, 0
					for i := range want {
						if rt[i] != want[i].TotalScore {
							t.Fatalf("eager node %d: total %d, want %d", i, rt[i], want[i].TotalScore)
						}
						switch {
						case wantBest < 0 || want[i].TotalScore > want[wantBest].TotalScore:
							wantBest, wantTies = i, 1
						case want[i].TotalScore == want[wantBest].TotalScore:
							wantTies++
						}
					}
					if best != wantBest || ties != wantTies {
						t.Fatalf("eager best %d, %d ties; want %d, %d", best, ties, wantBest, wantTies)
					}
				}
			}
		}
		var buf scoreBuffer
		if !pi.activeByMax(state, &buf) || len(buf.active) == 0 {
			return // the engine scores such cycles the plain way
		}
		for range 2 { // the second run reuses the buffer
			if !pi.activeByMax(state, &buf) {
				t.Fatal("activeByMax changed its mind")
			}
			totals, best, ties, st := e.scoreByMax(ctx, pi, state, pod, nodes, &buf)
			if st.Code() != wantSt.Code() || st.Message() != wantSt.Message() {
				t.Fatalf("totals status %v %q, want %v %q", st.Code(), st.Message(), wantSt.Code(), wantSt.Message())
			}
			wantBest, wantTies := 0, 0
			for i := range totals {
				if totals[i] != wantScores[i].TotalScore {
					t.Fatalf("node %d: total %d, want %d", i, totals[i], wantScores[i].TotalScore)
				}
				switch {
				case totals[i] > totals[wantBest]:
					wantBest, wantTies = i, 1
				case totals[i] == totals[wantBest]:
					wantTies++
				}
			}
			if st.IsSuccess() && n > 0 && (best != wantBest || ties != wantTies) {
				t.Fatalf("best %d, %d ties; want %d, %d", best, ties, wantBest, wantTies)
			}
			if n == 0 {
				continue
			}
			// A scoreRun, its chunks taken in any order, gives the same.
			var b2 scoreBuffer
			pi.activeByMax(state, &b2)
			run := pi.newScoreRun(ctx, state, pod, nodes, &b2, rapid.IntRange(1, 64).Draw(t, "chunk"))
			order := rapid.Permutation(seq(run.chunks)).Draw(t, "order")
			for _, c := range order {
				lo := c * run.chunk
				run.job.score(lo, min(lo+run.chunk, run.n))
			}
			if run.normalize() {
				for _, c := range order {
					run.sum(c)
				}
			}
			_, _, rst := run.finish()
			if rst.Code() != wantSt.Code() || rst.Message() != wantSt.Message() {
				t.Fatalf("scoreRun status %v %q, want %v %q", rst.Code(), rst.Message(), wantSt.Code(), wantSt.Message())
			}
			var rt []int64
			if rst.IsSuccess() {
				rt = run.totals()
			}
			for i := range rt {
				if rt[i] != wantScores[i].TotalScore {
					t.Fatalf("scoreRun node %d: total %d, want %d", i, rt[i], wantScores[i].TotalScore)
				}
			}
			// A scoreRun whose chunks are scored only in part (scoreFirst),
			// in any order, gives what scoring just those nodes gives.
			chunk := rapid.IntRange(1, 16).Draw(t, "partChunk")
			var b3 scoreBuffer
			pi.activeByMax(state, &b3)
			run = pi.newScoreRun(ctx, state, pod, nodes, &b3, chunk)
			var subset []*cluster.NodeInfo
			ks := make([]int, run.chunks)
			for c := range ks {
				ks[c] = rapid.IntRange(0, min(chunk, n-c*chunk)).Draw(t, "k")
				subset = append(subset, nodes[c*chunk:c*chunk+ks[c]]...)
			}
			order = rapid.Permutation(seq(run.chunks)).Draw(t, "partOrder")
			for _, c := range order {
				run.scoreFirst(c, ks[c])
			}
			if run.normalize() {
				for _, c := range order {
					run.sum(c)
				}
			}
			best, ties, rst = run.finish()
			want, wst := ref.RunScorePlugins(ctx, state, pod, subset)
			if rst.Code() != wst.Code() || rst.Message() != wst.Message() {
				t.Fatalf("scoreFirst status %v %q, want %v %q", rst.Code(), rst.Message(), wst.Code(), wst.Message())
			}
			if rst.IsSuccess() {
				rt := run.totals()
				if len(rt) != len(want) {
					t.Fatalf("scoreFirst: %d totals, want %d", len(rt), len(want))
				}
				wantBest, wantTies := -1, 0
				for i := range want {
					if rt[i] != want[i].TotalScore {
						t.Fatalf("scoreFirst node %d: total %d, want %d", i, rt[i], want[i].TotalScore)
					}
					switch {
					case wantBest < 0 || want[i].TotalScore > want[wantBest].TotalScore:
						wantBest, wantTies = i, 1
					case want[i].TotalScore == want[wantBest].TotalScore:
						wantTies++
					}
				}
				if best != wantBest || ties != wantTies {
					t.Fatalf("scoreFirst best %d, %d ties; want %d, %d", best, ties, wantBest, wantTies)
				}
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
