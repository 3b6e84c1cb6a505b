package scheduler

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/engine"
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
