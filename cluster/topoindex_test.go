package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// checkTopology fails unless topo numbers the domains of key over the
// view's nodes exactly: each node's id names its value (NoDomain without
// the label) and is found without a label lookup, each live id's size
// is its node count, and free ids have no value.
func checkTopology(t interface {
	Helper()
	Fatalf(string, ...any)
}, v *View, key string, topo *Topology) {
	t.Helper()
	if topo.Key() != key {
		t.Fatalf("Key() = %q, want %q", topo.Key(), key)
	}
	sizes := map[string]int{}
	for _, ni := range v.Nodes() {
		val, has := ni.Node().Labels[key]
		id := topo.ID(ni)
		s := int(ni.slot) - 1
		if s < 0 || s >= len(topo.nodes) || topo.nodes[s] != ni.node {
			t.Fatalf("%s: node %s not indexed by its slot %d", key, ni.Name(), s)
		}
		if !has {
			if id != NoDomain {
				t.Fatalf("%s: node %s has no label, id %d", key, ni.Name(), id)
			}
			continue
		}
		if id < 0 || int(id) >= topo.NumIDs() || topo.Value(id) != val {
			t.Fatalf("%s: node %s value %q, id %d", key, ni.Name(), val, id)
		}
		if got, ok := topo.Lookup(val); !ok || got != id {
			t.Fatalf("%s: Lookup(%q) = %d, %v; node id %d", key, val, got, ok, id)
		}
		// Any other NodeInfo of the same node gets the same id by its
		// label.
		if got := topo.ID(NewNodeInfo(ni.Node())); got != id {
			t.Fatalf("%s: fresh NodeInfo of %s: id %d, want %d", key, ni.Name(), got, id)
		}
		sizes[val]++
	}
	if topo.NumDomains() != len(sizes) {
		t.Fatalf("%s: NumDomains() = %d, want %d", key, topo.NumDomains(), len(sizes))
	}
	for id := range int32(topo.NumIDs()) {
		val := topo.Value(id)
		if n, ok := sizes[val]; ok && val != "" || ok && topo.Size(id) > 0 {
			if topo.Size(id) != n {
				t.Fatalf("%s: Size(%d) (%q) = %d, want %d", key, id, val, topo.Size(id), n)
			}
			continue
		}
		if topo.Size(id) != 0 || val != "" {
			t.Fatalf("%s: free id %d has value %q, size %d", key, id, val, topo.Size(id))
		}
	}
	if topo.NumIDs() > len(v.Nodes())+len(topo.dom.free) || len(topo.dom.free) > topo.NumIDs() {
		t.Fatalf("%s: %d ids, %d free, for %d nodes", key, topo.NumIDs(), len(topo.dom.free), len(v.Nodes()))
	}
	other := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "elsewhere", Labels: map[string]string{key: "no-such-value"}}})
	if got := topo.ID(other); got != UnindexedDomain {
		t.Fatalf("%s: unknown value: id %d, want UnindexedDomain", key, got)
	}
	if got := topo.ID(&NodeInfo{}); got != NoDomain {
		t.Fatalf("%s: NodeInfo without node: id %d, want NoDomain", key, got)
	}
}

