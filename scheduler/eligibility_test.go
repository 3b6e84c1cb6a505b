package scheduler

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// The engine picks its fast paths per cycle from the plugins active in
// it: the built-in plugins keep every cycle on them; a plugin written
// against the plain interfaces does not count in a cycle in which its
// PreScore skips, and makes a cycle in which it does not score the plain
// way; the decision is the plain cycle's either way.
func TestEligibilityPerCycle(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, s *Scheduler, pod *api.Pod, numToFind int) string {
		t.Helper()
		prof, _ := s.Profile("")
		state := framework.NewCycleState()
		nodes := s.snapshot.View().Nodes()
		if _, st, _ := prof.RunPreFilterPlugins(ctx, state, pod, nodes); !st.IsSuccess() {
			t.Fatal(st)
		}
		out, err := s.engine.Run(ctx, &engine.Cycle{Profile: prof, State: state, Pod: pod, Nodes: nodes, NumToFind: numToFind,
			Diagnosis: &framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}, Eager: true, Select: s.selectFn})
		if err != nil {
			t.Fatal(err)
		}
		return out.Path
	}
	t.Run("built-in plugins", func(t *testing.T) {
		s := benchScheduler(t, benchNodes(300))
		defer s.Close()
		pod := benchPods(1)[0]
		if p := run(t, s, pod, 300); p != "eager" {
			t.Errorf("every node scored: path %q, want eager", p)
		}
		if p := run(t, s, pod, 150); p != "by-max" {
			t.Errorf("sampled: path %q, want by-max", p)
		}
	})
	for _, tc := range []struct {
		skip         bool
		early        bool // the plain plugin promises ScoresAnyNodes (its PreScore runs before Filter)
		all, sampled string
	}{
		{skip: true, all: "eager", sampled: "by-max"},
		{skip: false, all: "general", sampled: "general"},
		{skip: true, early: true, all: "eager", sampled: "by-max"},
		{skip: false, early: true, all: "eager", sampled: "general"},
	} {
		scores := map[string]int64{}
		names := make([]string, 300)
		for i := range names {
			names[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
			scores[names[i]] = int64(i % 7)
		}
		var plain framework.Plugin = rangeScore{skip: tc.skip, scores: scores}
		if tc.early {
			plain = earlyRangeScore{rangeScore{skip: tc.skip, scores: scores}}
		}
		plugins := []weighted{w(tableFilter{code: map[string]framework.Code{}}), w(eagerMaxTableScore{maxTableScore{tableScore{"A", scores}}}), {plain, 2}}
		for _, check := range []bool{false, true} {
			s := testScheduler(t, makeNodes(names...), nil, plugins, WithEngineCheck(check))
			pod := makePod("p")
			if p := run(t, s, pod, 300); p != tc.all {
				t.Errorf("skip %v early %v, every node: path %q, want %q", tc.skip, tc.early, p, tc.all)
			}
			if p := run(t, s, pod, 100); p != tc.sampled {
				t.Errorf("skip %v early %v, sampled: path %q, want %q", tc.skip, tc.early, p, tc.sampled)
			}
			// And through Schedule, checked against the plain cycle.
			for range 3 {
				if _, err := s.Schedule(ctx, pod); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
		}
	}
}

// earlyRangeScore is rangeScore whose PreScore may run before Filter
// (FastPath.ScoresAnyNodes: its state does not depend on the node list)
// but whose normalisation is not by max: its cycles are scored eagerly
// too, normalised once every node is scored.
type earlyRangeScore struct{ rangeScore }

func (earlyRangeScore) FastPath() framework.FastPath { return framework.FastPath{ScoresAnyNodes: true} }
func (r earlyRangeScore) PreScore(_ context.Context, state *framework.CycleState, _ *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	if r.skip {
		return framework.NewStatus(framework.Skip)
	}
	state.Write("PreScoreR", &rangeState{nodes: 1})
	return nil
}

// countingPreScore is an eager PreScore plugin (ScoresAnyNodes) that
// records the number of nodes of each call.
type countingPreScore struct{ calls *[]int }

func (countingPreScore) Name() string { return "Counting" }
func (countingPreScore) FastPath() framework.FastPath {
	return framework.FastPath{ScoresAnyNodes: true}
}
func (p countingPreScore) PreScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo) *framework.Status {
	*p.calls = append(*p.calls, len(nodes))
	return nil
}

