package cluster

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// Sync recomputes only the nodes that changed, and hands every dropped
// and new value to change, so that totals kept by change stay exact.
func TestNodeMemoSync(t *testing.T) {
	a, b, c := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "a"}}), NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "b"}}), NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "c"}})
	computed := 0
	compute := func(ni *NodeInfo) int64 { computed++; return int64(len(ni.Name())) + ni.Generation }
	var total int64
	change := func(v *int64, sign int64) { total += sign * *v }
	m := NewNodeMemo[int64](2)
	want := func(nodes ...*NodeInfo) int64 {
		var s int64
		for _, ni := range nodes {
			s += int64(len(ni.Name())) + ni.Generation
		}
		return s
	}
	m.Sync([]*NodeInfo{a, b}, compute, change)
	if computed != 2 || total != want(a, b) {
		t.Fatalf("first sync: %d computed, total %d", computed, total)
	}
	m.Sync([]*NodeInfo{a, b}, compute, change)
	if computed != 2 {
		t.Errorf("unchanged nodes recomputed: %d", computed)
	}
	b.Generation += 5
	m.Sync([]*NodeInfo{a, b, c}, compute, change)
	if computed != 4 || total != want(a, b, c) {
		t.Errorf("changed and added: %d computed, total %d, want %d", computed, total, want(a, b, c))
	}
	m.Sync([]*NodeInfo{c}, compute, change)
	if total != want(c) {
		t.Errorf("shrunk: total %d, want %d", total, want(c))
	}
}
