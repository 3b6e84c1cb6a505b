package priorities

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/framework"
)

// TestScoreNodesAllocations: after PreScore, ScoreNodes over every node
// allocates nothing.
func TestScoreNodesAllocations(t *testing.T) {
	snap := hotSnapshot(t)
	pod := hotPod()
	nodes := snap.Nodes()
	ctx := context.Background()
	scores := make([]int64, len(nodes))
	for _, c := range scoreCases(t, snap) {
		state := preScore(t, c.plugin, pod, snap)
		sp := c.plugin.(framework.BatchScorePlugin)
		if i, st := sp.ScoreNodes(ctx, state, pod, nodes, scores); !st.IsSuccess() {
			t.Fatalf("%s: node %d: %v", c.name, i, st)
		}
		if allocs := testing.AllocsPerRun(100, func() { sp.ScoreNodes(ctx, state, pod, nodes, scores) }); allocs != 0 {
			t.Errorf("%s: ScoreNodes allocates %v times per run, want 0", c.name, allocs)
		}
	}
}

// benchScoreNodes reports ScoreNodes' time per node over 256 nodes.
func benchScoreNodes(b *testing.B, name string) {
	snap := hotSnapshot(b)
	pod := hotPod()
	var nodes = snap.Nodes()
	for len(nodes) < 256 {
		nodes = append(nodes, snap.Nodes()...)
	}
	scores := make([]int64, len(nodes))
	ctx := context.Background()
	for _, c := range scoreCases(b, snap) {
		if c.name != name {
			continue
		}
		state := preScore(b, c.plugin, pod, snap)
		sp := c.plugin.(framework.BatchScorePlugin)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			sp.ScoreNodes(ctx, state, pod, nodes, scores)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(nodes)), "ns/node")
		return
	}
	b.Fatalf("no case %s", name)
}

func BenchmarkScoreNodesLeastAllocated(b *testing.B) { benchScoreNodes(b, "LeastAllocated") }
func BenchmarkScoreNodesBalanced(b *testing.B)       { benchScoreNodes(b, "Balanced") }
func BenchmarkScoreNodesTaintToleration(b *testing.B) {
	benchScoreNodes(b, "TaintToleration")
}
func BenchmarkScoreNodesImageLocality(b *testing.B) { benchScoreNodes(b, "ImageLocality") }
