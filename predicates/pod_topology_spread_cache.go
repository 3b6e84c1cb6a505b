package predicates

import (
	"maps"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// The PodTopologySpread PreFilter counts, for each hard constraint, the
// matching pods of every eligible domain over the whole cluster.
// Successive cycles mostly see the same constraints (the replicas of one
// workload) and clusters that differ in a node or two (the pod the last
// cycle placed), so the plugin keeps, for the last constraint sets it saw,
// what every node contributes to the counts and the counts themselves; a
// cycle recounts only the nodes whose NodeInfo changed (another pointer
// or generation: a view's NodeInfos are never changed in place) and
// adjusts the totals by the difference. Each node's contribution is
// computed from its pods exactly as a full count does, so the counts are
// those a full count gives.
//
// The cache also numbers the domains: every label value a node carries
// under a constraint's key gets a domain id (whether or not the node is
// counted), and the cache keeps each node's id per constraint, so that
// the filter finds a node's count by position instead of through the
// node's labels and a map.

// spreadCacheSize is how many constraint signatures the plugin keeps.
const spreadCacheSize = 4

// spreadDomains numbers the domains of one constraint. ids is replaced,
// never modified, once a state shares it; refs and counts are copied
// before a change while shared.
type spreadDomains struct {
	// ids maps a label value to its domain id.
	ids map[string]int32
	// values[d] is domain d's label value.
	values []string
	// refs[d] is how many counted nodes are in domain d: the domain is
	// eligible (upstream's map has an entry for it) when it is not 0.
	refs []int32
	// counts[d] is the matching pods of the counted nodes of domain d.
	counts []int
	// live is how many domains have refs > 0.
	live int
	// idsShared is whether a state holds ids.
	idsShared bool
}

// id returns value's domain id, numbering it if it is new.
func (d *spreadDomains) id(value string) int32 {
	if id, ok := d.ids[value]; ok {
		return id
	}
	if d.idsShared {
		d.ids, d.idsShared = maps.Clone(d.ids), false
	}
	id := int32(len(d.values))
	d.ids[value] = id
	d.values, d.refs, d.counts = append(d.values, value), append(d.refs, 0), append(d.counts, 0)
	return id
}

// spreadChunkBits sets the size of a spreadNodeChunks chunk: 256 nodes.
const spreadChunkBits = 8

// spreadNodeChunks are the cache's nodes as states see them, in chunks of
// 1<<spreadChunkBits: while states hold the chunks, a change copies only
// the chunk it falls in (and the table of chunks), so that a cycle after
// one node changed copies a few hundred pointers, not every node's.
type spreadNodeChunks struct {
	chunks [][]*cluster.NodeInfo
	// owned[c] is whether chunk c may be changed in place, tableOwned
	// whether chunks may.
	owned      []bool
	tableOwned bool
}

// set puts ni at position j.
func (v *spreadNodeChunks) set(j int, ni *cluster.NodeInfo) {
	c := j >> spreadChunkBits
	if c >= len(v.chunks) || !v.owned[c] {
		if !v.tableOwned {
			v.chunks, v.tableOwned = slices.Clone(v.chunks), true
		}
		for c >= len(v.chunks) {
			v.chunks, v.owned = append(v.chunks, make([]*cluster.NodeInfo, 1<<spreadChunkBits)), append(v.owned, true)
		}
		if !v.owned[c] {
			v.chunks[c], v.owned[c] = slices.Clone(v.chunks[c]), true
		}
	}
	v.chunks[c][j&(1<<spreadChunkBits-1)] = ni
}

// share returns the chunks for a state to hold; later changes copy them.
func (v *spreadNodeChunks) share() [][]*cluster.NodeInfo {
	v.tableOwned = false
	clear(v.owned)
	return v.chunks
}

// spreadCache is the counts for one constraint signature, and what each
// node contributes to them.
type spreadCache struct {
	key cluster.SpreadSignature
	// cs are the constraints of the cycle that last synced the cache.
	cs []affinity.SpreadConstraint
	// nodes[j] and gens[j] are the NodeInfo (and its generation) the
	// contribution at position j was computed from; shown holds the same
	// nodes for states.
	nodes []*cluster.NodeInfo
	gens  []int64
	shown spreadNodeChunks
	// dom[j*k+i] is node j's domain id for constraint i (k constraints),
	// -1 if the node lacks the key; cnt[j*k+i] is its matching pods, -1
	// when the node is not counted for constraint i.
	dom, cnt []int32
	domains  []spreadDomains
	// paths are the critical paths of the counts, as a full count
	// builds them (domains in the order of the first counted node in
	// each); valid unless dirty.
	paths []criticalPaths
	dirty bool
	// seen is scratch for building paths.
	seen []bool
	// shared is set once a state holds dom and the domains' refs and
	// counts, so that the next change copies them first.
	shared bool
}

func newSpreadCache(key cluster.SpreadSignature, cs []affinity.SpreadConstraint, n int) *spreadCache {
	k := len(cs)
	c := &spreadCache{key: key, cs: cs, nodes: make([]*cluster.NodeInfo, 0, n), gens: make([]int64, 0, n),
		dom: make([]int32, 0, n*k), cnt: make([]int32, 0, n*k), domains: make([]spreadDomains, k), paths: make([]criticalPaths, k), dirty: true}
	for i := range c.domains {
		c.domains[i].ids = map[string]int32{}
	}
	return c
}

// unshare gives the cache slices of its own before it changes them.
func (c *spreadCache) unshare() {
	c.dirty = true
	if !c.shared {
		return
	}
	// States hold these (and shown, copied chunk by chunk); nodes, cnt,
	// gens and the domains' values are the cache's alone (values is only
	// appended to).
	c.dom = slices.Clone(c.dom)
	for i := range c.domains {
		d := &c.domains[i]
		d.refs, d.counts = slices.Clone(d.refs), slices.Clone(d.counts)
	}
	c.shared = false
}

// drop removes the contribution at position j.
func (c *spreadCache) drop(j int) {
	k := len(c.domains)
	for i := range c.domains {
		n := c.cnt[j*k+i]
		if n < 0 {
			continue
		}
		d := &c.domains[i]
		id := c.dom[j*k+i]
		d.refs[id]--
		d.counts[id] -= int(n)
		if d.refs[id] == 0 {
			d.live--
		}
	}
}

// compute sets the contribution at position j from ni, for the incoming
// pod and its compiled required node affinity.
func (c *spreadCache) compute(j int, ni *cluster.NodeInfo, pod *api.Pod, req *affinity.RequiredNodeAffinity) {
	cs := c.cs
	k := len(cs)
	node := ni.Node()
	counted := node != nil && cluster.HasSpreadKeys(node, cs)
	for i := range cs {
		c.dom[j*k+i], c.cnt[j*k+i] = -1, -1
		if node == nil {
			continue
		}
		v, ok := node.Labels[cs[i].TopologyKey]
		if !ok {
			continue
		}
		d := &c.domains[i]
		id := d.id(v)
		c.dom[j*k+i] = id
		if !counted || !cluster.SpreadNodeIncluded(&cs[i], pod, node, req) {
			continue
		}
		n := cluster.CountSpreadPods(ni.Pods, cs[i].Selector, pod.Namespace)
		c.cnt[j*k+i] = int32(n)
		if d.refs[id] == 0 {
			d.live++
		}
		d.refs[id]++
		d.counts[id] += n
	}
	c.nodes[j], c.gens[j] = ni, generation(ni)
	c.shown.set(j, ni)
}

// sync brings the cache up to date with nodes, position by position.
func (c *spreadCache) sync(nodes []*cluster.NodeInfo, pod *api.Pod, req *affinity.RequiredNodeAffinity) {
	k := len(c.domains)
	if len(c.nodes) > len(nodes) {
		c.unshare()
		for j := len(nodes); j < len(c.nodes); j++ {
			c.drop(j)
			c.shown.set(j, nil)
		}
		clear(c.nodes[len(nodes):])
		c.nodes, c.gens, c.dom, c.cnt = c.nodes[:len(nodes)], c.gens[:len(nodes)], c.dom[:len(nodes)*k], c.cnt[:len(nodes)*k]
	}
	for j, ni := range nodes {
		if j < len(c.nodes) {
			if c.nodes[j] == ni && c.gens[j] == generation(ni) {
				continue
			}
			c.unshare()
			c.drop(j)
		} else {
			c.unshare()
			c.nodes, c.gens = append(c.nodes, nil), append(c.gens, 0)
			for range k {
				c.dom, c.cnt = append(c.dom, -1), append(c.cnt, -1)
			}
		}
		c.compute(j, ni, pod, req)
	}
	if c.dirty {
		c.buildPaths()
		c.dirty = false
	}
}

// buildPaths builds the critical paths from the counts, taking each
// constraint's eligible domains in the order of their first counted node,
// as a full count does.
func (c *spreadCache) buildPaths() {
	k := len(c.domains)
	for i := range c.domains {
		d := &c.domains[i]
		p := newCriticalPaths()
		c.seen = slices.Grow(c.seen[:0], len(d.values))[:len(d.values)]
		clear(c.seen)
		for j := range c.nodes {
			if c.cnt[j*k+i] < 0 {
				continue
			}
			if id := c.dom[j*k+i]; !c.seen[id] {
				c.seen[id] = true
				p.update(id, d.counts[id])
			}
		}
		c.paths[i] = p
	}
}

// tooSparse reports whether the cache numbers many more domains than are
// in use (nodes with unique labels came and went): it is then rebuilt
// rather than kept.
func (c *spreadCache) tooSparse() bool {
	for i := range c.domains {
		if d := &c.domains[i]; len(d.values) > 2*len(c.nodes)+64 {
			return true
		}
	}
	return false
}

// cachedCounts fills s's counts, per-node domain ids and critical paths
// from the plugin's cache, creating or refreshing the entry for the
// signature of s's constraints. s's constraints, selfMatch and required
// are set.
func (pl *PodTopologySpreadPlugin) cachedCounts(s *spreadFilterState, pod *api.Pod, nodes []*cluster.NodeInfo) {
	key := cluster.NewSpreadSignature(pod, s.constraints, false)
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var c *spreadCache
	for i, e := range pl.cache {
		if e.key.Equal(&key) {
			c = e
			copy(pl.cache[1:i+1], pl.cache[:i])
			pl.cache[0] = c
			break
		}
	}
	if c != nil && c.tooSparse() {
		pl.cache = slices.Delete(pl.cache, 0, 1)
		c = nil
	}
	if c == nil {
		c = newSpreadCache(cluster.NewSpreadSignature(pod, s.constraints, true), s.constraints, len(nodes))
		if len(pl.cache) < spreadCacheSize {
			pl.cache = append(pl.cache, nil)
		}
		copy(pl.cache[1:], pl.cache)
		pl.cache[0] = c
	}
	// The contributions are computed with this cycle's pod and
	// constraints (equal to the cached ones in what matters).
	c.cs = s.constraints
	c.sync(nodes, pod, &s.required)
	c.shared = true
	s.base, s.pos, s.npos, s.dom = cap(nodes), c.shown.share(), len(c.nodes), c.dom
	k := len(c.domains)
	s.domains = make([]spreadStateDomains, k)
	for i := range c.domains {
		d := &c.domains[i]
		d.idsShared = true
		s.domains[i] = spreadStateDomains{ids: d.ids, refs: d.refs, counts: d.counts, n: d.live}
	}
	copy(s.paths, c.paths)
}

// generation is ni's Generation, 0 for a nil NodeInfo (which holds no
// node and counts nothing).
func generation(ni *cluster.NodeInfo) int64 {
	if ni == nil {
		return 0
	}
	return ni.Generation
}
