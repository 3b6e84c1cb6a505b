package podtopologyspread

import (
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
// The domains are numbered by the view's cluster.Topology of each
// constraint's key (the numbering InterPodAffinity reads too): the
// counts are slices indexed by its domain ids, and the filter finds a
// node's domain by its slot. Ids are those of one view, so the cache
// records, with each node's contribution, the id it was added under, and
// when a later cycle's Topology of a key is another one (nodes came,
// went or changed) it checks every kept node's id against the new
// Topology and moves the contributions of those whose id changed, without
// recounting their pods. When PreFilter is given nodes the view does not
// number (no snapshot, or NodeInfos of no view), the cycle numbers them
// with cluster.NewTopology instead.

// spreadDomains are the counts of one constraint by domain id of the
// cache's Topology of its key; refs and counts are copied before a change
// while shared.
type spreadDomains struct {
	// refs[d] is how many counted nodes are in domain d: the domain is
	// eligible (upstream's map has an entry for it) when it is not 0.
	refs []int32
	// counts[d] is the matching pods of the counted nodes of domain d.
	counts []int
	// live is how many domains have refs > 0.
	live int
}

// grow makes the slices at least n long.
func (d *spreadDomains) grow(n int) {
	for len(d.refs) < n {
		d.refs, d.counts = append(d.refs, 0), append(d.counts, 0)
	}
}

// add adds a counted node's n matching pods to domain id.
func (d *spreadDomains) add(id int32, n int) {
	if d.refs[id] == 0 {
		d.live++
	}
	d.refs[id]++
	d.counts[id] += n
}

// sub removes what add added.
func (d *spreadDomains) sub(id int32, n int) {
	d.refs[id]--
	d.counts[id] -= n
	if d.refs[id] == 0 {
		d.live--
	}
}

// filterCounts are the DoNotSchedule counts of one constraint set, and
// what each node of the entry's nodeTrack contributes to them.
type filterCounts struct {
	// cs are the constraints of the cycle that last synced the counts;
	// topos[i] is the Topology of cs[i]'s key the ids are of.
	cs    []affinity.SpreadConstraint
	topos []*cluster.Topology
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
	// shared is set once a state holds the domains' refs and counts, so
	// that the next change copies them first.
	shared bool
	// unindexed is set by a sync that met a node whose domain topos do
	// not number: the entry is then dropped.
	unindexed bool
	// in is set during a sync.
	in inputs
	// track is the entry's: renumber and buildPaths read its nodes.
	track *nodeTrack
}

func newFilterCounts(cs []affinity.SpreadConstraint, track *nodeTrack, n int) *filterCounts {
	c := &filterCounts{}
	c.init(cs, track, n)
	return c
}

// init makes c the empty counts of cs over track's n nodes.
func (c *filterCounts) init(cs []affinity.SpreadConstraint, track *nodeTrack, n int) {
	k := len(cs)
	*c = filterCounts{cs: cs, track: track, dom: make([]int32, 0, n*k), cnt: make([]int32, 0, n*k),
		domains: make([]spreadDomains, k), paths: make([]criticalPaths, k), dirty: true}
}

// unshare gives the cache slices of its own before it changes them.
func (c *filterCounts) unshare() {
	c.dirty = true
	if !c.shared {
		return
	}
	// States hold these; dom and cnt are the cache's alone.
	for i := range c.domains {
		d := &c.domains[i]
		d.refs, d.counts = slices.Clone(d.refs), slices.Clone(d.counts)
	}
	c.shared = false
}

// drop removes the contribution at position j.
func (c *filterCounts) drop(j int) {
	k := len(c.domains)
	for i := range c.domains {
		if n := c.cnt[j*k+i]; n >= 0 {
			c.domains[i].sub(c.dom[j*k+i], int(n))
		}
	}
}

// domainID is node's domain id in t (NoDomain without a node), noting a
// domain t does not number.
func (c *filterCounts) domainID(t *cluster.Topology, ni *cluster.NodeInfo) int32 {
	if ni.Node() == nil {
		return cluster.NoDomain
	}
	id := t.ID(ni)
	if id == cluster.UnindexedDomain {
		c.unindexed = true
		return cluster.NoDomain
	}
	return id
}

// compute sets the contribution at position j from ni, for the incoming
// pod and its compiled required node affinity.
func (c *filterCounts) compute(j int, ni *cluster.NodeInfo) {
	cs, pod, req := c.cs, c.in.pod, &c.in.req
	k := len(cs)
	node := ni.Node()
	// The node counts if it has every key (hasSpreadKeys), read from
	// the domain ids: a NodeInfo of the view has NoDomain exactly
	// where its node lacks the key, and no label is looked up.
	counted := node != nil
	for i := range cs {
		id := cluster.NoDomain
		if node != nil {
			id = c.topos[i].ID(ni)
		}
		counted = counted && id != cluster.NoDomain
		c.dom[j*k+i] = id
	}
	for i := range cs {
		id := c.dom[j*k+i]
		if id == cluster.UnindexedDomain {
			c.unindexed = true
			id = cluster.NoDomain
		}
		c.dom[j*k+i], c.cnt[j*k+i] = id, -1
		if id < 0 || !counted || !spreadNodeIncluded(&cs[i], pod, node, req) {
			continue
		}
		n := c.in.count(ni, cs[i].Selector, pod.Namespace)
		c.cnt[j*k+i] = int32(n)
		c.domains[i].add(id, n)
	}
}

// renumber moves the contribution at position j, whose NodeInfo ni is
// unchanged, to its domains' ids in c.topos.
func (c *filterCounts) renumber(j int, ni *cluster.NodeInfo) {
	k := len(c.domains)
	for i := range c.domains {
		x := j*k + i
		id := c.domainID(c.topos[i], ni)
		if id == c.dom[x] {
			continue
		}
		c.unshare()
		if n := c.cnt[x]; n >= 0 {
			c.domains[i].sub(c.dom[x], int(n))
			if id >= 0 {
				c.domains[i].add(id, int(n))
			} else {
				c.cnt[x] = -1
			}
		}
		c.dom[x] = id
	}
}

// truncate keeps the contributions of the first n positions.
func (c *filterCounts) truncate(n int) {
	k := len(c.domains)
	c.dom, c.cnt = c.dom[:n*k], c.cnt[:n*k]
}

// extend adds a position that contributes nothing.
func (c *filterCounts) extend() {
	for range len(c.domains) {
		c.dom, c.cnt = append(c.dom, -1), append(c.cnt, -1)
	}
}

// sync brings the counts up to date with nodes, position by position,
// and with topos, the Topologies of the constraints' keys.
func (c *filterCounts) sync(nodes []*cluster.NodeInfo, topos []*cluster.Topology, in inputs) {
	renumber := !slices.Equal(c.topos, topos)
	if renumber {
		c.unshare()
		c.topos = topos
	}
	// Ids of the old Topologies stay valid until every contribution is
	// moved: the slices grow to cover both.
	for i := range c.domains {
		if n := topos[i].NumIDs(); len(c.domains[i].refs) < n {
			c.unshare()
			c.domains[i].grow(n)
		}
	}
	c.in = in
	c.track.sync(nodes, renumber, c)
	c.in = inputs{}
	if renumber {
		// Every id is now one of topos: ids past theirs count nothing.
		for i := range c.domains {
			d := &c.domains[i]
			n := topos[i].NumIDs()
			d.refs, d.counts = d.refs[:n], d.counts[:n]
		}
	}
	if c.dirty {
		c.buildPaths()
		c.dirty = false
	}
}

// buildPaths builds the critical paths from the counts, taking each
// constraint's eligible domains in the order of their first counted node,
// as a full count does.
func (c *filterCounts) buildPaths() {
	k := len(c.domains)
	for i := range c.domains {
		d := &c.domains[i]
		p := newCriticalPaths()
		c.seen = slices.Grow(c.seen[:0], len(d.refs))[:len(d.refs)]
		clear(c.seen)
		for j := range c.track.nodes {
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

// spreadTopologies returns the Topologies of the constraints' keys: the
// view's, or (without a view) ones numbering nodes. It returns have when
// that holds the view's already.
func spreadTopologies(cs []affinity.SpreadConstraint, view *cluster.View, nodes []*cluster.NodeInfo, have []*cluster.Topology) []*cluster.Topology {
	if view != nil && len(have) == len(cs) {
		same := true
		for i := range cs {
			if same = view.Topology(cs[i].TopologyKey) == have[i]; !same {
				break
			}
		}
		if same {
			return have
		}
	}
	topos := make([]*cluster.Topology, len(cs))
	for i := range cs {
		for h := range i {
			if cs[h].TopologyKey == cs[i].TopologyKey {
				topos[i] = topos[h]
				break
			}
		}
		if topos[i] != nil {
			continue
		}
		if view != nil {
			topos[i] = view.Topology(cs[i].TopologyKey)
		} else {
			topos[i] = cluster.NewTopology(cs[i].TopologyKey, nodes)
		}
	}
	return topos
}

// counts fills s's Topologies, counts and critical paths from the cache,
// creating or refreshing the entry for the signature of s's constraints.
// s's constraints, selfMatch, required and view are set.
func (c *spreadCache) counts(s *spreadFilterState, pod *api.Pod, nodes []*cluster.NodeInfo) {
	if !c.noIndex && indexCounts(s, pod, nodes) {
		return
	}
	key := newSpreadSignature(pod, s.constraints, false)
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.find(filterKind, false, &key)
	var topos []*cluster.Topology
	if e != nil && e.view != nil && e.view == s.view {
		topos = e.filter.topos
	} else {
		var have []*cluster.Topology
		if e != nil {
			have = e.filter.topos
		}
		topos = spreadTopologies(s.constraints, s.view, nodes, have)
	}
	for attempt := 0; ; attempt++ {
		if e == nil {
			fe := &filterEntry{cacheEntry: cacheEntry{key: newSpreadSignature(pod, s.constraints, true), kind: filterKind}}
			e = c.push(&fe.cacheEntry, len(nodes))
			e.filter = &fe.counts
			e.filter.init(s.constraints, &e.track, len(nodes))
		}
		f := e.filter
		// The contributions are computed with this cycle's pod and
		// constraints (equal to the cached ones in what matters).
		f.cs = s.constraints
		in := inputs{pod: pod, req: s.required}
		if len(e.track.nodes) == 0 {
			// A first count reads only the pods the selectors may
			// match, found through the snapshot's pod index.
			in = firstInputs(in, s.view, s.constraints, c.noIndex)
		}
		f.sync(nodes, topos, in)
		if e.view = s.view; attempt > 0 {
			e.view = nil
		}
		if !f.unindexed || attempt > 0 {
			break
		}
		// Some node is of no view's numbering: number this cycle's
		// nodes themselves, in a new entry.
		c.store.DropFront()
		e = nil
		topos = spreadTopologies(s.constraints, nil, nodes, nil)
	}
	f := e.filter
	f.shared = true
	s.topos = f.topos
	k := len(f.domains)
	s.domains = make([]spreadStateDomains, k)
	for i := range f.domains {
		d := &f.domains[i]
		s.domains[i] = spreadStateDomains{refs: d.refs, counts: d.counts, n: d.live}
	}
	copy(s.paths, f.paths)
}

// maxIndexDomains is the most domains a constraint may have for its
// counts to be read from the pod index (indexCounts): the critical paths
// take the domains in the order of their first node, which is found by
// reading nodes until every domain is met.
const maxIndexDomains = 64

// indexCounts fills s's Topologies, counts and critical paths from the
// snapshot's pod index, reading no node's pods and keeping nothing in the
// cache, when that gives what a full count gives and costs less than a
// pass over the nodes: nodes are the view's, every node is counted (it
// carries every constraint's key, and no constraint leaves a node out by
// the pod's node affinity or by taints), each constraint's key has few
// domains, and the index can answer each selector with fewer candidates
// than nodes. The counts of a constraint are then, per domain, the
// matching pods of its nodes, and every domain with a node is eligible.
// It reports false, having changed nothing, otherwise.
func indexCounts(s *spreadFilterState, pod *api.Pod, nodes []*cluster.NodeInfo) bool {
	view, cs := s.view, s.constraints
	if view == nil || !everyNodeIncluded(cs, pod) || !view.SameNodes(nodes) {
		return false
	}
	topos := spreadTopologies(cs, view, nodes, nil)
	for i, t := range topos {
		if t.NumDomains() > maxIndexDomains || !view.KeyOnEveryNode(t) || cs[i].TopologyKey != t.Key() {
			return false
		}
	}
	domains := make([]spreadStateDomains, len(cs))
	for i := range cs {
		t := topos[i]
		d := &domains[i]
		d.refs, d.counts = make([]int32, t.NumIDs()), make([]int, t.NumIDs())
		for id := range d.refs {
			if n := t.Size(int32(id)); n > 0 {
				d.refs[id] = int32(n)
				d.n++
			}
		}
		sel := cs[i].Selector
		if sel.Empty() {
			continue // counts no pod (cluster.CountSpreadPods)
		}
		q := cluster.PodQuery{Namespace: pod.Namespace, Selector: sel}
		match := func(p *cluster.PodInfo) bool {
			return p.Pod.DeletionTimestamp == nil && p.Pod.Namespace == pod.Namespace && sel.Matches(p.Pod.Labels)
		}
		if !view.CountByDomain(t, &q, match, d.counts, len(nodes)) {
			return false
		}
	}
	// Each constraint's domains in the order of their first node, as
	// filterCounts.buildPaths takes them.
	paths := make([]criticalPaths, len(cs))
	for i := range cs {
		d, t := &domains[i], topos[i]
		p := newCriticalPaths()
		seen := make([]bool, len(d.refs))
		left := d.n
		for _, ni := range nodes {
			if left == 0 {
				break
			}
			if id := t.ID(ni); id >= 0 && !seen[id] {
				seen[id] = true
				left--
				p.update(id, d.counts[id])
			}
		}
		paths[i] = p
	}
	s.topos, s.domains = topos, domains
	copy(s.paths, paths)
	return true
}

// everyNodeIncluded reports whether no constraint leaves a node out of
// its counts by the pod's node affinity or by taints
// (spreadNodeIncluded is true of every node): none honors taints, and
// those that honor node affinity see a pod without a nodeSelector or
// required node affinity.
func everyNodeIncluded(cs []affinity.SpreadConstraint, pod *api.Pod) bool {
	noAffinity := len(pod.Spec.NodeSelector) == 0 && (pod.Spec.Affinity == nil || pod.Spec.Affinity.NodeAffinity == nil ||
		pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil)
	for i := range cs {
		if cs[i].NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
			return false
		}
		if cs[i].NodeAffinityPolicy == api.NodeInclusionPolicyHonor && !noAffinity {
			return false
		}
	}
	return true
}
