package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestPropNodeMemoSyncView: after random node and pod changes across
// more chunks than one, a memo kept by SyncView holds the totals a memo
// kept by Sync over the view's nodes holds, and the totals of a fresh
// count; SyncView computes no node that Sync does not.
func TestPropNodeMemoSyncView(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// A node's value: its pods, times 1,000, plus its name's length;
		// none for a node without pods.
		val := func(ni *NodeInfo) int64 {
			if len(ni.Pods) == 0 {
				return 0
			}
			return int64(len(ni.Pods))*1000 + int64(len(ni.Name()))
		}
		type memo struct {
			m        NodeMemo[int64]
			total    int64
			computed int
		}
		compute := func(mm *memo) func(ni *NodeInfo, v *int64) bool {
			return func(ni *NodeInfo, v *int64) bool { mm.computed++; *v = val(ni); return *v != 0 }
		}
		change := func(mm *memo) func(v *int64, _ *NodeInfo, sign int64) {
			return func(v *int64, _ *NodeInfo, sign int64) { mm.total += sign * *v }
		}
		n := rapid.IntRange(1, 3*chunkLen).Draw(t, "nodes")
		snap, err := NewSnapshot(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		next := 0
		addNode := func() {
			if err := snap.AddNode(mkNode(fmt.Sprintf("n%d", next), rl("cpu", "100", "pods", "200"), nil)); err != nil {
				t.Fatal(err)
			}
			next++
		}
		for range n {
			addNode()
		}
		var byView, bySync memo
		pods := 0
		steps := rapid.IntRange(1, 30).Draw(t, "steps")
		for range steps {
			v := snap.View()
			byView.m.SyncView(v, compute(&byView), change(&byView))
			bySync.m.Sync(v.Nodes(), compute(&bySync), change(&bySync))
			var want int64
			for _, ni := range v.Nodes() {
				want += val(ni)
			}
			if byView.total != want || bySync.total != want {
				t.Fatalf("totals: SyncView %d, Sync %d, fresh %d", byView.total, bySync.total, want)
			}
			if byView.computed > bySync.computed {
				t.Fatalf("SyncView computed %d nodes, Sync %d", byView.computed, bySync.computed)
			}
			nodes := v.Nodes()
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0, 1, 2:
				ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
				p := mkPod("ns", fmt.Sprintf("p%d", pods), fmt.Sprintf("u%d", pods), ni.Name()).obj()
				pods++
				if err := snap.AddPod(p); err != nil {
					t.Fatal(err)
				}
			case 3:
				ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
				if len(ni.Pods) > 0 {
					if err := snap.RemovePod(ni.Pods[0].Pod); err != nil {
						t.Fatal(err)
					}
				}
			case 4:
				addNode()
			case 5:
				if len(nodes) > 1 {
					ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
					if err := snap.RemoveNode(ni.Name()); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	})
}
