package scheduler

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// TestDefaultProfileNodeAllocations pins the hot path of a cycle with the
// default profile and a plain pod: once PreFilter and PreScore have run,
// filtering and scoring one node, or all of them, allocates nothing.
func TestDefaultProfileNodeAllocations(t *testing.T) {
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
	statuses := make([]*framework.Status, len(infos))
	var buf framework.ScoreBuffer
	for name, f := range map[string]func(){
		"RunFilterPlugins, one node": func() {
			if st := prof.RunFilterPlugins(ctx, state, pod, infos[7]); !st.IsSuccess() {
				t.Fatal(st)
			}
		},
		"RunFilterPluginsOnNodes, one node": func() { prof.RunFilterPluginsOnNodes(ctx, state, pod, infos[7:8], statuses) },
		"RunFilterPluginsOnNodes, all nodes": func() {
			prof.RunFilterPluginsOnNodes(ctx, state, pod, infos, statuses)
		},
		"RunScorePluginsTotals, one node": func() {
			if _, st := prof.RunScorePluginsTotals(ctx, state, pod, infos[7:8], &buf); !st.IsSuccess() {
				t.Fatal(st)
			}
		},
		"RunScorePluginsTotals, all nodes": func() {
			if _, st := prof.RunScorePluginsTotals(ctx, state, pod, infos, &buf); !st.IsSuccess() {
				t.Fatal(st)
			}
		},
	} {
		f() // grow the buffers
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
	for i, st := range statuses {
		if !st.IsSuccess() {
			t.Fatalf("node %d rejected: %v", i, st)
		}
	}
}