// A cycle whose late PreScore plugin (one that does not promise
// ScoresAnyNodes) does not skip is scored after Filter; the engine tries
// eager scoring (running the early PreScore plugins over every node
// before Filter) only while that plugin skipped in its last cycle, and
// the decisions are the plain cycle's throughout.
func TestEagerGuessFollowsLatePreScore(t *testing.T) {
	ctx := context.Background()
	names := make([]string, 300)
	scores := map[string]int64{}
	for i := range names {
		names[i] = fmt.Sprintf("n%03d", i)
		scores[names[i]] = int64(i % 7)
	}
	var calls []int
	codes := map[string]framework.Code{names[0]: framework.Unschedulable} // 299 nodes fit
	plugins := []weighted{w(tableFilter{code: codes}), w(eagerMaxTableScore{maxTableScore{tableScore{"A", scores}}}),
		w(countingPreScore{&calls}), {rangeScore{flip: true, scores: scores}, 2}}
	s := testScheduler(t, makeNodes(names...), nil, plugins, WithEngineCheck(true), WithPercentageOfNodesToScore(100))
	defer s.Close()
	// R skips for pods named ...1, not for ...0. WithEngineCheck runs
	// the plain cycle first (PreScore over the 299 feasible nodes) and
	// compares the decisions; then the engine: eager scoring runs the
	// early plugin over all 300 nodes before Filter, and again over the
	// 299 if R did not skip and the nodes are scored after all.
	eager, dropped, after := []int{299, 300}, []int{299, 300, 299}, []int{299, 299}
	for _, tc := range []struct {
		pod  string
		want []int
	}{
		{"p0", dropped}, // no guess yet: eager tried; R does not skip
		{"p0", after},   // R did not skip last time: scored after Filter
		{"p1", after},   // still guessed not to skip; R skips
		{"p1", eager},   // R skipped last time: eager, and R skips
		{"p0", dropped}, // eager tried; R does not skip
	} {
		calls = calls[:0]
		if _, err := s.Schedule(ctx, makePod(tc.pod)); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(calls, tc.want) {
			t.Errorf("pod %s: early PreScore over %v nodes, want %v", tc.pod, calls, tc.want)
		}
	}
}

// allFitScore scores eagerly only when every node fits
// (FastPath.ScoresIfAllFit): its PreScore records and keeps the number
// of nodes it is given, and Score reverses the table's order for an odd
// number, so that a cycle scored with the wrong list picks another node.
type allFitScore struct {
	scores map[string]int64
	calls  *[]int
}

type allFitState struct{ odd bool }

func (s *allFitState) Clone() framework.StateData { c := *s; return &c }

func (allFitScore) Name() string { return "AllFit" }
func (allFitScore) FastPath() framework.FastPath {
	return framework.FastPath{ScoresIfAllFit: true}
}
func (p allFitScore) PreScore(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo) *framework.Status {
	*p.calls = append(*p.calls, len(nodes))
	state.Write("PreScoreAllFit", &allFitState{odd: len(nodes)%2 == 1})
	return nil
}
func (p allFitScore) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	v, ok := state.Read("PreScoreAllFit")
	if !ok {
		return 0, framework.NewStatus(framework.Error, "no PreScore state")
	}
	if v.(*allFitState).odd {
		return 100 - p.scores[ni.Node().Name], nil
	}
	return p.scores[ni.Node().Name], nil
}
func (allFitScore) ScoreExtensions() framework.ScoreExtensions { return nil }

// A Score plugin that promises ScoresIfAllFit is scored eagerly in a
// cycle where every node fits (its PreScore runs over every node before
// Filter); in one where a node is rejected, the eager run is dropped and
// the nodes are scored after Filter, PreScore given the feasible nodes;
// the next cycles do not try eager scoring while a node was rejected in
// the last. Every decision is the plain cycle's: WithEngineCheck runs
// the plain cycle first (PreScore over the feasible nodes), then the
// engine, and compares.
func TestEagerIfAllFit(t *testing.T) {
	ctx := context.Background()
	names := make([]string, 300)
	scores := map[string]int64{}
	for i := range names {
		names[i] = fmt.Sprintf("n%03d", i)
		scores[names[i]] = int64(i*37) % 100
	}
	for _, tc := range []struct {
		reject bool
		want   [][]int // PreScore's node counts, cycle by cycle
	}{
		{false, [][]int{{300, 300}, {300, 300}}},
		{true, [][]int{{299, 300, 299}, {299, 299}, {299, 299}}},
	} {
		codes := map[string]framework.Code{}
		if tc.reject {
			codes[names[5]] = framework.Unschedulable // 299 nodes fit
		}
		var calls []int
		plugins := []weighted{w(tableFilter{code: codes}), w(allFitScore{scores, &calls})}
		s := testScheduler(t, makeNodes(names...), nil, plugins, WithEngineCheck(true), WithPercentageOfNodesToScore(100))
		for i, want := range tc.want {
			calls = calls[:0]
			if _, err := s.Schedule(ctx, makePod(fmt.Sprint("p", i))); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(calls, want) {
				t.Errorf("reject %v, cycle %d: PreScore over %v nodes, want %v", tc.reject, i, calls, want)
			}
		}
		s.Close()
	}
}
