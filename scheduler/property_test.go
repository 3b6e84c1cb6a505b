package scheduler

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// tableFilter passes, rejects or fails nodes by name.
type tableFilter struct {
	code map[string]framework.Code
}

func (tableFilter) Name() string { return "TableFilter" }
func (f tableFilter) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	switch c := f.code[ni.Node().Name]; c {
	case framework.Success:
		return nil
	case framework.Error:
		return framework.AsStatus(fmt.Errorf("boom on %s", ni.Node().Name))
	default:
		return framework.NewStatus(c, "rejected by table")
	}
}

// tableScore scores nodes by name, and normalises to [0, 100] by
// dividing by the maximum, as many in-tree plugins do.
type tableScore struct {
	name   string
	scores map[string]int64
}

func (s tableScore) Name() string { return s.name }
func (s tableScore) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	return s.scores[ni.Node().Name], nil
}
func (s tableScore) ScoreExtensions() framework.ScoreExtensions { return s }
func (tableScore) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, l framework.NodeScoreList) *framework.Status {
	var maxS int64
	for _, n := range l {
		maxS = max(maxS, n.Score)
	}
	if maxS == 0 {
		return nil
	}
	for i := range l {
		l[i].Score = l[i].Score * framework.MaxNodeScore / maxS
	}
	return nil
}

// maxTableScore is tableScore whose normalisation is also offered by
// max (framework.FastPath.NormalizeByMax), so that cycles take the by-max
// path.
type maxTableScore struct{ tableScore }

func (s maxTableScore) ScoreExtensions() framework.ScoreExtensions { return s }
func (maxTableScore) NormalizeByMax(scores []int64, highest int64) {
	if highest == 0 {
		return
	}
	for i := range scores {
		scores[i] = scores[i] * framework.MaxNodeScore / highest
	}
}
func (s maxTableScore) FastPath() framework.FastPath {
	return framework.FastPath{NormalizeByMax: s.NormalizeByMax}
}

// eagerMaxTableScore is maxTableScore that also promises ScoresAnyNodes,
// so that cycles score nodes as they pass Filter.
type eagerMaxTableScore struct{ maxTableScore }

func (s eagerMaxTableScore) FastPath() framework.FastPath {
	return framework.FastPath{NormalizeByMax: s.NormalizeByMax, ScoresAnyNodes: true}
}

// eagerTableScore is tableScore that promises ScoresAnyNodes but does not
// normalise by max, so cycles score after Filter.
type eagerTableScore struct{ tableScore }

func (eagerTableScore) FastPath() framework.FastPath { return framework.FastPath{ScoresAnyNodes: true} }

// tablePreScore is an eager PreScore plugin that succeeds or fails.
type tablePreScore struct{ fail bool }

func (tablePreScore) Name() string                 { return "P" }
func (tablePreScore) FastPath() framework.FastPath { return framework.FastPath{ScoresAnyNodes: true} }
func (p tablePreScore) PreScore(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) *framework.Status {
	if p.fail {
		return framework.AsStatus(errors.New("prescore failed"))
	}
	return nil
}

// rangeScore is a plugin written against the plain interfaces only, as
// InterPodAffinity is: its PreScore reads the feasible nodes and skips
// when told to, and NormalizeScore rescales by the lowest and highest
// scores. A cycle in which it skips keeps the fast paths; one in which it
// does not is scored the plain way.
type rangeScore struct {
	skip bool
	// flip makes PreScore skip for every other pod (by the last digit of
	// its name), so that the engine's guess of whether a late PreScore
	// skips (profileInfo.lateScored) is wrong every cycle.
	flip   bool
	scores map[string]int64
}

type rangeState struct{ nodes int }

func (r *rangeState) Clone() framework.StateData { c := *r; return &c }

