package interpodaffinity

import (
	"slices"

	"github.com/schedkit/schedkit/cluster"
)

// A plugin cache entry's first sync (a new incoming pod signature) counts
// every node of the view. Rather than adding each node's contribution to
// count maps keyed by label value and then indexing those maps by domain
// id (newDenseIndex), it counts straight into slices by the domain ids of
// the view's topologies (coldCounts), builds the dense index from them,
// and leaves the count maps empty until something needs them: AddPod or
// RemovePod on a cycle's state, Clone, or the entry's next change
// (materialize). The maps then hold exactly the non-zero counts a count
// into maps gives (the first sync only adds, so every count is positive).

// coldKey is the counts of one topology key by domain id of topo.
type coldKey struct {
	topo *cluster.Topology
	n    []int64
}

// coldCounts are the counts of a first sync by domain id, one coldKey
// per key of each kind of counts, in the order of the state's keys.
type coldCounts struct {
	view                     *cluster.View
	existing, affinity, anti []coldKey
}

// key returns the counts of key, index i of a kind's keys.
func (cc *coldCounts) key(kind *[]coldKey, i int, key string) *coldKey {
	if i < len(*kind) && (*kind)[i].topo != nil {
		return &(*kind)[i]
	}
	for len(*kind) <= i {
		*kind = append(*kind, coldKey{})
	}
	k := &(*kind)[i]
	if k.topo == nil {
		k.topo = cc.view.Topology(key)
		k.n = make([]int64, k.topo.NumIDs())
	}
	return k
}

// add adds c, the contribution of ni (a NodeInfo of cc's view), to the
// counts of t and cc: pairs in t, counts in cc. It reports false, and
// changes nothing, when a domain of ni is no domain of the view's
// topologies (t's maps must then take the counts).
func (cc *coldCounts) add(t *interPodAffinityState, c *nodeContribution, ni *cluster.NodeInfo) bool {
	// First the ids, so that nothing is half-added.
	var ids, at [8]int32
	need := c.numExisting() + len(t.anti)
	if c.m != 0 {
		need += len(t.affinity)
	}
	if need > len(ids) {
		return false
	}
	j := 0
	for i := range c.numExisting() {
		kc := c.existingAt(i)
		ki := slices.Index(t.m.existing.keys, kc.key)
		if ki < 0 {
			t.m.existing.of(kc.key)
			ki = len(t.m.existing.keys) - 1
		}
		id := cc.key(&cc.existing, ki, kc.key).topo.ID(ni)
		if id < 0 {
			return false
		}
		ids[j], at[j] = id, int32(ki)
		j++
	}
	if c.m != 0 {
		for i := range t.affinity {
			id := cc.key(&cc.affinity, t.affinityOf[i], t.affinity[i].TopologyKey).topo.ID(ni)
			if id == cluster.UnindexedDomain {
				return false
			}
			ids[j] = id
			j++
		}
	}
	for i := range t.anti {
		id := cluster.NoDomain
		if c.antiAt(i) != 0 {
			id = cc.key(&cc.anti, t.antiOf[i], t.anti[i].TopologyKey).topo.ID(ni)
		}
		if id == cluster.UnindexedDomain {
			return false
		}
		ids[j] = id
		j++
	}
	// The counts change: their indexes no longer describe them.
	t.idx, t.dense = nil, nil
	inc := func(k *coldKey, id int32, n int64, pairs *int) {
		if k.n[id] == 0 {
			*pairs++
		}
		k.n[id] += n
	}
	j = 0
	for i := range c.numExisting() {
		inc(&cc.existing[at[j]], ids[j], c.existingAt(i).n, &t.m.existing.pairs)
		j++
	}
	if c.m != 0 {
		for i := range t.affinity {
			if id := ids[j]; id >= 0 {
				inc(&cc.affinity[t.affinityOf[i]], id, int64(c.m), &t.m.affinity.pairs)
			}
			j++
		}
	}
	for i := range t.anti {
		if id := ids[j]; id >= 0 {
			inc(&cc.anti[t.antiOf[i]], id, c.antiAt(i), &t.m.anti.pairs)
		}
		j++
	}
	return true
}

// countsOf returns, as count maps, the counts of a kind whose keys are
// keys (pairs as counted).
func coldMaps(kind []coldKey, keys []string, pairs int) topologyCounts {
	out := topologyCounts{keys: slices.Clone(keys), values: make([]map[string]int64, len(keys)), pairs: pairs}
	for i := range keys {
		m := map[string]int64{}
		if i < len(kind) && kind[i].topo != nil {
			for id, n := range kind[i].n {
				if n != 0 {
					m[kind[i].topo.Value(int32(id))] = n
				}
			}
		}
		out.values[i] = m
	}
	return out
}

// coldDense is newDenseIndex over cold counts (whose topologies are the
// view's).
func (cc *coldCounts) denseIndex(s *interPodAffinityState) *denseIndex {
	d := &denseIndex{}
	of := func(key string) *denseKey {
		for i := range d.keys {
			if d.keys[i].topo.Key() == key {
				return &d.keys[i]
			}
		}
		t := cc.view.Topology(key)
		d.keys = append(d.keys, denseKey{topo: t, flags: make([]uint8, t.NumIDs())})
		return &d.keys[len(d.keys)-1]
	}
	mark := func(kind []coldKey, keys []string, bit uint8) {
		for i, key := range keys {
			k := of(key)
			if i >= len(kind) || kind[i].topo == nil {
				continue
			}
			for id, n := range kind[i].n {
				if n > 0 {
					k.flags[id] |= bit
				}
			}
		}
	}
	for i := range s.affinity {
		of(s.affinity[i].TopologyKey).aff = true
	}
	mark(cc.affinity, s.m.affinity.keys, denseAffinity)
	mark(cc.anti, s.m.anti.keys, antiPositive)
	mark(cc.existing, s.m.existing.keys, existingPositive)
	return d
}
