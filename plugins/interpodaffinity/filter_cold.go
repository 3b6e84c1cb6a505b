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
	n    domainCounts
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
		k.n = newDomainCounts(k.topo.NumIDs())
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
		if k.n.add(id, n) == 0 {
			*pairs++
		}
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
			topo := kind[i].topo
			kind[i].n.each(func(id int32, n int64) { m[topo.Value(id)] = n })
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
			kind[i].n.each(func(id int32, n int64) {
				if n > 0 {
					k.flags[id] |= bit
				}
			})
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

// warm reports whether t's counts are cold, with a dense index, both
// over view's topologies: addWarm may change them.
func (t *interPodAffinityState) warm(view *cluster.View) bool {
	return t.cold != nil && t.dense != nil && t.cold.sameTopologies(view) && t.dense.sameTopologies(view)
}

// sameTopologies reports whether every key counted so far is counted
// over view's Topology of the key.
func (cc *coldCounts) sameTopologies(view *cluster.View) bool {
	for _, kind := range [][]coldKey{cc.existing, cc.affinity, cc.anti} {
		for i := range kind {
			if t := kind[i].topo; t != nil && view.Topology(t.Key()) != t {
				return false
			}
		}
	}
	return true
}

// clone returns a copy of cc to change: it shares cc's pages of counts
// (domainCounts), copying each it writes.
func (cc *coldCounts) clone() *coldCounts {
	out := &coldCounts{view: cc.view}
	for _, p := range []struct{ from, to *[]coldKey }{{&cc.existing, &out.existing}, {&cc.affinity, &out.affinity}, {&cc.anti, &out.anti}} {
		*p.to = make([]coldKey, len(*p.from))
		for i := range *p.from {
			k := &(*p.from)[i]
			(*p.to)[i] = coldKey{topo: k.topo, n: k.n.share()}
		}
	}
	return out
}

// addWarm adds c, the contribution of ni times sign, to cold counts whose
// Topologies and dense index are view's, and updates the dense index:
// ni is a NodeInfo of view (sign 1), or nil and c's node is read (sign
// -1, a node whose labels the Topologies number). It reports false,
// changing nothing, when a count of c has no key counted yet or a domain
// the Topologies do not number; the caller then makes the counts plain.
func (t *interPodAffinityState) addWarm(c *nodeContribution, ni *cluster.NodeInfo, sign int64, view *cluster.View) bool {
	cc := t.cold
	type change struct {
		kind  *[]coldKey
		at    int
		id    int32
		n     int64
		pairs *int
		bit   uint8
	}
	var buf [8]change
	ch := buf[:0]
	idOf := func(topo *cluster.Topology) int32 {
		if ni != nil {
			return topo.ID(ni)
		}
		v, ok := c.node.Labels[topo.Key()]
		if !ok {
			return cluster.NoDomain
		}
		if id, ok := topo.Lookup(v); ok {
			return id
		}
		return cluster.UnindexedDomain
	}
	// keyAt returns the counts of key at index at of a kind, made over
	// view's Topology when the kind has none yet.
	keyAt := func(kind []coldKey, at int, key string) *cluster.Topology {
		if at < len(kind) && kind[at].topo != nil {
			return kind[at].topo
		}
		return view.Topology(key)
	}
	for i := range c.numExisting() {
		kc := c.existingAt(i)
		ki := slices.Index(t.m.existing.keys, kc.key)
		if ki < 0 {
			return false
		}
		id := idOf(keyAt(cc.existing, ki, kc.key))
		if id < 0 {
			return false
		}
		ch = append(ch, change{&cc.existing, ki, id, kc.n, &t.m.existing.pairs, existingPositive})
	}
	if c.m != 0 {
		for i := range t.affinity {
			id := idOf(keyAt(cc.affinity, t.affinityOf[i], t.affinity[i].TopologyKey))
			if id == cluster.UnindexedDomain {
				return false
			}
			if id >= 0 {
				ch = append(ch, change{&cc.affinity, t.affinityOf[i], id, int64(c.m), &t.m.affinity.pairs, denseAffinity})
			}
		}
	}
	for i := range t.anti {
		n := c.antiAt(i)
		if n == 0 {
			continue
		}
		id := idOf(keyAt(cc.anti, t.antiOf[i], t.anti[i].TopologyKey))
		if id == cluster.UnindexedDomain {
			return false
		}
		if id >= 0 {
			ch = append(ch, change{&cc.anti, t.antiOf[i], id, n, &t.m.anti.pairs, antiPositive})
		}
	}
	if t.shared {
		cc = cc.clone()
		d := &denseIndex{keys: make([]denseKey, len(t.dense.keys))}
		for i, k := range t.dense.keys {
			d.keys[i] = denseKey{topo: k.topo, aff: k.aff, flags: slices.Clone(k.flags)}
		}
		t.cold, t.dense, t.shared = cc, d, false
		// The changes name the old counts' kinds: move them.
		for i := range ch {
			switch ch[i].bit {
			case existingPositive:
				ch[i].kind = &cc.existing
			case denseAffinity:
				ch[i].kind = &cc.affinity
			default:
				ch[i].kind = &cc.anti
			}
		}
	}
	t.idx = nil
	for _, x := range ch {
		kind := x.kind
		for len(*kind) <= x.at {
			*kind = append(*kind, coldKey{})
		}
		k := &(*kind)[x.at]
		if k.topo == nil {
			k.topo = view.Topology(keyName(t, x.bit, x.at))
			k.n = newDomainCounts(k.topo.NumIDs())
		}
		old := k.n.add(x.id, sign*x.n)
		now := old + sign*x.n
		if old == 0 && now != 0 {
			*x.pairs++
		} else if old != 0 && now == 0 {
			*x.pairs--
		}
		dk := t.dense.key(k.topo.Key())
		if now > 0 {
			dk.flags[x.id] |= x.bit
		} else {
			dk.flags[x.id] &^= x.bit
		}
	}
	return true
}

// keyName returns the key at index at of the kind of counts bit names.
func keyName(t *interPodAffinityState, bit uint8, at int) string {
	switch bit {
	case existingPositive:
		return t.m.existing.keys[at]
	case denseAffinity:
		return t.m.affinity.keys[at]
	}
	return t.m.anti.keys[at]
}
