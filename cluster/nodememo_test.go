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
	compute := func(ni *NodeInfo, v *int64) bool { computed++; *v = int64(len(ni.Name())) + ni.Generation; return true }
	var total int64
	change := func(v *int64, _ *NodeInfo, sign int64) { total += sign * *v }
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

// A zero value (compute reports false) is neither kept nor handed to
// change; a node going from a value to none and back gives its value back
// exactly, and freed values are reused.
func TestNodeMemoZeroValues(t *testing.T) {
	mk := func(name string) *NodeInfo { return NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}}) }
	nodes := []*NodeInfo{mk("a"), mk("bb"), mk("ccc"), mk("dddd")}
	// A node's value is its name's length plus its generation, zero when
	// the generation is odd.
	val := func(ni *NodeInfo) int64 {
		if ni.Generation%2 == 1 {
			return 0
		}
		return int64(len(ni.Name())) + ni.Generation
	}
	compute := func(ni *NodeInfo, v *int64) bool {
		if *v != 0 {
			t.Fatalf("compute given a slot holding %d", *v)
		}
		x := val(ni)
		if x == 0 {
			*v = -1 // written but not kept: the memo must clear it
			return false
		}
		*v = x
		return true
	}
	var total int64
	changes := 0
	change := func(v *int64, ni *NodeInfo, sign int64) {
		changes++
		if *v == 0 {
			t.Fatalf("zero value handed to change")
		}
		if sign > 0 && (ni == nil || val(ni) != *v) {
			t.Fatalf("sign +1 without the node it was computed from")
		}
		if sign < 0 && ni != nil {
			t.Fatalf("sign -1 with a node")
		}
		total += sign * *v
	}
	want := func(nodes []*NodeInfo) int64 {
		var s int64
		for _, ni := range nodes {
			s += val(ni)
		}
		return s
	}
	var m NodeMemo[int64]
	for i, ni := range nodes {
		ni.Generation = int64(2 * i)
	}
	nodes[1].Generation = 1
	m.Sync(nodes, compute, change)
	if changes != 3 || total != want(nodes) || m.Len() != 4 {
		t.Fatalf("first sync: %d changes, total %d, want %d", changes, total, want(nodes))
	}
	for round := range 6 {
		nodes[round%4].Generation++
		m.Sync(nodes, compute, change)
		if total != want(nodes) {
			t.Fatalf("round %d: total %d, want %d", round, total, want(nodes))
		}
		if m.len > 4 {
			t.Fatalf("round %d: %d values kept for 4 nodes", round, m.len)
		}
	}
	m.Sync(nodes[:1], compute, change)
	if total != want(nodes[:1]) || m.Len() != 1 {
		t.Errorf("shrunk: total %d, want %d", total, want(nodes[:1]))
	}
}
