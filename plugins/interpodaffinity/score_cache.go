package interpodaffinity

import (
	"maps"
	"reflect"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/cluster"
)

// PreScore reads every node's pods. As the filter half does (see
// filter_cache.go), the plugin keeps for the last incoming pods it
// saw what each node adds to the sums, and the sums; a cycle recomputes
// only the nodes whose NodeInfo changed (another pointer or generation)
// and adjusts the sums by the difference, which gives exactly the sums a
// full pass gives.

// scoreKey is what PreScore's sums depend on besides the nodes.
type scoreKey struct {
	hasPreferred   bool
	namespace      string
	labels         map[string]string
	nsLabels       map[string]string
	pref, prefAnti []affinity.WeightedAffinityTerm
}

func (k *scoreKey) equal(o *scoreKey) bool {
	return k.hasPreferred == o.hasPreferred && k.namespace == o.namespace && maps.Equal(k.labels, o.labels) &&
		(k.nsLabels == nil) == (o.nsLabels == nil) && maps.Equal(k.nsLabels, o.nsLabels) &&
		reflect.DeepEqual(k.pref, o.pref) && reflect.DeepEqual(k.prefAnti, o.prefAnti)
}

// scoreTotals are the sums per topology domain and the number of terms
// matched.
type scoreTotals struct {
	scores  interPodAffinityScoreState
	matched int64
}

// A cache entry's first sync (a new incoming pod signature) adds every
// node's contribution straight into the dense sums (one []int64 per key,
// by domain id of the view's topologies) instead of into maps keyed by
// label value that newDenseScores then indexes; the maps stay empty
// (nil) until the entry's next change or a change of topologies needs
// them (materialize). Score and ScoreNodes read only the dense sums while
// there are, so they score the same; the maps made from them hold the
// non-zero sums, which score as the maps a sum into maps gives (a missing
// value scores 0, as one summed to 0).

// addCold adds ns, the contribution of ni (a NodeInfo of view), to the
// dense sums; false, adding nothing, when a domain of ni is no domain of
// the view's topologies (the sums must then go to maps).
func (t *scoreTotals) addCold(ns *nodeScore, ni *cluster.NodeInfo, view *cluster.View) bool {
	var ids, at [4]int32
	if ns.numWeights() > len(ids) {
		return false
	}
	for j := range ns.numWeights() {
		kw := ns.weightAt(j)
		i := 0
		for i < len(t.scores.scores) && t.scores.scores[i].key != kw.key {
			i++
		}
		at[j] = int32(i)
		if i == len(t.scores.scores) {
			t.scores.scores = append(t.scores.scores, topologyScore{key: kw.key})
			topo := view.Topology(kw.key)
			t.scores.dense = append(t.scores.dense, denseScore{topo: topo, w: make([]int64, topo.NumIDs())})
		}
		id := t.scores.dense[i].topo.ID(ni)
		if id < 0 {
			return false
		}
		ids[j] = id
	}
	t.matched += ns.matched
	for j := range ns.numWeights() {
		t.scores.dense[at[j]].w[ids[j]] += ns.weightAt(j).w
	}
	return true
}

// materialize gives the sums maps of their own, from the dense sums when
// the maps are empty (cold), else copies when shared.
func (c *scoreSums) materialize() {
	switch {
	case c.totals.scores.cold:
		ss := c.totals.scores
		s := make([]topologyScore, len(ss.scores))
		for i := range ss.scores {
			m := map[string]int64{}
			if i < len(ss.dense) {
				d := &ss.dense[i]
				for id, w := range d.w {
					if w != 0 {
						m[d.topo.Value(int32(id))] = w
					}
				}
			}
			s[i] = topologyScore{key: ss.scores[i].key, values: m}
		}
		c.totals.scores.scores = s
		c.totals.scores.cold, c.shared = false, false
	case c.shared:
		c.unshare()
	}
}

// apply adds ns, times sign, to the sums.
func (t *scoreTotals) apply(ns *nodeScore, sign int64) {
	t.matched += sign * ns.matched
	for j := range ns.numWeights() {
		kw := ns.weightAt(j)
		v := ns.node.Labels[kw.key]
		i := 0
		for i < len(t.scores.scores) && t.scores.scores[i].key != kw.key {
			i++
		}
		if i == len(t.scores.scores) {
			t.scores.scores = append(t.scores.scores, topologyScore{key: kw.key, values: map[string]int64{}})
		}
		t.scores.scores[i].values[v] += sign * kw.w
	}
}