func (rangeScore) Name() string { return "R" }
func (r rangeScore) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *framework.Status {
	if r.skip || (r.flip && len(pod.Name) > 0 && (pod.Name[len(pod.Name)-1]-'0')%2 == 1) {
		return framework.NewStatus(framework.Skip)
	}
	state.Write("PreScoreR", &rangeState{nodes: len(nodes)})
	return nil
}
func (r rangeScore) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	v, ok := state.Read("PreScoreR")
	if !ok {
		return 0, framework.AsStatus(errors.New("no PreScore state"))
	}
	return r.scores[ni.Node().Name] * int64(v.(*rangeState).nodes%3+1), nil
}
func (r rangeScore) ScoreExtensions() framework.ScoreExtensions { return r }
func (rangeScore) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, l framework.NodeScoreList) *framework.Status {
	if len(l) == 0 {
		return nil
	}
	lo, hi := l[0].Score, l[0].Score
	for _, n := range l {
		lo, hi = min(lo, n.Score), max(hi, n.Score)
	}
	for i := range l {
		if hi == lo {
			l[i].Score = framework.MaxNodeScore
		} else {
			l[i].Score = (l[i].Score - lo) * framework.MaxNodeScore / (hi - lo)
		}
	}
	return nil
}

type cycleOutcome struct {
	node      string
	evaluated int
	feasible  int
	next      int
	err       string
	statuses  map[string]string
}

// reference is upstream's findNodesThatPassFilters run with one goroutine.
func reference(codes map[string]framework.Code, names []string, start, numToFind int) (feasible []string, rejected []string, err bool) {
	n := len(names)
	for i := 0; i < n; i++ {
		name := names[(start+i)%n]
		switch codes[name] {
		case framework.Success:
			if len(feasible) == numToFind {
				return feasible, rejected, false
			}
			feasible = append(feasible, name)
		case framework.Error:
			return feasible, rejected, true
		default:
			rejected = append(rejected, name)
		}
	}
	return feasible, rejected, false
}

