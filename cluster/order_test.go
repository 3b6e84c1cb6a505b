package cluster

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

func TestZoneKey(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{"no labels", nil, ""},
		{"unrelated labels", map[string]string{"rack": "r1"}, ""},
		{"empty values", map[string]string{labelZone: "", labelRegion: ""}, ""},
		{"zone only", map[string]string{labelZone: "z1"}, ":\x00:z1"},
		{"region only", map[string]string{labelRegion: "r1"}, "r1:\x00:"},
		{"region and zone", map[string]string{labelRegion: "r1", labelZone: "z1"}, "r1:\x00:z1"},
		{"beta labels only", map[string]string{labelRegionBeta: "r2", labelZoneBeta: "z3"}, "r2:\x00:z3"},
		{"beta labels win", map[string]string{labelRegionBeta: "rb", labelZoneBeta: "zb", labelRegion: "r", labelZone: "z"}, "rb:\x00:zb"},
		{"beta zone with GA region", map[string]string{labelZoneBeta: "zb", labelRegion: "r"}, "r:\x00:zb"},
		// A present but empty beta label hides the GA one.
		{"empty beta zone", map[string]string{labelZoneBeta: "", labelZone: "z", labelRegion: "r"}, "r:\x00:"},
		{"empty beta labels", map[string]string{labelZoneBeta: "", labelZone: "z", labelRegionBeta: "", labelRegion: "r"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ZoneKey(mkNode("n", nil, tc.labels)); got != tc.want {
				t.Errorf("ZoneKey = %q, want %q", got, tc.want)
			}
		})
	}
	if got := ZoneKey(nil); got != "" {
		t.Errorf("ZoneKey(nil) = %q", got)
	}
}

// treeNodes are the nodes of upstream's node_tree_test.go: node-0 without
// zone labels, node-1 with a region only, node-2 with a zone only,
// node-3..5 in region-1, node-6..9 in region-2 (node-9 also with the
// beta labels), node-10 with the beta labels only.
func treeNodes() []*api.Node {
	labels := []map[string]string{
		nil,
		{labelRegion: "region-1"},
		{labelZone: "zone-2"},
		{labelRegion: "region-1", labelZone: "zone-2"},
		{labelRegion: "region-1", labelZone: "zone-2"},
		{labelRegion: "region-1", labelZone: "zone-3"},
		{labelRegion: "region-2", labelZone: "zone-2"},
		{labelRegion: "region-2", labelZone: "zone-2"},
		{labelRegion: "region-2", labelZone: "zone-2"},
		{labelRegion: "region-2", labelZone: "zone-2", labelRegionBeta: "region-2", labelZoneBeta: "zone-2"},
		{labelRegionBeta: "region-2", labelZoneBeta: "zone-3"},
	}
	nodes := make([]*api.Node, len(labels))
	for i, l := range labels {
		nodes[i] = mkNode(fmt.Sprintf("node-%d", i), nil, l)
	}
	return nodes
}

// nodeNames returns the names of the view's nodes, in order.
func nodeNames(v *View) []string {
	out := []string{}
	for _, ni := range v.Nodes() {
		out = append(out, ni.Name())
	}
	return out
}

// names returns the fixture names of the given treeNodes indexes.
func names(idx ...int) []string {
	out := []string{}
	for _, i := range idx {
		out = append(out, fmt.Sprintf("node-%d", i))
	}
	return out
}

