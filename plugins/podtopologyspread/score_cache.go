package podtopologyspread

import (
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/priorities"
)

// The PodTopologySpread PreScore counts, for each soft constraint, the
// matching pods of every node of the snapshot its node inclusion policies
// admit, and for hostname constraints the matching pods of each scored
// node. As the filter half does (filter_cache.go),
// the plugin keeps, for the last constraint sets it saw, what every node
// of the snapshot contributes, recounting only the nodes whose NodeInfo
// changed (another pointer or generation) and adjusting the per-domain
// totals by the difference; each contribution is computed from the
// node's pods as the full count does. PreScore then computes the raw
// score of every node it is given, without walking any pod, and Score
// (ScoreNodes) reads it.
//
// The domains of a constraint other than kubernetes.io/hostname are
// numbered by the view's cluster.Topology of its key (the numbering the
// filter half and InterPodAffinity read), with one more id for the nodes
// lacking the key (upstream files them under the value "", so they share
// the id of the value "" when a node carries it): the totals are slices
// by id. As in the filter half, each node's contribution keeps the id it
// was added under, and when a later view's Topology is another one the
// kept nodes' contributions are moved to their new ids.

// Flags of a node's contribution for one constraint.
const (
	// spreadHasKey: the node has the constraint's topology key.
	spreadHasKey uint8 = 1 << iota
	// spreadCounted: the node's pods count towards its domain's total.
	spreadCounted
)

// spreadScoreDomains holds the totals of one constraint (not
// kubernetes.io/hostname) by domain id of the cache's Topology of its key
// (spreadScoreID); tot is copied before a change while shared.
type spreadScoreDomains struct {
	// tot[d] is the matching pods of the counted nodes of domain d.
	tot []int64
}

// spreadNoKeyID is the id of the nodes lacking t's key: that of the value
// "" if a node carries it, else t.NumIDs().
func spreadNoKeyID(t *cluster.Topology) int32 {
	if id, ok := t.Lookup(""); ok {
		return id
	}
	return int32(t.NumIDs())
}

// spreadScoreID is the domain id of ni (which has a node) in t, noKey
// being spreadNoKeyID(t): t's id, noKey for a node lacking the key or
// with the value "", cluster.UnindexedDomain for another value t does not
// number.
func spreadScoreID(t *cluster.Topology, noKey int32, ni *cluster.NodeInfo) int32 {
	switch id := t.ID(ni); id {
	case cluster.NoDomain:
		return noKey
	case cluster.UnindexedDomain:
		if ni.Node().Labels[t.Key()] == "" {
			return noKey
		}
		return id
	default:
		return id
	}
}

// scoreCounts are the ScheduleAnyway counts of one constraint set, and
// what each node of the view, in the entry's nodeTrack, contributes.
type scoreCounts struct {
	requireAll bool
	// cs are the constraints of the cycle that last synced the counts;
	// host[i] is whether cs[i] is over kubernetes.io/hostname.
	cs   []affinity.SpreadConstraint
	host []bool
	// topos[i] is the Topology of cs[i]'s key the ids are of and
	// noKey[i] its id of the nodes lacking the key (nil and -1 for
	// hostname constraints).
	topos []*cluster.Topology
	noKey []int32
	// For node j and constraint i of k, at j*k+i: dom is the node's
	// domain id (-1 for hostname constraints), cnt its matching pods
	// (counted for hostname constraints and for counted nodes, else 0),
	// flag its spreadHasKey and spreadCounted bits.
	dom  []int32
	cnt  []int32
	flag []uint8
	// all[j] is whether node j has every constraint's key.
	all     []bool
	domains []spreadScoreDomains
	// shared is set once a state holds the domains' totals.
	shared bool
	// pos is scratch: the positions of PreScore's nodes.
	pos []int32
	// in is set during a sync.
	in inputs
	// track is the entry's: positions reads its nodes.
	track *nodeTrack
	// cls is the score class of each position (score_class.go).
	cls classes
	// list lists the views' nodes for sync, and ranges are the
	// positions it listed anew (pairs lo, hi), which alone may have
	// changed since the track's last sync.
	list   cluster.NodeList
	ranges []int
}

