package plugins

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// TestFilterNodesAllocations: with PreFilter state in place, FilterNodes
// allocates nothing, whether it accepts the nodes or rejects them with
// fixed reasons.
func TestFilterNodesAllocations(t *testing.T) {
	nodes := []*cluster.NodeInfo{hotNode(), hotNode(), hotNode()}
	statuses := make([]*framework.Status, len(nodes))
	ctx := context.Background()
	for _, c := range filterCases(t) {
		state := prepare(t, c)
		f := framework.FastPathOf(c.plugin).FilterNodes
		run := func() {
			clear(statuses)
			f(ctx, state, c.pod, nodes, statuses)
		}
		run()
		for i, st := range statuses {
			if st.Code() != c.want {
				t.Errorf("%s: node %d: code %v, want %v", c.name, i, st.Code(), c.want)
			}
		}
		if allocs := testing.AllocsPerRun(100, run); allocs != 0 {
			t.Errorf("%s: FilterNodes allocates %v times per run, want 0", c.name, allocs)
		}
	}
}

// benchFilterNodes reports FilterNodes' time per node over 256 nodes.
func benchFilterNodes(b *testing.B, name string) {
	nodes := make([]*cluster.NodeInfo, 256)
	for i := range nodes {
		nodes[i] = hotNode()
	}
	statuses := make([]*framework.Status, len(nodes))
	ctx := context.Background()
	for _, c := range filterCases(b) {
		if c.name != name {
			continue
		}
		state := prepare(b, c)
		f := framework.FastPathOf(c.plugin).FilterNodes
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			clear(statuses)
			f(ctx, state, c.pod, nodes, statuses)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(nodes)), "ns/node")
		return
	}
	b.Fatalf("no case %s", name)
}

func BenchmarkFilterNodesFit(b *testing.B) { benchFilterNodes(b, "NodeResourcesFit/fits") }
func BenchmarkFilterNodesTaintToleration(b *testing.B) {
	benchFilterNodes(b, "TaintToleration/tolerated")
}
func BenchmarkFilterNodesNodeUnschedulable(b *testing.B) { benchFilterNodes(b, "NodeUnschedulable") }
func BenchmarkFilterNodesNodeName(b *testing.B)          { benchFilterNodes(b, "NodeName") }
