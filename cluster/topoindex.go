package cluster

import (
	"maps"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// Domain ids a Topology gives a node besides the dense ids of its domains.
const (
	// NoDomain is the id of a node without the topology key's label.
	NoDomain int32 = -1
	// UnindexedDomain is the id of a node whose value of the key is the
	// value of no node of the Topology (a NodeInfo the snapshot does not
	// hold): the caller looks the value up itself.
	UnindexedDomain int32 = -2
)

// Topology numbers the domains of one topology label key in a view: each
// value of the key that a node of the view carries has a dense id in
// [0, NumIDs()), and each node of the view (by its slot, a number the
// snapshot gives the node when it is added, kept while the node stays)
// its domain's id, so that a plugin can keep per-domain counts in a
// slice indexed by id and find a node's domain without hashing its label
// value. Ids are those of one view: a later view may number the same
// value differently after nodes came and went. A Topology is immutable;
// its methods are safe for concurrent use.
//
// The snapshot builds a key's Topology on first use (View.Topology) and
// then keeps it up to date as nodes are added, updated and removed;
// pods do not affect it.
type Topology struct {
	key string
	// ids and nodes are, by slot, the id of the node's domain (NoDomain
	// without the label) and the node object it was read from (nil for
	// a free slot, whose id is NoDomain). They have the same length.
	ids   []int32
	nodes []*api.Node
	// dom is the domains by id; shared with other Topologies of the key
	// until one changes them.
	dom *topoDomains
	// epoch is the snapshot epoch in which the writer owns ids and
	// nodes.
	epoch uint64
}

// topoDomains is a key's domain values by id, how many nodes each has
// (0 for a free id) and the ids by value.
type topoDomains struct {
	values  []string
	sizes   []int32
	byValue map[string]int32
	free    []int32
	epoch   uint64
}

// Key returns the topology key.
func (t *Topology) Key() string { return t.key }

// NumIDs returns the number of domain ids: per-domain slices have this
// length. An id may be free (Size 0, Value "") after its domain emptied.
func (t *Topology) NumIDs() int { return len(t.dom.values) }

// NumDomains returns the number of domains (values carried by a node).
func (t *Topology) NumDomains() int { return len(t.dom.byValue) }

// Value returns the label value of domain id ("" for a free id).
func (t *Topology) Value(id int32) string { return t.dom.values[id] }

// Size returns the number of nodes in domain id (0 for a free id).
func (t *Topology) Size(id int32) int { return int(t.dom.sizes[id]) }

// Lookup returns the id of the domain with the label value.
func (t *Topology) Lookup(value string) (int32, bool) {
	id, ok := t.dom.byValue[value]
	return id, ok
}

// ID returns the id of ni's domain: NoDomain if its node lacks the label
// (or ni has no node), UnindexedDomain if its value is no domain of t.
// For a NodeInfo of the view that gave t it is two slice reads; for any
// other it looks the node's label up.
func (t *Topology) ID(ni *NodeInfo) int32 {
	// The fast path is small enough to inline: a loop over many nodes
	// then has their loads in flight together. A free slot holds no
	// node and NoDomain, what a NodeInfo without a node gets.
	if s := uint(ni.slot) - 1; s < uint(len(t.nodes)) && t.nodes[s] == ni.node {
		return t.ids[s]
	}
	return t.lookupID(ni)
}

// lookupID is ID for a NodeInfo another view gave: by its node's label.
func (t *Topology) lookupID(ni *NodeInfo) int32 {
	if ni.node == nil {
		return NoDomain
	}
	v, ok := ni.node.Labels[t.key]
	if !ok {
		return NoDomain
	}
	if id, ok := t.dom.byValue[v]; ok {
		return id
	}
	return UnindexedDomain
}

// buildTopology numbers the domains of key over nodes.
func buildTopology(nodes *nodeVec, key string) *Topology {
	n := nodes.len()
	domains := 0
	if key == affinity.LabelHostname {
		domains = n // a domain per node, as a rule: no rehashing as it grows
	}
	t := &Topology{key: key, ids: make([]int32, 0, n), nodes: make([]*api.Node, 0, n), dom: &topoDomains{byValue: make(map[string]int32, domains), values: make([]string, 0, domains), sizes: make([]int32, 0, domains)}}
	nodes.each(func(_ int, ni *NodeInfo) {
		if ni.slot > 0 {
			t.set(int(ni.slot)-1, ni.node)
		}
	})
	return t
}

// set makes node the node of slot s (nil to free the slot), moving it
// between domains. The caller owns t and t.dom.
func (t *Topology) set(s int, node *api.Node) {
	for len(t.ids) <= s {
		t.ids, t.nodes = append(t.ids, NoDomain), append(t.nodes, nil)
	}
	if node != nil && t.sameDomain(s, node) {
		t.nodes[s] = node
		return
	}
	if old := t.ids[s]; old >= 0 {
		d := t.dom
		d.sizes[old]--
		if d.sizes[old] == 0 {
			delete(d.byValue, d.values[old])
			d.values[old] = ""
			d.free = append(d.free, old)
		}
	}
	t.ids[s], t.nodes[s] = NoDomain, node
	if node == nil {
		return
	}
	v, ok := node.Labels[t.key]
	if !ok {
		return
	}
	d := t.dom
	id, ok := d.byValue[v]
	if !ok {
		if n := len(d.free); n > 0 {
			id, d.free = d.free[n-1], d.free[:n-1]
			d.values[id] = v
		} else {
			id = int32(len(d.values))
			d.values, d.sizes = append(d.values, v), append(d.sizes, 0)
		}
		d.byValue[v] = id
	}
	d.sizes[id]++
	t.ids[s] = id
}

// sameDomain reports whether node's value of the key is that of slot s,
// which holds a node.
func (t *Topology) sameDomain(s int, node *api.Node) bool {
	if s >= len(t.ids) || t.nodes[s] == nil {
		return false
	}
	v, ok := node.Labels[t.key]
	if id := t.ids[s]; id >= 0 {
		return ok && t.dom.values[id] == v
	}
	return !ok
}

// ownTopology returns the writer's own copy of the key's Topology, with
// its domains too unless keepDomains (the change moves no node between
// domains).
func (s *Snapshot) ownTopology(t *Topology, keepDomains bool) *Topology {
	if t.epoch != s.epoch {
		t = &Topology{key: t.key, ids: slices.Clone(t.ids), nodes: slices.Clone(t.nodes), dom: t.dom, epoch: s.epoch}
		s.topoIDs[t.key] = t
	}
	if !keepDomains && t.dom.epoch != s.epoch {
		d := t.dom
		t.dom = &topoDomains{values: slices.Clone(d.values), sizes: slices.Clone(d.sizes), byValue: maps.Clone(d.byValue),
			free: slices.Clone(d.free), epoch: s.epoch}
	}
	return t
}

// setTopologies records node as the node of slot (nil: slot freed) in
// every Topology the snapshot keeps.
func (s *Snapshot) setTopologies(slot int, node *api.Node) {
	for _, t := range s.topoIDs {
		keep := node != nil && t.sameDomain(slot, node)
		s.ownTopology(t, keep).set(slot, node)
	}
}

// newSlot returns a free slot for a node added to the snapshot.
func (s *Snapshot) newSlot() int32 {
	if n := len(s.freeSlots); n > 0 {
		slot := s.freeSlots[n-1]
		s.freeSlots = s.freeSlots[:n-1]
		return slot
	}
	s.slots++
	return s.slots - 1
}

// adoptTopology lets the snapshot keep a key's Topology, built by a view,
// up to date, if no node changed since the view was made.
func (s *Snapshot) adoptTopology(t *Topology, nodeSet int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodeSet != nodeSet {
		return
	}
	if _, ok := s.topoIDs[t.key]; ok {
		return
	}
	if s.topoIDs == nil {
		s.topoIDs = map[string]*Topology{}
	}
	s.topoIDs[t.key] = t
	if s.view != nil {
		s.view.mu.Lock()
		if _, ok := s.view.topoIDs[t.key]; !ok {
			if s.view.topoIDs == nil {
				s.view.topoIDs = map[string]*Topology{}
			}
			s.view.topoIDs[t.key] = t
		}
		s.view.mu.Unlock()
	}
}

// Topology returns the numbered domains of a label key (see Topology).
// The first call for a key costs one pass over the nodes; the snapshot
// then keeps the key's Topology up to date, so that later views get it
// for free.
func (v *View) Topology(key string) *Topology {
	v.mu.Lock()
	t, ok := v.topoIDs[key]
	v.mu.Unlock()
	if ok {
		return t
	}
	t = buildTopology(&v.nodes, key)
	v.mu.Lock()
	if prev, ok := v.topoIDs[key]; ok {
		t = prev
	} else {
		if v.topoIDs == nil {
			v.topoIDs = map[string]*Topology{}
		}
		v.topoIDs[key] = t
	}
	v.mu.Unlock()
	if v.snap != nil {
		v.snap.adoptTopology(t, v.nodeSet)
	}
	return t
}

// NewTopology numbers the domains of key over nodes, in their order, for
// nodes that are not (or not all) of one view: its ID looks each node's
// label up (it knows no slots), and every value a node of nodes carries
// is a domain. Nil NodeInfos and NodeInfos without a node are skipped.
func NewTopology(key string, nodes []*NodeInfo) *Topology {
	t := &Topology{key: key, dom: &topoDomains{byValue: map[string]int32{}}}
	d := t.dom
	for _, ni := range nodes {
		node := ni.Node()
		if node == nil {
			continue
		}
		v, ok := node.Labels[key]
		if !ok {
			continue
		}
		id, ok := d.byValue[v]
		if !ok {
			id = int32(len(d.values))
			d.values, d.sizes = append(d.values, v), append(d.sizes, 0)
			d.byValue[v] = id
		}
		d.sizes[id]++
	}
	return t
}
