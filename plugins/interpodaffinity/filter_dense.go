package interpodaffinity

import (
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// denseAffinity marks, in denseKey.flags, a domain where affinityCounts
// counts a pod (the other bits are antiIndex's).
const denseAffinity = existingPositive << 1

// denseKey is one topology key of the counts over the view's numbered
// domains (cluster.Topology): by domain id, which kinds of counts are
// positive there.
type denseKey struct {
	topo *cluster.Topology
	// aff: the key of an affinity term (a node without it fails).
	aff   bool
	flags []uint8
}

// denseIndex is what filterDense reads: per distinct key of the counts,
// its flags by domain id, so that a node's domain is found by its slot
// and no label value is hashed. It is built from counts that no longer
// change and read concurrently.
type denseIndex struct {
	keys []denseKey
}

// newDenseIndex indexes s's counts over view's topologies; nil when a
// counted value is no domain of the view (counts of other nodes), and
// filter then reads the counts themselves.
func newDenseIndex(s *interPodAffinityState, view *cluster.View) *denseIndex {
	d := &denseIndex{}
	of := func(key string) *denseKey {
		for i := range d.keys {
			if d.keys[i].topo.Key() == key {
				return &d.keys[i]
			}
		}
		t := view.Topology(key)
		d.keys = append(d.keys, denseKey{topo: t, flags: make([]uint8, t.NumIDs())})
		return &d.keys[len(d.keys)-1]
	}
	mark := func(c *topologyCounts, bit uint8) bool {
		for i, key := range c.keys {
			k := of(key)
			for v, n := range c.values[i] {
				if n <= 0 {
					continue
				}
				id, ok := k.topo.Lookup(v)
				if !ok {
					return false
				}
				k.flags[id] |= bit
			}
		}
		return true
	}
	for i := range s.affinity {
		of(s.affinity[i].TopologyKey).aff = true
	}
	m := s.maps()
	if !mark(&m.affinity, denseAffinity) || !mark(&m.anti, antiPositive) || !mark(&m.existing, existingPositive) {
		return nil
	}
	return d
}

// sameTopologies reports whether d was built over view's topologies.
func (d *denseIndex) sameTopologies(view *cluster.View) bool {
	for i := range d.keys {
		if view.Topology(d.keys[i].topo.Key()) != d.keys[i].topo {
			return false
		}
	}
	return true
}

// filterDense is filter for a NodeInfo with a node, reading s.dense.
func (s *interPodAffinityState) filterDense(ni *cluster.NodeInfo) *framework.Status {
	var seen uint8
	fits := true
	for i := range s.dense.keys {
		k := &s.dense.keys[i]
		id := k.topo.ID(ni)
		if id == cluster.NoDomain {
			if k.aff {
				return affinityRulesStatus
			}
			continue
		}
		var f uint8
		if id >= 0 {
			f = k.flags[id]
		}
		if k.aff && f&denseAffinity == 0 {
			fits = false
		}
		seen |= f
	}
	switch {
	case !fits && !(s.m.affinity.pairs == 0 && s.selfMatch):
		return affinityRulesStatus
	case seen&antiPositive != 0:
		return antiAffinityRulesStatus
	case seen&existingPositive != 0:
		return existingAntiAffinityStatus
	}
	return nil
}

// filterNode is filter for a NodeInfo, by the dense index when there is
// one.
func (s *interPodAffinityState) filterNode(ni *cluster.NodeInfo) *framework.Status {
	if node := ni.Node(); s.dense == nil || node == nil {
		return s.filter(node)
	}
	return s.filterDense(ni)
}

// key returns d's key of the topology key; d has every key of the
// counts it indexes.
func (d *denseIndex) key(key string) *denseKey {
	for i := range d.keys {
		if d.keys[i].topo.Key() == key {
			return &d.keys[i]
		}
	}
	panic("interpodaffinity: dense index without the key " + key)
}