// TestTopologyTable follows a key's numbered domains through the
// snapshot's node changes; ids of emptied domains are reused.
func TestTopologyTable(t *testing.T) {
	const zone = "topology.kubernetes.io/zone"
	s, err := NewSnapshot([]*api.Node{
		mkNode("n0", nil, map[string]string{zone: "a"}),
		mkNode("n1", nil, map[string]string{zone: "b"}),
		mkNode("n2", nil, map[string]string{zone: "a"}),
		mkNode("n3", nil, nil),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v0 := s.View()
	t0 := v0.Topology(zone)
	checkTopology(t, v0, zone, t0)
	if t0.NumDomains() != 2 || t0.NumIDs() != 2 {
		t.Fatalf("domains %d ids %d, want 2 2", t0.NumDomains(), t0.NumIDs())
	}
	idA, _ := t0.Lookup("a")
	steps := []struct {
		name    string
		do      func() error
		domains int
	}{
		{"add a node in a new zone", func() error { return s.AddNode(mkNode("n4", nil, map[string]string{zone: "c"})) }, 3},
		{"move the only node of b to c", func() error { return s.UpdateNode(mkNode("n1", nil, map[string]string{zone: "c"})) }, 2},
		{"update a node, same labels", func() error { return s.UpdateNode(mkNode("n0", rl("cpu", "2"), map[string]string{zone: "a"})) }, 2},
		{"label a node that had none", func() error { return s.UpdateNode(mkNode("n3", nil, map[string]string{zone: "d"})) }, 3},
		{"remove a node", func() error { return s.RemoveNode("n2") }, 3},
		{"pods do not matter", func() error { return s.AssumePod(mkPod("", "p", "u", "").obj(), "n0") }, 3},
		{"remove the node of d", func() error { return s.RemoveNode("n3") }, 2},
		{"add it back unlabelled", func() error { return s.AddNode(mkNode("n3", nil, nil)) }, 2},
		{"add a node in a new zone", func() error { return s.AddNode(mkNode("n5", nil, map[string]string{zone: "e"})) }, 3},
	}
	var last *Topology
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		v := s.View()
		topo := v.Topology(zone)
		checkTopology(t, v, zone, topo)
		if topo.NumDomains() != st.domains {
			t.Errorf("%s: %d domains, want %d", st.name, topo.NumDomains(), st.domains)
		}
		if topo.NumIDs() > 4 {
			t.Errorf("%s: %d ids for %d domains: freed ids not reused", st.name, topo.NumIDs(), topo.NumDomains())
		}
		if id, _ := topo.Lookup("a"); id != idA {
			t.Errorf("%s: zone a renumbered %d → %d", st.name, idA, id)
		}
		if st.name == "pods do not matter" && topo != last {
			t.Errorf("a pod change copied the Topology")
		}
		last = topo
	}
	// The first view's Topology did not change.
	checkTopology(t, v0, zone, t0)
	// It keeps the key asked for and the hostname, which NewSnapshot
	// numbers ahead with the zone.
	if _, ok := s.topoIDs[zone]; !ok || len(s.topoIDs) != 2 {
		t.Errorf("snapshot keeps %d keys, want 2", len(s.topoIDs))
	}
}

// TestPropTopologyMatchesRecompute: after any sequence of snapshot
// mutations, every view's Topology of every key asked for equals a
// numbering recomputed from that view's node labels, and views taken
// earlier keep theirs.
func TestPropTopologyMatchesRecompute(t *testing.T) {
	keys := []string{clustergen.LabelZone, clustergen.LabelRack, clustergen.LabelHostname}
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(0, 5).Draw(t, "nodes"), rapid.IntRange(0, 8).Draw(t, "pods")).Draw(t, "cluster")
		s, err := NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "node-6"}
		present := map[string]bool{}
		for _, n := range c.Nodes {
			present[n.Name] = true
		}
		type seen struct {
			v    *View
			key  string
			topo *Topology
		}
		var views []seen
		pods := 0
		t.Repeat(map[string]func(*rapid.T){
			"addNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "node")
				n.Name = rapid.SampledFrom(names).Draw(t, "name")
				n.Labels[clustergen.LabelHostname] = n.Name
				if err := s.AddNode(n); (err == nil) == present[n.Name] {
					t.Fatalf("AddNode(%s): %v", n.Name, err)
				}
				present[n.Name] = true
			},
			"updateNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "node")
				n.Name = rapid.SampledFrom(names).Draw(t, "name")
				if rapid.Bool().Draw(t, "dropZone") {
					delete(n.Labels, clustergen.LabelZone)
				}
				if err := s.UpdateNode(n); (err == nil) != present[n.Name] {
					t.Fatalf("UpdateNode(%s): %v", n.Name, err)
				}
			},
			"removeNode": func(t *rapid.T) {
				name := rapid.SampledFrom(names).Draw(t, "name")
				if err := s.RemoveNode(name); (err == nil) != present[name] {
					t.Fatalf("RemoveNode(%s): %v", name, err)
				}
				delete(present, name)
			},
			"assumePod": func(t *rapid.T) {
				p := clustergen.Pod().Draw(t, "pod")
				p.Name, p.UID = fmt.Sprintf("p-%d", pods), fmt.Sprintf("u-%d", pods)
				pods++
				if err := s.AssumePod(p, rapid.SampledFrom(names).Draw(t, "node")); err != nil {
					t.Fatal(err)
				}
			},
			"view": func(t *rapid.T) {
				v := s.View()
				for _, key := range keys {
					if rapid.Bool().Draw(t, "topology "+key) {
						views = append(views, seen{v, key, v.Topology(key)})
					}
				}
			},
			"": func(t *rapid.T) {
				v := s.View()
				for key := range s.topoIDs {
					checkTopology(t, v, key, v.Topology(key))
				}
				for _, e := range views {
					checkTopology(t, e.v, e.key, e.topo)
				}
			},
		})
	})
}

// NewTopology numbers every value the given nodes carry, in their order,
// with sizes their node counts, and finds any NodeInfo's domain by its
// label; nil NodeInfos and NodeInfos without a node are skipped.
func TestNewTopology(t *testing.T) {
	node := func(name string, labels map[string]string) *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	}
	a := NewNodeInfo(node("a", map[string]string{"zone": "z2"}))
	b := NewNodeInfo(node("b", map[string]string{"zone": "z1"}))
	c := NewNodeInfo(node("c", map[string]string{"zone": "z2"}))
	d := NewNodeInfo(node("d", nil))
	e := NewNodeInfo(node("e", map[string]string{"zone": ""}))
	topo := NewTopology("zone", []*NodeInfo{nil, NewNodeInfo(nil), a, b, c, d, e})
	if topo.Key() != "zone" || topo.NumIDs() != 3 || topo.NumDomains() != 3 {
		t.Fatalf("key %q, %d ids, %d domains", topo.Key(), topo.NumIDs(), topo.NumDomains())
	}
	for id, want := range []struct {
		value string
		size  int
	}{{"z2", 2}, {"z1", 1}, {"", 1}} {
		if topo.Value(int32(id)) != want.value || topo.Size(int32(id)) != want.size {
			t.Errorf("id %d: %q size %d, want %q size %d", id, topo.Value(int32(id)), topo.Size(int32(id)), want.value, want.size)
		}
	}
	for ni, want := range map[*NodeInfo]int32{a: 0, b: 1, c: 0, d: NoDomain, e: 2, NewNodeInfo(nil): NoDomain,
		NewNodeInfo(node("f", map[string]string{"zone": "z9"})): UnindexedDomain} {
		if got := topo.ID(ni); got != want {
			t.Errorf("ID(%s) = %d, want %d", ni.Name(), got, want)
		}
	}
	if id, ok := topo.Lookup("z1"); !ok || id != 1 {
		t.Errorf("Lookup(z1) = %d, %v", id, ok)
	}
}