// checkTree compares the snapshot's zone tree with want (zone key →
// names in order) and checks its zone list holds exactly those zones.
func checkTree(t *testing.T, s *Snapshot, want map[string][]string) {
	t.Helper()
	if diff := cmp.Diff(want, s.tree.byZone, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("zone tree (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(slices.Values(s.tree.zones)), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("zone list (-want +got):\n%s", diff)
	}
	if n := s.NumNodes(); s.tree.n != n {
		t.Errorf("tree counts %d nodes, snapshot has %d", s.tree.n, n)
	}
}

// checkOrder compares the order of a new view with want and checks the
// view's index and domains against it.
func checkOrder(t *testing.T, s *Snapshot, want []string) {
	t.Helper()
	v := s.View()
	if diff := cmp.Diff(want, nodeNames(v)); diff != "" {
		t.Errorf("node order (-want +got):\n%s", diff)
	}
	if !slices.Equal(v.Nodes(), v.List()) || !slices.Equal(v.Nodes(), s.List()) || !slices.Equal(v.Nodes(), s.Nodes()) {
		t.Errorf("Nodes and List differ")
	}
	checkInvariants(t, s)
}

// TestOrderAddNode ports upstream's TestNodeTree_AddNode.
func TestOrderAddNode(t *testing.T) {
	for _, tc := range []struct {
		name      string
		add       []int
		wantTree  map[string][]string
		wantOrder []string
	}{
		{
			name:      "single node no labels",
			add:       []int{0},
			wantTree:  map[string][]string{"": names(0)},
			wantOrder: names(0),
		},
		{
			// AddNode refuses a node already present (upstream's tree
			// ignores it).
			name:      "same node specified twice",
			add:       []int{0, 0},
			wantTree:  map[string][]string{"": names(0)},
			wantOrder: names(0),
		},
		{
			name: "mix of nodes with and without proper labels",
			add:  []int{0, 1, 2, 3},
			wantTree: map[string][]string{
				"":                     names(0),
				"region-1:\x00:":       names(1),
				":\x00:zone-2":         names(2),
				"region-1:\x00:zone-2": names(3),
			},
			wantOrder: names(0, 1, 2, 3),
		},
		{
			name: "mix of nodes with and without proper labels and some zones with multiple nodes",
			add:  []int{0, 1, 2, 3, 4, 5, 6},
			wantTree: map[string][]string{
				"":                     names(0),
				"region-1:\x00:":       names(1),
				":\x00:zone-2":         names(2),
				"region-1:\x00:zone-2": names(3, 4),
				"region-1:\x00:zone-3": names(5),
				"region-2:\x00:zone-2": names(6),
			},
			wantOrder: names(0, 1, 2, 3, 5, 6, 4),
		},
		{
			name: "nodes also using deprecated zone/region label",
			add:  []int{9, 10},
			wantTree: map[string][]string{
				"region-2:\x00:zone-2": names(9),
				"region-2:\x00:zone-3": names(10),
			},
			wantOrder: names(9, 10),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := treeNodes()
			var s Snapshot
			seen := map[int]bool{}
			for _, i := range tc.add {
				if err := s.AddNode(nodes[i]); (err != nil) != seen[i] {
					t.Fatalf("AddNode(%s) = %v", nodes[i].Name, err)
				}
				seen[i] = true
			}
			checkTree(t, &s, tc.wantTree)
			checkOrder(t, &s, tc.wantOrder)
		})
	}
}

// TestOrderRemoveNode ports upstream's TestNodeTree_RemoveNode. Removing
// changes the set of nodes, so the order follows the tree whether or not
// a view was taken before.
func TestOrderRemoveNode(t *testing.T) {
	for _, tc := range []struct {
		name      string
		existing  []int
		remove    []int
		wantErr   bool
		wantTree  map[string][]string
		wantOrder []string
	}{
		{
			name:     "remove a single node with no labels",
			existing: []int{0, 1, 2, 3, 4, 5, 6},
			remove:   []int{0},
			wantTree: map[string][]string{
				"region-1:\x00:":       names(1),
				":\x00:zone-2":         names(2),
				"region-1:\x00:zone-2": names(3, 4),
				"region-1:\x00:zone-3": names(5),
				"region-2:\x00:zone-2": names(6),
			},
			wantOrder: names(1, 2, 3, 5, 6, 4),
		},
		{
			name:     "remove a few nodes including one from a zone with multiple nodes",
			existing: []int{0, 1, 2, 3, 4, 5, 6},
			remove:   []int{1, 2, 3},
			wantTree: map[string][]string{
				"":                     names(0),
				"region-1:\x00:zone-2": names(4),
				"region-1:\x00:zone-3": names(5),
				"region-2:\x00:zone-2": names(6),
			},
			wantOrder: names(0, 4, 5, 6),
		},
		{
			name:      "remove all nodes",
			existing:  []int{0, 1, 2, 3, 4, 5, 6},
			remove:    []int{0, 1, 2, 3, 4, 5, 6},
			wantTree:  map[string][]string{},
			wantOrder: names(),
		},
		{
			name:      "remove non-existing node",
			remove:    []int{0, 1, 2, 3, 4},
			wantErr:   true,
			wantTree:  map[string][]string{},
			wantOrder: names(),
		},
	} {
		for _, viewFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/view first %v", tc.name, viewFirst), func(t *testing.T) {
				nodes := treeNodes()
				s, err := NewSnapshot(pick(nodes, tc.existing), nil)
				if err != nil {
					t.Fatal(err)
				}
				if viewFirst {
					s.View()
				}
				for _, i := range tc.remove {
					if err := s.RemoveNode(nodes[i].Name); (err != nil) != tc.wantErr {
						t.Errorf("RemoveNode(%s) = %v", nodes[i].Name, err)
					}
				}
				checkTree(t, s, tc.wantTree)
				checkOrder(t, s, tc.wantOrder)
			})
		}
	}
}