// hostname reports whether constraint i is over kubernetes.io/hostname.
func (c *scoreCounts) hostname(i int) bool { return c.host[i] }

// setConstraints makes cs, equal to the cached ones in what matters, the
// constraints contributions are computed with.
func (c *scoreCounts) setConstraints(cs []affinity.SpreadConstraint) {
	c.cs = cs
	c.host = c.host[:0]
	for i := range cs {
		c.host = append(c.host, cs[i].TopologyKey == affinity.LabelHostname)
	}
}

func newScoreCounts(requireAll bool, cs []affinity.SpreadConstraint, track *nodeTrack, n int) *scoreCounts {
	c := &scoreCounts{}
	c.init(requireAll, cs, track, n)
	return c
}

// init makes c the empty counts of cs over track's n nodes.
func (c *scoreCounts) init(requireAll bool, cs []affinity.SpreadConstraint, track *nodeTrack, n int) {
	k := len(cs)
	*c = scoreCounts{requireAll: requireAll, track: track,
		dom: make([]int32, 0, n*k), cnt: make([]int32, 0, n*k), flag: make([]uint8, 0, n*k), all: make([]bool, 0, n),
		domains: make([]spreadScoreDomains, k), noKey: make([]int32, k)}
	c.setConstraints(cs)
}

// unshare gives the cache totals of its own before it changes them.
func (c *scoreCounts) unshare() {
	if !c.shared {
		return
	}
	for i := range c.domains {
		c.domains[i].tot = slices.Clone(c.domains[i].tot)
	}
	c.shared = false
}

// drop removes the contribution at position j from the totals.
func (c *scoreCounts) drop(j int) {
	c.dropClass(j)
	k := len(c.domains)
	for i := range c.domains {
		if c.flag[j*k+i]&spreadCounted != 0 {
			c.domains[i].tot[c.dom[j*k+i]] -= int64(c.cnt[j*k+i])
		}
	}
}

// compute sets the contribution at position j from ni (a node of the
// view, whose Topologies number its domains), for the incoming pod and
// its compiled required node affinity.
func (c *scoreCounts) compute(j int, ni *cluster.NodeInfo) {
	cs, pod, req := c.cs, c.in.pod, &c.in.req
	k := len(cs)
	node := ni.Node()
	// Whether the node has each key, from the domain ids where there
	// is a Topology (NoDomain exactly where a NodeInfo of the view
	// lacks the key), else from its labels.
	all := node != nil
	for i := range cs {
		x := j*k + i
		c.dom[x], c.cnt[x], c.flag[x] = -1, 0, 0
		if node == nil {
			continue
		}
		has := false
		if t := c.topos[i]; t != nil {
			has = t.ID(ni) != cluster.NoDomain
		} else if c.host[i] && c.in.host != nil {
			// NoDomain exactly where the node lacks the label, for a
			// NodeInfo of the view or any other.
			has = c.in.host.ID(ni) != cluster.NoDomain
		} else {
			_, has = node.Labels[cs[i].TopologyKey]
		}
		if has {
			c.flag[x] |= spreadHasKey
		}
		all = all && has
	}
	for i := range cs {
		x := j*k + i
		if node == nil {
			continue
		}
		if c.hostname(i) {
			c.cnt[x] = int32(c.in.count(ni, cs[i].Selector, pod.Namespace))
			continue
		}
		id := spreadScoreID(c.topos[i], c.noKey[i], ni)
		if id < 0 {
			// Not a node of the view: no domain (sync's nodes are).
			continue
		}
		c.dom[x] = id
		if (c.requireAll && !all) || !spreadNodeIncluded(&cs[i], pod, node, req) {
			continue
		}
		n := c.in.count(ni, cs[i].Selector, pod.Namespace)
		c.cnt[x] = int32(n)
		c.flag[x] |= spreadCounted
		c.domains[i].tot[id] += int64(n)
	}
	c.all[j] = all
	c.setClass(j)
}