// scoreSums is the sums for one incoming pod signature, and each node's
// contribution to them.
type scoreSums struct {
	key    scoreKey
	nodes  cluster.NodeMemo[nodeScore] // each node's contribution
	totals scoreTotals
	// shared is set once a cycle's state holds the sums, so that the
	// next change copies them first. The sums are in the shapes of a
	// score state (interPodAffinityScoreState): cold after beginCold,
	// plain and the entry's own after mutable.
	shared bool
}

// beginCold makes the sums zero and cold: the first sync adds into the
// dense sums (addCold).
func (c *scoreSums) beginCold() {
	c.totals = scoreTotals{}
	c.totals.scores.cold, c.shared = true, false
}

// mutable makes the sums plain and the entry's own, without dense sums,
// which no longer describe them once changed.
func (c *scoreSums) mutable() *scoreTotals {
	c.materialize()
	c.totals.scores.dense = nil
	return &c.totals
}

func (c *scoreSums) unshare() {
	if !c.shared {
		return
	}
	s := make([]topologyScore, len(c.totals.scores.scores))
	for i, ts := range c.totals.scores.scores {
		s[i] = topologyScore{key: ts.key, values: maps.Clone(ts.values)}
	}
	c.totals.scores.scores = s
	c.shared = false
}

// sync brings the sums up to date with nodes; the first sync sums into
// the dense sums over view's topologies (addCold).
func (c *scoreSums) sync(sc *scorer, list func() []*cluster.NodeInfo, view *cluster.View, noIndex bool) {
	t := &c.totals
	first := c.nodes.Len() == 0
	if first {
		// No node contributes (none before, or the last sync had no
		// nodes): the sums are zero, and the dense sums start empty.
		c.beginCold()
		// A first sync reads only the pods the preferred terms may
		// match, and those with terms of their own.
		if own, ok := sc.ownCounts(); ok && !noIndex {
			sc.ownIdx = own
			defer func() { sc.ownIdx = nil }()
		}
		cnt, ok := sc.preferredCounts()
		// Where the index counts both the existing pods' terms and the
		// incoming pod's preferred terms, the sums by domain are read
		// from it alone: no node is read (seed).
		if !noIndex && sc.ownIdx != nil && (ok || !sc.hasPreferred) && c.seed(sc, cnt, view) {
			return
		}
		switch {
		case noIndex:
		case ok:
			// Or only the pods with terms of their own, where the
			// index counts the matches of the preferred terms.
			sc.counts = cnt
			defer func() { sc.counts = nil }()
		default:
			if cand, ok := sc.preferredCandidates(); ok {
				sc.cand = cand
				defer func() { sc.cand = nil }()
			}
		}
	}
	// Later syncs change the dense sums in place (a copy of them when a
	// state holds them) while they are over the view's topologies, so
	// that a placement costs its node's change, not a pass over every
	// domain.
	if !first && c.nodes.Current(view) {
		// Nothing changed since the last sync: not even the node list
		// is needed.
		return
	}
	dense := !first && t.scores.cold && sameTopologies(t.scores.dense, view)
	c.nodes.SyncView(view, list(), sc.node, func(v *nodeScore, ni *cluster.NodeInfo, sign int64) {
		if first && t.addCold(v, ni, view) {
			return
		}
		first = false
		if dense && c.addDense(v, ni, sign) {
			return
		}
		dense = false
		c.mutable().apply(v, sign)
	})
}

// seed is a first sync whose sums by domain are read from the
// snapshot's indexes: sc.ownIdx, the existing pods' terms matching the
// incoming pod with their weights, and cnt (when the pod has preferred
// terms), the pods each preferred term matches. They are those the
// nodes' contributions give: a node adds its weights to its domain of
// each key it has, and counts a matched term there. The memo records the
// nodes unread (NodeMemo.SeedView). It reports false, with the sums zero
// and cold, when the index cannot answer.
func (c *scoreSums) seed(sc *scorer, cnt *cluster.PodCounts, view *cluster.View) bool {
	t := &c.totals
	// add adds to the dense sums of key (added, or taken out again
	// when nothing matched) what sum adds, and counts its matches.
	add := func(key string, sum func(topo *cluster.Topology, w []int64) (int64, bool)) bool {
		i := 0
		for i < len(t.scores.dense) && t.scores.dense[i].topo.Key() != key {
			i++
		}
		created := i == len(t.scores.dense)
		if created {
			topo := view.Topology(key)
			t.scores.scores = append(t.scores.scores, topologyScore{key: key})
			t.scores.dense = append(t.scores.dense, denseScore{topo: topo, w: make([]int64, topo.NumIDs())})
		}
		d := &t.scores.dense[i]
		matched, ok := sum(d.topo, d.w)
		t.matched += matched
		if created && matched == 0 && ok {
			// A key nothing matched under: the sums have none.
			t.scores.scores, t.scores.dense = t.scores.scores[:i], t.scores.dense[:i]
		}
		return ok
	}
	ok := true
	own := sc.ownIdx
	for k := 0; ok && k < len(own.Keys); k++ {
		ok = add(own.Keys[k], func(topo *cluster.Topology, w []int64) (int64, bool) {
			_, matched, done := own.AddByDomain(k, topo, nil, w)
			return matched, done
		})
	}
	if sc.hasPreferred {
		q := 0
		for _, terms := range [2][]affinity.WeightedAffinityTerm{sc.pref, sc.prefAnti} {
			sign := int64(1)
			if q >= len(sc.pref) {
				sign = -1
			}
			for i := 0; ok && i < len(terms); i++ {
				ok = add(terms[i].TopologyKey, func(topo *cluster.Topology, w []int64) (int64, bool) {
					_, matched, done := cnt.AddByDomain(q, topo, int64(terms[i].Weight*int32(sign)), w)
					return matched, done
				})
				q++
			}
		}
	}
	if !ok {
		c.beginCold()
		return false
	}
	c.nodes.SeedView(view)
	return true
}