func pick(nodes []*api.Node, idx []int) []*api.Node {
	out := make([]*api.Node, 0, len(idx))
	for _, i := range idx {
		out = append(out, nodes[i])
	}
	return out
}

// TestOrderUpdateNode ports upstream's TestNodeTree_UpdateNode. A node
// whose zone key changes moves to the end of its new zone. Without a view
// before the update the first view shows that; after a view the order
// stays, as upstream's snapshot keeps its list while the set of nodes is
// the same.
func TestOrderUpdateNode(t *testing.T) {
	for _, tc := range []struct {
		name      string
		existing  []int
		update    *api.Node
		wantErr   bool
		wantTree  map[string][]string
		wantOrder []string
	}{
		{
			name:     "update a node without label",
			existing: []int{0, 1, 2, 3, 4, 5, 6},
			update:   mkNode("node-0", nil, map[string]string{labelRegion: "region-1", labelZone: "zone-2"}),
			wantTree: map[string][]string{
				"region-1:\x00:":       names(1),
				":\x00:zone-2":         names(2),
				"region-1:\x00:zone-2": names(3, 4, 0),
				"region-1:\x00:zone-3": names(5),
				"region-2:\x00:zone-2": names(6),
			},
			wantOrder: names(1, 2, 3, 5, 6, 4, 0),
		},
		{
			name:      "update the only existing node",
			existing:  []int{0},
			update:    mkNode("node-0", nil, map[string]string{labelRegion: "region-1", labelZone: "zone-2"}),
			wantTree:  map[string][]string{"region-1:\x00:zone-2": names(0)},
			wantOrder: names(0),
		},
		{
			// Upstream's tree adds the node; UpdateNode refuses it.
			name:      "update non-existing node",
			existing:  []int{0},
			update:    mkNode("node-new", nil, map[string]string{labelRegion: "region-1", labelZone: "zone-2"}),
			wantErr:   true,
			wantTree:  map[string][]string{"": names(0)},
			wantOrder: names(0),
		},
		{
			name:     "same zone key from other labels",
			existing: []int{3, 4, 6},
			update:   mkNode("node-3", nil, map[string]string{labelRegionBeta: "region-1", labelZoneBeta: "zone-2"}),
			wantTree: map[string][]string{
				"region-1:\x00:zone-2": names(3, 4),
				"region-2:\x00:zone-2": names(6),
			},
			wantOrder: names(3, 6, 4),
		},
	} {
		for _, viewFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/view first %v", tc.name, viewFirst), func(t *testing.T) {
				nodes := treeNodes()
				s, err := NewSnapshot(pick(nodes, tc.existing), nil)
				if err != nil {
					t.Fatal(err)
				}
				want := tc.wantOrder
				if viewFirst {
					want = nodeNames(s.View())
				}
				if err := s.UpdateNode(tc.update); (err != nil) != tc.wantErr {
					t.Errorf("UpdateNode = %v", err)
				}
				checkTree(t, s, tc.wantTree)
				checkOrder(t, s, want)
			})
		}
	}
}