// renumber moves the contribution at position j, whose NodeInfo ni is
// unchanged, to its domains' ids in c.topos. When a domain is new or
// gone (a node not of the view), it recomputes the contribution instead.
func (c *scoreCounts) renumber(j int, ni *cluster.NodeInfo) {
	if !c.move(j, ni) {
		c.drop(j)
		c.compute(j, ni)
	}
}

// move moves the contribution at position j, computed from ni, to its
// domains' ids in c.topos; false if a domain is new or gone, and then
// the contribution must be recomputed (what move moved is consistent).
func (c *scoreCounts) move(j int, ni *cluster.NodeInfo) bool {
	k := len(c.domains)
	if ni.Node() == nil {
		return true
	}
	for i := range c.domains {
		x := j*k + i
		if c.hostname(i) {
			continue
		}
		id := spreadScoreID(c.topos[i], c.noKey[i], ni)
		if id == c.dom[x] {
			continue
		}
		if id < 0 || c.dom[x] < 0 {
			return false
		}
		if c.flag[x]&spreadCounted != 0 {
			d := &c.domains[i]
			d.tot[c.dom[x]] -= int64(c.cnt[x])
			d.tot[id] += int64(c.cnt[x])
		}
		c.dom[x] = id
	}
	return true
}

// truncate keeps the contributions of the first n positions.
func (c *scoreCounts) truncate(n int) {
	k := len(c.domains)
	c.all = c.all[:n]
	c.dom, c.cnt, c.flag = c.dom[:n*k], c.cnt[:n*k], c.flag[:n*k]
}

// extend adds a position that contributes nothing.
func (c *scoreCounts) extend() {
	c.cls.set(len(c.all), -1)
	c.all = append(c.all, false)
	for range len(c.domains) {
		c.dom, c.cnt, c.flag = append(c.dom, -1), append(c.cnt, 0), append(c.flag, 0)
	}
}

// setTopologies makes topos (nil for hostname constraints) the
// Topologies of the constraints' keys; it reports whether any changed.
func (c *scoreCounts) setTopologies(topos []*cluster.Topology) bool {
	if slices.Equal(c.topos, topos) {
		return false
	}
	c.topos = topos
	for i, t := range topos {
		c.noKey[i] = -1
		if t != nil {
			c.noKey[i] = spreadNoKeyID(t)
		}
	}
	return true
}

// sync brings the counts up to date with nodes (the view's), position
// by position (only those of ranges, see nodeTrack.syncRanges), and with
// topos, the view's Topologies of the constraints' keys (nil for
// hostname constraints).
func (c *scoreCounts) sync(nodes []*cluster.NodeInfo, ranges []int, topos []*cluster.Topology, in inputs) {
	renumber := c.setTopologies(topos)
	// Ids of the old Topologies stay valid until every contribution is
	// moved: the totals grow to cover both (and the no-key id).
	for i, t := range topos {
		if t != nil && len(c.domains[i].tot) < t.NumIDs()+1 {
			c.unshare()
			d := &c.domains[i]
			d.tot = append(d.tot, make([]int64, t.NumIDs()+1-len(d.tot))...)
		}
	}
	if renumber {
		c.unshare()
	}
	c.in = in
	had := len(c.track.nodes) > 0
	c.track.syncRanges(nodes, renumber, ranges, c)
	c.in = inputs{}
	if renumber && had || len(c.cls.keys) > 2*len(nodes)+classLinear {
		// Domain ids moved, or most classes are no node's any more.
		c.reclass()
	}
	if renumber {
		// Every id is now one of topos: ids past theirs count nothing.
		for i, t := range topos {
			if t != nil {
				c.domains[i].tot = c.domains[i].tot[:t.NumIDs()+1]
			}
		}
	}
}

// spreadScoreTopologies returns the view's Topologies of the
// constraints' keys (nil for hostname constraints), have when that holds
// them already.
func spreadScoreTopologies(cs []affinity.SpreadConstraint, view *cluster.View, have []*cluster.Topology) []*cluster.Topology {
	if len(have) == len(cs) {
		same := true
		for i := range cs {
			if cs[i].TopologyKey == affinity.LabelHostname {
				same = have[i] == nil
			} else {
				same = have[i] == view.Topology(cs[i].TopologyKey)
			}
			if !same {
				break
			}
		}
		if same {
			return have
		}
	}
	topos := make([]*cluster.Topology, len(cs))
	for i := range cs {
		if cs[i].TopologyKey != affinity.LabelHostname {
			topos[i] = view.Topology(cs[i].TopologyKey)
		}
	}
	return topos
}

