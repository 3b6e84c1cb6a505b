package scheduler

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// TestDefaultProfileNodeAllocations pins the hot path of a cycle with the
// default profile and a plain pod: once PreFilter (and, for the engine's
// score pass, PreScore) has run, the engine's filtering and scoring of
// one node, or all of them, allocates nothing.
func TestDefaultProfileNodeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector")
	}
	nodes := benchNodes(300)
	bound := benchPods(600)
	for i, p := range bound {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
	}
	snap, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	prof, _ := s.Profile("")
	infos := snap.View().Nodes()
	pod := benchPods(700)[650]
	ctx := context.Background()
	state := framework.NewCycleState()
	if _, st, _ := prof.RunPreFilterPlugins(ctx, state, pod, infos); !st.IsSuccess() {
		t.Fatal(st)
	}
	if st := prof.RunPreScorePlugins(ctx, state, pod, infos); !st.IsSuccess() {
		t.Fatal(st)
	}
	cycle := func(nodes []*cluster.NodeInfo, eager bool) func() {
		c := &engine.Cycle{Profile: prof, State: state, Pod: pod, Nodes: nodes, NumToFind: len(nodes),
			Diagnosis: &framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}, Eager: eager, Select: s.selectTotals}
		return func() {
			if out, err := s.engine.Run(ctx, c); err != nil || out.Node == nil {
				t.Fatal(out, err)
			}
		}
	}
	for name, f := range map[string]func(){
		"RunFilterPlugins, one node": func() {
			if st := prof.RunFilterPlugins(ctx, state, pod, infos[7]); !st.IsSuccess() {
				t.Fatal(st)
			}
		},
		"engine, one node": cycle(infos[7:8], false),
	} {
		f() // grow the buffers
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
	// Two or more nodes: PreScore allocates, once per cycle; nothing
	// allocates per node.
	for name, f := range map[string]func(){
		"engine, all nodes":         cycle(infos, false),
		"engine, all nodes, eager":  cycle(infos, true),
		"engine, all nodes, by max": cycle(infos[:150], false),
	} {
		f()
		two := cycle(infos[:2], false)
		two()
		if a, b := testing.AllocsPerRun(100, f), testing.AllocsPerRun(100, two); a > b {
			t.Errorf("%s: %v allocations per run, %v with two nodes: it allocates per node", name, a, b)
		}
	}
}