// TestOrderList ports upstream's TestNodeTree_List: NewSnapshot lists the
// nodes as the tree lists them after adding them one by one.
// (TestNodeTree_List_Exhausted corrupts the tree's count; there is no
// such state here.)
func TestOrderList(t *testing.T) {
	for _, tc := range []struct {
		name string
		add  []int
		want []string
	}{
		{"empty tree", nil, names()},
		{"one node", []int{0}, names(0)},
		{"four nodes", []int{0, 1, 2, 3}, names(0, 1, 2, 3)},
		{"all nodes", []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, names(0, 1, 2, 3, 5, 6, 4, 7, 8)},
		// Beyond upstream: zones in first-seen order, nodes interleaved
		// whatever the order of the zones' sizes.
		{"zones by first arrival", []int{6, 3, 7, 0, 8, 4, 5}, names(6, 3, 0, 5, 7, 4, 8)},
		{"beta and GA labels share a zone", []int{9, 6, 10, 7, 5}, names(9, 10, 5, 6, 7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSnapshot(pick(treeNodes(), tc.add), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkOrder(t, s, tc.want)
			// Adding the nodes one by one, with a view after each,
			// ends in the same order.
			var one Snapshot
			for _, n := range pick(treeNodes(), tc.add) {
				if err := one.AddNode(n); err != nil {
					t.Fatal(err)
				}
				one.View()
			}
			checkOrder(t, &one, tc.want)
		})
	}
}

// TestOrderMultiOperations ports upstream's TestNodeTreeMultiOperations:
// adds and removes in turn, then the order.
func TestOrderMultiOperations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		add    []int
		remove []int
		ops    string // a for add, r for remove
		want   []string
	}{
		{"add and remove all nodes", []int{2, 3, 4, 5, 6, 7, 8}, []int{2, 3, 4, 5, 6, 7, 8}, "aaarrr", names()},
		{"add and remove some nodes", []int{2, 3, 4, 5, 6, 7, 8}, []int{2, 3, 4, 5, 6, 7, 8}, "aaar", names(3, 4)},
		{"remove three nodes", []int{2, 3, 4, 5, 6, 7, 8}, []int{2, 3, 4, 5, 6, 7, 8}, "aaarrra", names(5)},
		{"add more nodes to an exhausted zone", []int{4, 5, 6, 7, 8, 3}, nil, "aaaaaa", names(4, 5, 6, 3, 7, 8)},
		{"remove zone and add new", []int{3, 4, 6, 7}, []int{3, 4}, "aaraar", names(6, 7)},
	} {
		for _, viewEach := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/view each %v", tc.name, viewEach), func(t *testing.T) {
				nodes := treeNodes()
				var s Snapshot
				add, remove := tc.add, tc.remove
				for _, op := range tc.ops {
					var err error
					if op == 'a' {
						err = s.AddNode(nodes[add[0]])
						add = add[1:]
					} else {
						err = s.RemoveNode(nodes[remove[0]].Name)
						remove = remove[1:]
					}
					if err != nil {
						t.Fatal(err)
					}
					if viewEach {
						s.View()
					}
				}
				checkOrder(t, &s, tc.want)
			})
		}
	}
}