// Filtering in parallel chunks gives the result of kube-scheduler's
// filtering with one goroutine, whatever the parallelism: same nodes
// found, same nodes reported, same rotation of the start index, same
// choice for a seed. The chosen node is feasible, has the highest total
// score, and every normalised score is in [0, 100]. Scoring nodes as they
// pass Filter (eager plugins, Schedule without diagnosis) gives the same
// too, including a PreScore error only when two or more nodes fit.
func TestPropertyParallelFilteringMatchesSequential(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		numNodes := rapid.IntRange(1, 700).Draw(rt, "nodes")
		pass := rapid.IntRange(0, 100).Draw(rt, "passPercent")
		withErr := rapid.Bool().Draw(rt, "withErrors")
		percentage := rapid.SampledFrom([]int32{0, 0, 1, 10, 30, 50, 100}).Draw(rt, "percentage")
		seed := rapid.Uint64().Draw(rt, "seed")
		names := make([]string, numNodes)
		codes := map[string]framework.Code{}
		scores := map[string]int64{}
		for i := range names {
			names[i] = fmt.Sprintf("n%04d", i)
			r := rapid.IntRange(0, 999).Draw(rt, "r")
			switch {
			case withErr && r == 0:
				codes[names[i]] = framework.Error
			case r%100 < pass:
				codes[names[i]] = framework.Success
			case r%2 == 0:
				codes[names[i]] = framework.Unschedulable
			default:
				codes[names[i]] = framework.UnschedulableAndUnresolvable
			}
			scores[names[i]] = int64(rapid.IntRange(0, 5).Draw(rt, "score"))
		}
		eager := rapid.Bool().Draw(rt, "eager")
		var scoreA framework.Plugin = tableScore{"A", scores}
		byMax := rapid.Bool().Draw(rt, "byMax")
		switch {
		case byMax && eager:
			scoreA = eagerMaxTableScore{maxTableScore{tableScore{"A", scores}}}
		case byMax:
			scoreA = maxTableScore{tableScore{"A", scores}}
		case eager:
			scoreA = eagerTableScore{tableScore{"A", scores}}
		}
		var scoreB framework.Plugin = maxTableScore{tableScore{"B", map[string]int64{}}}
		if eager {
			scoreB = eagerMaxTableScore{maxTableScore{tableScore{"B", map[string]int64{}}}}
		}
		plugins := []weighted{w(tableFilter{code: codes}), {scoreA, 2}, w(scoreB)}
		preScoreFails := eager && rapid.IntRange(0, 9).Draw(rt, "preScoreFails") == 0
		if eager {
			plugins = append(plugins, w(tablePreScore{fail: preScoreFails}))
		}
		if rapid.Bool().Draw(rt, "withPlainPlugin") {
			var pl framework.Plugin = rangeScore{skip: rapid.Bool().Draw(rt, "plainSkips"), flip: rapid.Bool().Draw(rt, "plainFlips"), scores: scores}
			if rapid.Bool().Draw(rt, "plainEarly") {
				pl = earlyRangeScore{pl.(rangeScore)}
			}
			plugins = append(plugins, weighted{pl, 3})
		}
		cycles := rapid.IntRange(1, 4).Draw(rt, "cycles")
		minParallel := rapid.SampledFrom([]int{0, 1, 100, engine.DefaultMinParallelNodes}).Draw(rt, "minParallel")
		tieBreak := rapid.SampledFrom([]TieBreak{TieBreakUpstream, TieBreakRandom}).Draw(rt, "tieBreak")
		// run schedules the cycles with the plain cycle (Explain) or with
		// the engine (Schedule), checked at each cycle when check is set.
		run := func(par int, plain, check bool) []cycleOutcome {
			s := testScheduler(rt, makeNodes(names...), nil, plugins, WithParallelism(par), WithSeed(seed), WithTieBreak(tieBreak), WithPercentageOfNodesToScore(percentage), WithEngineCheck(check))
			defer s.Close()
			// Share filtering with helpers early, as in large clusters.
			s.engine.MinParallelNodes, s.engine.MinParallelFilter = minParallel, minParallel
			s.engine.SetMinParallelPieces(minParallel)
			var out []cycleOutcome
			for c := range cycles {
				start := s.nextStartNodeIndex
				var res Decision
				var err error
				var ex *Explanation
				if plain {
					ex, err = s.Explain(context.Background(), makePod(fmt.Sprint("p", c)))
					if err != nil {
						rt.Fatalf("par %d: Explain: %v", par, err)
					}
					res, err = ex.Decision, ex.Err
				} else {
					res, err = s.Schedule(context.Background(), makePod(fmt.Sprint("p", c)))
				}
				o := cycleOutcome{node: res.Node, evaluated: res.EvaluatedNodes, feasible: res.FeasibleNodes, next: s.nextStartNodeIndex}
				numToFind := int(s.numFeasibleNodesToFind(nil, int32(numNodes)))
				feas, rej, refErr := reference(codes, names, start, numToFind)
				if wantNext := (start + len(feas) + len(rej)) % numNodes; s.nextStartNodeIndex != wantNext {
					rt.Fatalf("par %d: next start %d, want %d", par, s.nextStartNodeIndex, wantNext)
				}
				var fe *FitError
				switch {
				case preScoreFails && !refErr && len(feas) > 1:
					if err == nil || !strings.Contains(err.Error(), "prescore failed") {
						rt.Fatalf("par %d: want the PreScore error, got %v", par, err)
					}
					o.err = err.Error()
				case refErr:
					if err == nil || errors.As(err, &fe) {
						rt.Fatalf("par %d: want a plugin error, got %v", par, err)
					}
					o.err = err.Error()
				case len(feas) == 0:
					if !errors.As(err, &fe) {
						rt.Fatalf("par %d: want a FitError, got %v", par, err)
					}
					o.err = err.Error()
					o.statuses = map[string]string{}
					fe.Diagnosis.NodeToStatus.ForEachExplicitNode(func(n string, st *framework.Status) {
						o.statuses[n] = st.Code().String() + "/" + st.Plugin()
					})
					if len(o.statuses) != len(rej) {
						rt.Fatalf("par %d: %d statuses, want %d", par, len(o.statuses), len(rej))
					}
				default:
					if err != nil {
						rt.Fatalf("par %d: %v", par, err)
					}
					if res.FeasibleNodes != len(feas) || res.EvaluatedNodes != len(feas)+len(rej) {
						rt.Fatalf("par %d: feasible %d evaluated %d, want %d %d", par, res.FeasibleNodes, res.EvaluatedNodes, len(feas), len(feas)+len(rej))
					}
					if codes[res.Node] != framework.Success {
						rt.Fatalf("chose an infeasible node %s", res.Node)
					}
					if len(feas) > 1 && plain {
						var got []string
						var best int64 = -1
						for _, n := range ex.Nodes {
							if n.Feasible {
								got = append(got, n.Name)
								best = max(best, n.Total)
							}
						}
						for _, n := range ex.Nodes {
							if n.Name == res.Node && n.Total != best {
								rt.Fatalf("chose %s with total %d, best is %d", res.Node, n.Total, best)
							}
							var total int64
							for _, ps := range n.Scores {
								if ps.Normalized < framework.MinNodeScore || ps.Normalized > framework.MaxNodeScore {
									rt.Fatalf("score out of range: %+v", n)
								}
								total += ps.Weighted
							}
							if total != n.Total {
								rt.Fatalf("total %d, want %d", n.Total, total)
							}
						}
						if !reflect.DeepEqual(got, feas) {
							rt.Fatalf("scored %v, want %v", got, feas)
						}
					}
				}
				out = append(out, o)
			}
			return out
		}
		// The plain cycle is the reference; the engine must match it at
		// every parallelism, and WithEngineCheck finds no difference.
		plain := run(1, true, false)
		for _, par := range []int{1, 2, 5, 16} {
			if got := run(par, false, false); !reflect.DeepEqual(got, plain) {
				rt.Fatalf("engine at parallelism %d:\n%+v\nplain cycle:\n%+v", par, got, plain)
			}
		}
		if got := run(2, false, true); !reflect.DeepEqual(got, plain) {
			rt.Fatalf("checked engine:\n%+v\nplain cycle:\n%+v", got, plain)
		}
	})
}