// addDense adds ns, times sign, to the dense sums of cold totals whose
// topologies are the view's: ni is ns's NodeInfo of the view (sign 1),
// or nil and ns's node is read (sign -1, a node whose labels are those
// the topologies number). It reports false, adding nothing, when a
// domain is no domain of the topologies.
func (c *scoreSums) addDense(ns *nodeScore, ni *cluster.NodeInfo, sign int64) bool {
	t := &c.totals
	var ids, at [4]int32
	if ns.numWeights() > len(ids) {
		return false
	}
	for j := range ns.numWeights() {
		kw := ns.weightAt(j)
		i := 0
		for i < len(t.scores.dense) && t.scores.dense[i].topo.Key() != kw.key {
			i++
		}
		if i == len(t.scores.dense) {
			return false
		}
		d := &t.scores.dense[i]
		id := cluster.UnindexedDomain
		if ni != nil {
			id = d.topo.ID(ni)
		} else if v, ok := ns.node.Labels[kw.key]; ok {
			if x, ok := d.topo.Lookup(v); ok {
				id = x
			}
		}
		if id < 0 {
			return false
		}
		ids[j], at[j] = id, int32(i)
	}
	if c.shared {
		d := make([]denseScore, len(t.scores.dense))
		for i, x := range t.scores.dense {
			d[i] = denseScore{topo: x.topo, w: slices.Clone(x.w)}
		}
		t.scores.dense, c.shared = d, false
	}
	t.matched += sign * ns.matched
	for j := range ns.numWeights() {
		t.scores.dense[at[j]].w[ids[j]] += sign * ns.weightAt(j).w
	}
	return true
}

// scores returns the sums for sc's incoming pod over the view's nodes,
// from the cache, creating or refreshing the entry for its signature
// (nil when nothing is scored, allocating nothing). The result is shared
// with the cache: do not modify it.
func (ac *affinityCache) scores(sc *scorer, view *cluster.View) *scoreTotals {
	key := scoreKey{hasPreferred: sc.hasPreferred, namespace: sc.pod.Namespace, labels: sc.pod.Labels, nsLabels: sc.nsLabels, pref: sc.pref, prefAnti: sc.prefAnti}
	ac.mu.Lock()
	defer ac.mu.Unlock()
	if !sc.hasPreferred && view.NumPodsWithAffinity() == 0 {
		// Only pods with pod (anti-)affinity are read, and there are
		// none: nothing to score. The view counts them, so that this
		// costs no pass over the nodes.
		return nil
	}
	c := ac.findScore(&key)
	if c == nil {
		// The memo is sized by its first sync (none at all when it
		// seeds).
		c = &scoreSums{key: key}
		c.key.labels = maps.Clone(sc.pod.Labels)
		c.key.nsLabels = maps.Clone(sc.nsLabels)
		ac.push(cacheEntry{kind: scoreKind, score: c})
	}
	// The node list only when the memo syncs node by node (a seeded
	// first sync reads none).
	c.sync(sc, func() []*cluster.NodeInfo { return ac.nodes.Update(view) }, view, ac.noIndex)
	if d := c.totals.scores.dense; d == nil || !sameTopologies(d, view) {
		c.materialize()
		c.totals.scores.dense = newDenseScores(&c.totals.scores, view)
	}
	c.shared = true
	out := c.totals
	return &out
}