// TestOrderFollowsSnapshotRebuilds: upstream's cache.UpdateSnapshot
// rebuilds the node list from the tree only when the set of nodes changed
// since the last snapshot; a zone change or a node removed and added back
// between two snapshots leaves the list as it was, but the tree changed
// and the next rebuild shows it. Pod changes never reorder.
func TestOrderFollowsSnapshotRebuilds(t *testing.T) {
	z := func(name, zone string) *api.Node {
		return mkNode(name, rl("cpu", "4"), map[string]string{labelZone: zone})
	}
	s, err := NewSnapshot([]*api.Node{z("a1", "a"), z("a2", "a"), z("b1", "b"), z("b2", "b")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a1", "b1", "a2", "b2"})

	if err := s.UpdateNode(z("a1", "b")); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a1", "b1", "a2", "b2"})

	if err := s.RemoveNode("b1"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNode(z("b1", "b")); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a1", "b1", "a2", "b2"})

	if err := s.AddPod(mkPod("ns", "p", "u", "b2").container(rl("cpu", "1")).obj()); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a1", "b1", "a2", "b2"})

	// A node added and removed between two views changes nothing either.
	if err := s.AddNode(z("c1", "c")); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveNode("c1"); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a1", "b1", "a2", "b2"})

	// A new node: the list is rebuilt from the tree, where zone a holds
	// a2 and zone b holds b2, a1, b1.
	if err := s.AddNode(z("c1", "c")); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a2", "b2", "c1", "a1", "b1"})
	if ni, _ := s.Get("b2"); ni.Requested.MilliCPU != 1000 {
		t.Errorf("b2 lost its pod: %v", ni)
	}

	// Zone a empties and comes back last.
	if err := s.RemoveNode("a2"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNode(z("a2", "a")); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"a2", "b2", "c1", "a1", "b1"})
	if err := s.RemoveNode("c1"); err != nil {
		t.Fatal(err)
	}
	checkOrder(t, s, []string{"b2", "a2", "a1", "b1"})
}

// refTree is a plain model of upstream's nodeTree for the property below.
type refTree struct {
	zones  []string
	byZone map[string][]string
}

func (r *refTree) add(zone, name string) {
	if _, ok := r.byZone[zone]; !ok {
		r.zones = append(r.zones, zone)
	}
	r.byZone[zone] = append(r.byZone[zone], name)
}

func (r *refTree) remove(zone, name string) {
	var kept []string
	for _, n := range r.byZone[zone] {
		if n != name {
			kept = append(kept, n)
		}
	}
	if len(kept) > 0 {
		r.byZone[zone] = kept
		return
	}
	delete(r.byZone, zone)
	var zones []string
	for _, z := range r.zones {
		if z != zone {
			zones = append(zones, z)
		}
	}
	r.zones = zones
}

func (r *refTree) list() []string {
	out := []string{}
	for i := 0; ; i++ {
		more := false
		for _, z := range r.zones {
			if i < len(r.byZone[z]) {
				out = append(out, r.byZone[z][i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// orderNode draws a node with a random mix of zone and region labels,
// beta and GA, present or not, empty or not.
func orderNode(t *rapid.T, name string) *api.Node {
	labels := map[string]string{}
	for _, l := range []struct {
		key    string
		values []string
	}{
		{labelZone, []string{"", "z1", "z2", "z3"}},
		{labelRegion, []string{"", "r1", "r2"}},
		{labelZoneBeta, []string{"", "z1", "z4"}},
		{labelRegionBeta, []string{"r1"}},
	} {
		if rapid.IntRange(0, 2).Draw(t, l.key+"?") == 0 {
			labels[l.key] = rapid.SampledFrom(l.values).Draw(t, l.key)
		}
	}
	return mkNode(name, rl("cpu", "4"), labels)
}

// TestPropOrderMatchesNodeTree: after any sequence of node additions,
// updates and removals, pod additions and views, each view lists the
// nodes as a model of upstream's cache does: the zone tree's round-robin
// list when the set of node names changed since the last view, the last
// view's order otherwise.
func TestPropOrderMatchesNodeTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := []string{"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7"}
		ref := &refTree{byZone: map[string][]string{}}
		present := map[string]*api.Node{}
		var initial []*api.Node
		for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID).Draw(t, "initial") {
			n := orderNode(t, name)
			initial = append(initial, n)
			present[name] = n
			ref.add(ZoneKey(n), name)
		}
		s, err := NewSnapshot(initial, nil)
		if err != nil {
			t.Fatal(err)
		}
		var lastList []string
		var lastSet map[string]bool // nil before the first view
		pods := 0
		t.Repeat(map[string]func(*rapid.T){
			"add": func(t *rapid.T) {
				name := rapid.SampledFrom(pool).Draw(t, "name")
				n := orderNode(t, name)
				err := s.AddNode(n)
				if _, dup := present[name]; dup != (err != nil) {
					t.Fatalf("AddNode(%s) = %v, present %v", name, err, dup)
				}
				if err == nil {
					present[name] = n
					ref.add(ZoneKey(n), name)
				}
			},
			"update": func(t *rapid.T) {
				name := rapid.SampledFrom(pool).Draw(t, "name")
				n := orderNode(t, name)
				err := s.UpdateNode(n)
				old, ok := present[name]
				if ok != (err == nil) {
					t.Fatalf("UpdateNode(%s) = %v, present %v", name, err, ok)
				}
				if ok {
					if oz, nz := ZoneKey(old), ZoneKey(n); oz != nz {
						ref.remove(oz, name)
						ref.add(nz, name)
					}
					present[name] = n
				}
			},
			"remove": func(t *rapid.T) {
				name := rapid.SampledFrom(pool).Draw(t, "name")
				err := s.RemoveNode(name)
				old, ok := present[name]
				if ok != (err == nil) {
					t.Fatalf("RemoveNode(%s) = %v, present %v", name, err, ok)
				}
				if ok {
					ref.remove(ZoneKey(old), name)
					delete(present, name)
				}
			},
			"pod": func(t *rapid.T) {
				name := rapid.SampledFrom(pool).Draw(t, "node")
				pods++
				if err := s.AddPod(mkPod("ns", fmt.Sprintf("p%d", pods), "", name).container(rl("cpu", "10m")).obj()); err != nil {
					t.Fatal(err)
				}
			},
			"view": func(t *rapid.T) {
				set := map[string]bool{}
				for name := range present {
					set[name] = true
				}
				if lastSet == nil || !maps.Equal(set, lastSet) {
					lastList = ref.list()
				}
				lastSet = set
				if diff := cmp.Diff(lastList, nodeNames(s.View())); diff != "" {
					t.Fatalf("order differs from the model (-model +got):\n%s", diff)
				}
				checkInvariants(t, s)
			},
			"": func(t *rapid.T) {
				if diff := cmp.Diff(ref.byZone, s.tree.byZone, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("zone tree differs from the model (-model +got):\n%s", diff)
				}
				if !slices.Equal(ref.zones, s.tree.zones) {
					t.Fatalf("zones %q, model %q", s.tree.zones, ref.zones)
				}
			},
		})
	})
}