// Simulate's placements do not depend on the order pods are listed in
// when their priorities differ (the queue orders them), and are the same
// for the same seed.
func TestPropertySimulateOrderIndependence(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		numNodes := rapid.IntRange(1, 30).Draw(rt, "nodes")
		numPods := rapid.IntRange(1, 40).Draw(rt, "pods")
		capacity := rapid.IntRange(1, 3).Draw(rt, "capacity")
		seed := rapid.Uint64().Draw(rt, "seed")
		names := make([]string, numNodes)
		for i := range names {
			names[i] = fmt.Sprintf("n%d", i)
		}
		prios := rapid.SliceOfNDistinct(rapid.Int32Range(-1000, 1000), numPods, numPods, rapid.ID[int32]).Draw(rt, "prios")
		pods := make([]*api.Pod, numPods)
		for i := range pods {
			pods[i] = prioPod(fmt.Sprintf("p%d", i), prios[i])
		}
		order := rapid.Permutation(indexes(numPods)).Draw(rt, "order")
		plugins := func() []weighted {
			return []weighted{w(slots{capacity}), w(equalPrioritizer{})}
		}
		sim := func(in []*api.Pod) map[string]string {
			s := testScheduler(rt, makeNodes(names...), nil, plugins(), WithSeed(seed), WithTieBreak(TieBreakRandom), WithParallelism(3))
			out, err := s.Simulate(context.Background(), in)
			if err != nil {
				rt.Fatal(err)
			}
			m := map[string]string{}
			placed := 0
			for i, p := range out {
				if p.Pod != in[i] {
					rt.Fatalf("placement %d is for %s, not %s", i, p.Pod.Name, in[i].Name)
				}
				if (p.Node == "") == (p.Err == nil) {
					rt.Fatalf("placement %+v", p)
				}
				if p.Node != "" {
					placed++
				}
				m[p.Pod.Name] = p.Node
			}
			if want := min(numPods, numNodes*capacity); placed != want {
				rt.Fatalf("placed %d pods, want %d", placed, want)
			}
			return m
		}
		a := sim(pods)
		shuffled := make([]*api.Pod, numPods)
		for i, j := range order {
			shuffled[i] = pods[j]
		}
		if b := sim(shuffled); !reflect.DeepEqual(a, b) {
			rt.Fatalf("order changed placements:\n%v\n%v", a, b)
		}
		if c := sim(pods); !reflect.DeepEqual(a, c) {
			rt.Fatalf("same seed, different placements")
		}
	})
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