// positions sets c.pos[q] to the position in the cache of nodes[q], -1
// for a node the view does not hold there. PreScore's nodes are usually
// the view's in order, possibly rotated, with some left out, so it walks
// the cache's nodes alongside them; once a node is not met within one
// round it looks the remaining nodes up by name.
func (c *scoreCounts) positions(nodes []*cluster.NodeInfo, view *cluster.View) {
	c.pos = slices.Grow(c.pos[:0], len(nodes))[:len(nodes)]
	nodes0 := c.track.nodes
	n, cur, walk := len(nodes0), 0, true
	for q, ni := range nodes {
		c.pos[q] = -1
		if walk {
			for range n {
				p := cur
				if cur++; cur == n {
					cur = 0
				}
				if nodes0[p] == ni {
					c.pos[q] = int32(p)
					break
				}
			}
			if c.pos[q] >= 0 {
				continue
			}
			walk = false
		}
		if p, ok := view.Index(ni.Name()); ok && p < n && nodes0[p] == ni {
			c.pos[q] = int32(p)
		}
	}
}

// scores fills s from the cache for the nodes PreScore was given: which
// are ignored, the weights, and the raw score of each. s's constraints
// and ns are set.
func (sc *spreadCache) scores(s *spreadScoreState, pod *api.Pod, view *cluster.View, nodes []*cluster.NodeInfo, requireAll bool) {
	cs := s.constraints
	k := len(cs)
	key := newSpreadSignature(pod, cs, false)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	e := sc.find(scoreKind, requireAll, &key)
	if e == nil && !sc.noIndex && !sc.seenIndexed(requireAll, &key) && indexScores(s, pod, view, nodes) {
		// The constraints' first cycle: from the index. The next one
		// counts them in an entry, which later cycles keep up to date.
		sc.indexed = append(sc.indexed[max(0, len(sc.indexed)-cacheSize+1):],
			indexedSignature{key: newSpreadSignature(pod, cs, true), requireAll: requireAll})
		return
	}
	if e == nil {
		n := view.NumNodes()
		se := &scoreEntry{cacheEntry: cacheEntry{key: newSpreadSignature(pod, cs, true), kind: scoreKind, requireAll: requireAll}}
		e = sc.push(&se.cacheEntry, n)
		e.score = &se.counts
		e.score.init(requireAll, cs, &e.track, n)
	}
	c := e.score
	// The view's nodes, listed anew only where they changed since the
	// counts' last cycle: the positions to sync.
	c.ranges = c.ranges[:0]
	all := c.list.UpdateChanged(view, func(lo, hi int) { c.ranges = append(c.ranges, lo, hi) })
	// The contributions are computed with this cycle's pod and
	// constraints (equal to the cached ones in what matters).
	c.setConstraints(cs)
	topos := c.topos
	if e.view != view {
		topos = spreadScoreTopologies(cs, view, c.topos)
		e.view = view
	}
	in := inputs{pod: pod, req: affinity.GetRequiredNodeAffinity(pod)}
	if len(e.track.nodes) == 0 {
		// A first count reads only the pods the selectors may match,
		// found through the snapshot's pod index.
		in = firstInputs(in, view, cs, sc.noIndex)
	}
	if slices.Contains(c.host, true) {
		in.host = view.Topology(affinity.LabelHostname)
	}
	c.sync(all, c.ranges, topos, in)
	c.shared = true
	s.topos, s.noKey = c.topos, c.noKey
	for i := range c.domains {
		s.tot[i] = c.domains[i].tot
		if !c.hostname(i) {
			s.registered[i] = make([]bool, len(s.tot[i]))
		}
	}

	// The domains of the scored nodes, and the nodes not scored: from
	// the classes of the positions, not per node, when PreScore was
	// given the view's nodes in order.
	s.base, s.view, s.numView = cap(nodes), view, len(all)
	inOrder := len(nodes) == len(all)
	for q := range nodes {
		if !inOrder {
			break
		}
		inOrder = nodes[q] == all[q]
	}
	cl := &c.cls
	sizes := make([]int, k)
	register := func(key *classKey) {
		for i := range cs {
			if c.hostname(i) {
				continue
			}
			if _, id := key.at(i); id >= 0 && !s.registered[i][id] {
				s.registered[i][id] = true
				sizes[i]++
			}
		}
	}
	ignore := func(name string) {
		if s.ignored == nil {
			s.ignored = map[string]struct{}{}
		}
		s.ignored[name] = struct{}{}
	}
	if inOrder {
		some := false
		for id := range cl.keys {
			if cl.nodes[id] == 0 {
				continue
			}
			if key := &cl.keys[id]; !key.ignored {
				register(key)
			} else {
				some = true
			}
		}
		if some {
			for p, ni := range all {
				if cl.keys[cl.at(p)].ignored {
					ignore(ni.Name())
				}
			}
		}
	} else {
		c.positions(nodes, view)
		if cl.stamp++; cl.stamp == 0 {
			clear(cl.seen)
			cl.stamp = 1
		}
		if len(cl.seen) < len(cl.keys) {
			cl.seen = append(cl.seen, make([]uint32, len(cl.keys)-len(cl.seen))...)
		}
		for q, ni := range nodes {
			if p := int(c.pos[q]); p >= 0 {
				id := cl.at(p)
				if key := &cl.keys[id]; key.ignored {
					ignore(ni.Name())
				} else if cl.seen[id] != cl.stamp {
					cl.seen[id] = cl.stamp
					register(key)
				}
				continue
			}
			if requireAll && !hasSpreadKeys(ni.Node(), cs) {
				ignore(ni.Name())
				continue
			}
			for i := range cs {
				if c.hostname(i) {
					continue
				}
				if id := spreadScoreID(s.topos[i], s.noKey[i], ni); id >= 0 {
					if !s.registered[i][id] {
						s.registered[i][id] = true
						sizes[i]++
					}
					continue
				}
				if s.extra == nil {
					s.extra = make([]map[string]struct{}, k)
				}
				if s.extra[i] == nil {
					s.extra[i] = map[string]struct{}{}
				}
				v := ni.Node().Labels[cs[i].TopologyKey]
				if _, ok := s.extra[i][v]; !ok {
					s.extra[i][v] = struct{}{}
					sizes[i]++
				}
			}
		}
	}
	for i := range cs {
		size := sizes[i]
		if c.hostname(i) {
			size = len(nodes) - len(s.ignored)
		}
		s.weights[i] = priorities.SpreadTopologyWeight(size)
	}

	// The raw scores: one per class, and per given node when PreScore
	// was not given the view's nodes in order.
	table := c.classScores(s.weights, s.tot)
	if inOrder {
		s.inViewOrder, s.cls, s.table = true, cl.share(), table
		return
	}
	s.scored = make([]spreadScored, len(nodes))
	for q, ni := range nodes {
		p := int(c.pos[q])
		s.scored[q].view = int32(p)
		if p < 0 {
			s.scored[q].score = s.score(ni)
			continue
		}
		s.scored[q].score = table[cl.at(p)]
	}
}

