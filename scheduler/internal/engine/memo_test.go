package engine

import (
	"fmt"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// memoNodes returns the NodeInfos of a snapshot of n nodes, with their
// slots.
func memoNodes(t testing.TB, n int) []*cluster.NodeInfo {
	t.Helper()
	nodes := make([]*api.Node, n)
	for i := range nodes {
		nodes[i] = makeNode(fmt.Sprintf("n%d", i))
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap.View().Nodes()
}

// The paged memo reads back what was put, across page boundaries, for
// verdicts put by several goroutines at once (each node by one, pages
// shared between them), with pages made on first write or all before
// the pass, and drops verdicts of another epoch, NodeInfo or
// generation, as a map of the verdicts put does.
func TestPropertyMemoPagesMatchMap(t *testing.T) {
	statuses := []*framework.Status{nil, framework.NewStatus(framework.Unschedulable, "a"), framework.NewStatus(framework.UnschedulableAndUnresolvable, "b"), framework.NewStatus(framework.Error, "e")}
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 3*memoPageLen+5).Draw(rt, "nodes")
		all := memoNodes(t, n)
		// The cycle's nodes: any subset (PreFilter's), in any order.
		perm := rapid.Permutation(all).Draw(rt, "order")
		nodes := perm[:rapid.IntRange(0, n).Draw(rt, "filtered")]
		var m filterMemo
		m.epoch = 1
		sized := rapid.IntRange(0, n).Draw(rt, "sized")
		m.size(sized)
		if rapid.Bool().Draw(rt, "fill") {
			m.fill()
		}
		type kept struct {
			ni  *cluster.NodeInfo
			gen int64
			st  *framework.Status
		}
		want := map[int]kept{}
		for round := range rapid.IntRange(1, 3).Draw(rt, "rounds") {
			if rapid.Bool().Draw(rt, "newEpoch") {
				m.epoch++
				clear(want)
			}
			m.size(max(int(m.maxSlot.Load())+1, sized))
			// Each goroutine puts its nodes' verdicts.
			workers := rapid.IntRange(1, 4).Draw(rt, "workers")
			owner := make([]int, len(nodes))
			st := make([]*framework.Status, len(nodes))
			for i := range nodes {
				owner[i] = rapid.IntRange(0, workers-1).Draw(rt, "owner")
				st[i] = statuses[rapid.IntRange(0, len(statuses)-1).Draw(rt, "status")]
			}
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for i, ni := range nodes {
						if owner[i] == w {
							m.get(ni)
							m.put(ni, st[i])
						}
					}
				})
			}
			wg.Wait()
			for i, ni := range nodes {
				if sl := ni.Slot(); sl < len(m.pages)*memoPageLen && st[i].Code() != framework.Error {
					want[sl] = kept{ni, ni.Generation, st[i]}
				}
			}
			if round == 0 && len(nodes) > 0 && rapid.Bool().Draw(rt, "changed") {
				// A node changed: its verdict is dropped.
				ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(rt, "changedNode")]
				ni.Generation++
			}
			for _, ni := range all {
				k, ok := want[ni.Slot()]
				ok = ok && k.ni == ni && k.gen == ni.Generation
				v := m.get(ni)
				switch {
				case !ok && v != nil:
					rt.Fatalf("slot %d: verdict %v, none put", ni.Slot(), v.st)
				case ok && v == nil:
					rt.Fatalf("slot %d: no verdict, %v put", ni.Slot(), k.st)
				case ok && v.st != k.st:
					rt.Fatalf("slot %d: verdict %v, %v put", ni.Slot(), v.st, k.st)
				}
			}
		}
	})
}

// A pass that filters a tenth of the nodes makes the pages of those
// nodes only.
func TestMemoPagesMadeOnWrite(t *testing.T) {
	nodes := memoNodes(t, 40*memoPageLen)
	var m filterMemo
	m.epoch = 1
	m.size(len(nodes))
	touched := map[int]bool{}
	for _, ni := range nodes[:4*memoPageLen] {
		m.put(ni, nil)
		touched[ni.Slot()>>memoPageBits] = true
	}
	made := 0
	for i := range m.pages {
		if m.pages[i].Load() != nil {
			made++
		}
	}
	if made != len(touched) {
		t.Errorf("%d pages made for nodes of %d pages", made, len(touched))
	}
}