// indexedSignature is a constraint set whose first score cycle read the
// pod index (indexScores).
type indexedSignature struct {
	key        spreadSignature
	requireAll bool
}

// seenIndexed reports whether key's last first cycle read the pod index,
// forgetting it: this cycle then counts key in an entry. The caller holds
// mu.
func (sc *spreadCache) seenIndexed(requireAll bool, key *spreadSignature) bool {
	for i := range sc.indexed {
		if x := &sc.indexed[i]; x.requireAll == requireAll && x.key.Equal(key) {
			sc.indexed = slices.Delete(sc.indexed, i, i+1)
			return true
		}
	}
	return false
}

// indexScores fills s for the nodes PreScore was given from the
// snapshot's pod index, reading no node's pods and keeping nothing in
// the cache, when that gives what the counts of an entry give: the nodes
// are the view's, every node of the view carries every constraint's key
// (each its own kubernetes.io/hostname value), no constraint leaves a
// node out by the pod's node affinity or by taints, and the index answers
// each selector with fewer candidates than nodes. Every node is then
// counted and scored: a domain's total is its candidates' matches
// (cluster.View.CountByDomain), a hostname constraint's count on a node
// is its matches, and each given node's raw score is computed from them
// as Score computes it. It reports false, having changed nothing,
// otherwise.
func indexScores(s *spreadScoreState, pod *api.Pod, view *cluster.View, nodes []*cluster.NodeInfo) bool {
	cs := s.constraints
	k := len(cs)
	if !everyNodeIncluded(cs, pod) {
		return false
	}
	numView := view.NumNodes()
	keyTopos := make([]*cluster.Topology, k)
	host := make([]bool, k)
	for i := range cs {
		t := view.Topology(cs[i].TopologyKey)
		host[i] = cs[i].TopologyKey == affinity.LabelHostname
		if !view.KeyOnEveryNode(t) || host[i] && t.NumDomains() != numView {
			return false
		}
		keyTopos[i] = t
	}
	counts := make([][]int, k)
	for i := range cs {
		t := keyTopos[i]
		counts[i] = make([]int, t.NumIDs()+1)
		sel := cs[i].Selector
		if sel.Empty() {
			continue // counts no pod (cluster.CountSpreadPods)
		}
		q := cluster.PodQuery{Namespace: pod.Namespace, Selector: sel}
		match := func(p *cluster.PodInfo) bool {
			return p.Pod.DeletionTimestamp == nil && p.Pod.Namespace == pod.Namespace && sel.Matches(p.Pod.Labels)
		}
		if !view.CountByDomain(t, &q, match, counts[i], numView) {
			return false
		}
	}
	// Each given node's position in the view (they are the view's, as a
	// rule in rotation order with gaps), and its domain ids.
	pos := make([]int32, len(nodes))
	ids := make([]int32, len(nodes)*k)
	p := -1
	for q, ni := range nodes {
		at := -1
		for range min(64, numView) {
			if p++; p >= numView {
				p = 0
			}
			if view.NodeAt(p) == ni {
				at = p
				break
			}
		}
		if at < 0 {
			if x, ok := view.Index(ni.Name()); ok && x < numView && view.NodeAt(x) == ni {
				at = x
			} else {
				return false // not a NodeInfo of the view
			}
		}
		p, pos[q] = at, int32(at)
	}
	// A loop of its own: each node's first read (its slot) is then in
	// flight with the next nodes'.
	for q, ni := range nodes {
		for i, t := range keyTopos {
			ids[q*k+i] = t.ID(ni)
		}
	}
	topos, noKey := make([]*cluster.Topology, k), make([]int32, k)
	sizes := make([]int, k)
	for i := range cs {
		noKey[i] = -1
		if host[i] {
			sizes[i] = len(nodes)
			continue
		}
		t := keyTopos[i]
		topos[i], noKey[i] = t, spreadNoKeyID(t)
		tot := make([]int64, len(counts[i]))
		for id, n := range counts[i] {
			tot[id] = int64(n)
		}
		registered := make([]bool, len(tot))
		for q := range nodes {
			if id := ids[q*k+i]; !registered[id] {
				registered[id] = true
				sizes[i]++
			}
		}
		s.tot[i], s.registered[i] = tot, registered
	}
	for i := range cs {
		s.weights[i] = priorities.SpreadTopologyWeight(sizes[i])
	}
	s.topos, s.noKey = topos, noKey
	s.base, s.view, s.numView = cap(nodes), view, numView
	s.scored = make([]spreadScored, len(nodes))
	for q := range nodes {
		var score float64
		for i := range cs {
			var n int64
			if id := ids[q*k+i]; host[i] {
				n = int64(counts[i][id])
			} else {
				n = s.tot[i][id]
			}
			score += priorities.SpreadScoreForCount(n, cs[i].MaxSkew, s.weights[i])
		}
		s.scored[q] = spreadScored{score: roundScore(score), view: pos[q]}
	}
	return true
}
