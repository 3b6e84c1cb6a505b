package interpodaffinity

import (
	"maps"
	"reflect"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// The InterPodAffinity PreFilter counts existing pods over the whole
// cluster. Successive cycles mostly see the same incoming terms (the
// replicas of one workload) and clusters that differ in a node or two (the
// pod the last cycle placed), so the plugin keeps, for the last incoming
// pods it saw, what every node contributes to the counts and the counts
// themselves; a cycle recounts only the nodes whose NodeInfo changed
// (another pointer or generation: a view's NodeInfos are never changed in
// place) and adjusts the totals by the difference. The counts are exactly
// those a full count gives: each node's contribution is computed from its
// pods as the full count would, and subtracted exactly when it goes.

// ipaKey is what PreFilter's counts depend on besides the nodes: the
// incoming pod's namespace, labels and namespace labels, and its required
// terms with their namespace selectors resolved.
type ipaKey struct {
	namespace      string
	labels         map[string]string
	nsLabels       map[string]string
	affinity, anti []affinity.AffinityTerm
}

func (k *ipaKey) equal(o *ipaKey) bool {
	return k.namespace == o.namespace && maps.Equal(k.labels, o.labels) && (k.nsLabels == nil) == (o.nsLabels == nil) &&
		maps.Equal(k.nsLabels, o.nsLabels) && reflect.DeepEqual(k.affinity, o.affinity) && reflect.DeepEqual(k.anti, o.anti)
}

// keyCount is a count under a topology key.
type keyCount struct {
	key string
	n   int64
}

// nodeContribution is what one node adds to the counts: under its own
// label values, m pods matching every affinity term, the count of pods
// matching anti-affinity term i (antiAt), and the number of required
// anti-affinity terms of its pods that match the incoming pod, per key
// (existingAt). The first counts are held inline, the rest in slices
// allocated only for nodes that need them, so that computing a node's
// contribution allocates nothing in the common case (one or two
// anti-affinity terms, one key of existing anti-affinity).
type nodeContribution struct {
	node *api.Node
	// m and the inline counts are per node, bounded by its pods' terms.
	m         int32
	nExisting int32
	// anti[i] counts term i for i < len(anti), more.anti[i-len(anti)]
	// the others.
	anti [2]int32
	// existing[:nExisting] are the first keys, more.existing the others.
	existing [1]keyCount
	more     *moreContribution
}

// moreContribution is the part of a nodeContribution that does not fit
// inline.
type moreContribution struct {
	anti     []int64
	existing []keyCount
}

// addAnti counts k pods matching anti-affinity term i of n.
func (c *nodeContribution) addAnti(i, n int, k int32) {
	if i < len(c.anti) {
		c.anti[i] += k
		return
	}
	if c.more == nil {
		c.more = &moreContribution{}
	}
	if c.more.anti == nil {
		c.more.anti = make([]int64, n-len(c.anti))
	}
	c.more.anti[i-len(c.anti)] += int64(k)
}

// antiAt returns the count of anti-affinity term i.
func (c *nodeContribution) antiAt(i int) int64 {
	if i < len(c.anti) {
		return int64(c.anti[i])
	}
	if j := i - len(c.anti); c.more != nil && j < len(c.more.anti) {
		return c.more.anti[j]
	}
	return 0
}

// addExisting counts k terms of key.
func (c *nodeContribution) addExisting(key string, k int64) {
	for i := range c.numExisting() {
		if kc := c.existingAt(i); kc.key == key {
			kc.n += k
			return
		}
	}
	if int(c.nExisting) < len(c.existing) {
		c.existing[c.nExisting] = keyCount{key: key, n: k}
		c.nExisting++
		return
	}
	if c.more == nil {
		c.more = &moreContribution{}
	}
	c.more.existing = append(c.more.existing, keyCount{key: key, n: k})
}

// numExisting returns the number of keys of existing anti-affinity.
func (c *nodeContribution) numExisting() int {
	if c.more == nil {
		return int(c.nExisting)
	}
	return int(c.nExisting) + len(c.more.existing)
}

// existingAt returns the i-th key of existing anti-affinity and its count.
func (c *nodeContribution) existingAt(i int) *keyCount {
	if i < int(c.nExisting) {
		return &c.existing[i]
	}
	return &c.more.existing[i-int(c.nExisting)]
}

// zero reports whether c adds nothing to any count.
func (c *nodeContribution) zero(numAnti int) bool {
	if c.node == nil || c.m != 0 || c.numExisting() > 0 {
		return c.node == nil
	}
	for i := range numAnti {
		if c.antiAt(i) != 0 {
			return false
		}
	}
	return true
}

// filterCounts is the counts for one incoming pod signature, and each
// node's contribution to them.
type filterCounts struct {
	key   ipaKey
	nodes cluster.NodeMemo[nodeContribution] // each node's non-zero contribution
	// totals hold the counts in the shapes of a state
	// (filter_shapes.go): shared once a cycle's state holds them, so
	// that the next change copies them first. Their idx is the merged
	// anti-affinity index when a cycle takes counts that did not change
	// since the last; their dense index is over the view's topologies.
	totals interPodAffinityState
}

// contribution computes ni's contribution for the incoming pod of s into
// c (which holds the zero value), and reports whether it adds anything.
// A node without pods with required anti-affinity, and without pods at
// all or without incoming terms, costs two length checks.
func (s *interPodAffinityState) contribution(ni *cluster.NodeInfo, c *nodeContribution) bool {
	return s.contributionOf(ni, ni.Pods, c, nil)
}

// contributionOf is contribution counting, for the incoming terms, only
// pods, which hold every pod of ni that matches all affinity terms or
// some anti-affinity term (ni's candidates of candidates, or all its
// pods).
func (s *interPodAffinityState) contributionOf(ni *cluster.NodeInfo, pods []*cluster.PodInfo, c *nodeContribution, ex *cluster.TermCounts) bool {
	node := ni.Node()
	if node == nil || (len(ni.PodsWithRequiredAntiAffinity) == 0 && ((len(s.affinity) == 0 && len(s.anti) == 0) || len(pods) == 0)) {
		return false
	}
	c.node = node
	s.existingOf(ni, c, ex)
	if (len(s.affinity) == 0 && len(s.anti) == 0) || len(pods) == 0 {
		return !c.zero(len(s.anti))
	}
	for _, p := range pods {
		if matchesAllTerms(s.affinity, p.Pod) {
			c.m++
		}
		for i := range s.anti {
			if s.anti[i].Matches(p.Pod, nil) {
				c.addAnti(i, len(s.anti), 1)
			}
		}
	}
	return !c.zero(len(s.anti))
}

// existingOf counts into c the required anti-affinity terms of ni's
// pods that match the incoming pod, per key the node has: from ex (the
// index's counts, existingCounts) when it counts ni, else from the pods.
func (s *interPodAffinityState) existingOf(ni *cluster.NodeInfo, c *nodeContribution, ex *cluster.TermCounts) {
	if ex.Has(ni) {
		for k, key := range ex.Keys {
			if n, _, _ := ex.At(k, ni); n != 0 {
				if _, ok := c.node.Labels[key]; ok {
					c.addExisting(key, int64(n))
				}
			}
		}
		return
	}
	for _, p := range ni.PodsWithRequiredAntiAffinity {
		for i := range p.RequiredAntiAffinityTerms {
			t := &p.RequiredAntiAffinityTerms[i]
			if _, ok := c.node.Labels[t.TopologyKey]; !ok || !t.Matches(s.pod, s.nsLabels) {
				continue
			}
			c.addExisting(t.TopologyKey, 1)
		}
	}
}

// existingCounts counts through view's index of the pods' terms, per
// node and key, the required anti-affinity terms of existing pods that
// match the incoming pod of s: one match per group of equal terms.
func (s *interPodAffinityState) existingCounts(view *cluster.View) (*cluster.TermCounts, bool) {
	return view.CountTerms(func(kind cluster.TermKind, t *affinity.AffinityTerm, _ int32) (int64, bool) {
		return 0, kind == cluster.RequiredAntiAffinity && t.Matches(s.pod, s.nsLabels)
	})
}

// contributionCounted is contribution with the pods matching the
// incoming terms counted by the snapshot's pod index (termCounts): no
// pod of ni is read but those with required anti-affinity. It reports
// false as its second result, computing nothing, when cnt has no counts
// for ni.
func (s *interPodAffinityState) contributionCounted(ni *cluster.NodeInfo, cnt *cluster.PodCounts, c *nodeContribution, ex *cluster.TermCounts) (nonZero, ok bool) {
	q := 0
	var m int32
	if len(s.affinity) == 1 {
		if m, ok = cnt.Count(0, ni); !ok {
			return false, false
		}
		q = 1
	}
	terms := m != 0
	for i := range s.anti {
		n, ok := cnt.Count(q+i, ni)
		if !ok {
			return false, false
		}
		terms = terms || n != 0
	}
	node := ni.Node()
	if node == nil || (len(ni.PodsWithRequiredAntiAffinity) == 0 && !terms) {
		return false, true
	}
	c.node = node
	s.existingOf(ni, c, ex)
	c.m = m
	for i := range s.anti {
		if n, _ := cnt.Count(q+i, ni); n != 0 {
			c.addAnti(i, len(s.anti), n)
		}
	}
	return !c.zero(len(s.anti)), true
}

// apply adds c, times sign, to the counts of t, which it makes mutable.
func (t *interPodAffinityState) apply(c *nodeContribution, sign int64) {
	m := t.mutable()
	if c.node == nil {
		return
	}
	labels := c.node.Labels
	for i := range c.numExisting() {
		kc := c.existingAt(i)
		addTo(m.existing.of(kc.key), labels[kc.key], sign*kc.n, &m.existing.pairs)
	}
	if c.m != 0 {
		for i := range t.affinity {
			if v, ok := labels[t.affinity[i].TopologyKey]; ok {
				addTo(m.affinity.values[t.affinityOf[i]], v, sign*int64(c.m), &m.affinity.pairs)
			}
		}
	}
	for i := range t.anti {
		n := c.antiAt(i)
		if n == 0 {
			continue
		}
		if v, ok := labels[t.anti[i].TopologyKey]; ok {
			addTo(m.anti.values[t.antiOf[i]], v, sign*n, &m.anti.pairs)
		}
	}
}

// sync brings the cache's counts up to date with nodes, and reports
// whether they changed. The first sync counts by domain id of view's
// topologies (coldCounts) and builds the dense index from those counts.
func (c *filterCounts) sync(nodes []*cluster.NodeInfo, view *cluster.View, noIndex bool) bool {
	t := &c.totals
	changed := false
	var cc *coldCounts
	compute := t.contribution
	if c.nodes.Len() == 0 {
		cc = t.beginCold(view)
		// The existing pods' terms are matched once per group of equal
		// terms, through the snapshot's index of them.
		var ex *cluster.TermCounts
		if !noIndex {
			ex, _ = t.existingCounts(view)
			// Where the index counts the pods of every incoming term
			// too, the counts by domain are read from it alone: no
			// node is read (seed).
			cnt, ok := termCounts(view, t.affinity, t.anti)
			if ex != nil && (ok || len(t.affinity)+len(t.anti) == 0) && c.seed(view, cc, cnt, ex) {
				t.dense = cc.denseIndex(t)
				return true
			}
			cc = t.beginCold(view)
			compute = func(ni *cluster.NodeInfo, v *nodeContribution) bool { return t.contributionOf(ni, ni.Pods, v, ex) }
		}
		// A first count reads only the pods the incoming terms may
		// match, found through the snapshot's pod index, and none at
		// all where the index counts them.
		if cnt, ok := termCounts(view, t.affinity, t.anti); ok && !noIndex {
			compute = func(ni *cluster.NodeInfo, v *nodeContribution) bool {
				if nonZero, ok := t.contributionCounted(ni, cnt, v, ex); ok {
					return nonZero
				}
				return t.contributionOf(ni, ni.Pods, v, ex)
			}
		} else if cand, ok := termCandidates(view, t.affinity, t.anti); ok && !noIndex {
			compute = func(ni *cluster.NodeInfo, v *nodeContribution) bool {
				pods, ok := cand.Pods(ni)
				if !ok {
					pods = ni.Pods
				}
				return t.contributionOf(ni, pods, v, ex)
			}
		}
	}
	// Later syncs change cold counts in place (a copy of them when a
	// state holds them), and their dense index with them, while both
	// are over the view's topologies: a placement then costs its node's
	// change, not a pass over every domain.
	warm := cc == nil && t.warm(view)
	c.nodes.SyncView(view, nodes, compute, func(v *nodeContribution, ni *cluster.NodeInfo, sign int64) {
		changed = true
		if cc != nil && sign > 0 && cc.add(t, v, ni) {
			return
		}
		cc = nil
		if warm && t.addWarm(v, ni, sign, view) {
			return
		}
		warm = false
		t.apply(v, sign)
	})
	if cc != nil {
		t.dense = cc.denseIndex(t)
	}
	return changed
}

// seed is a first sync whose counts by domain are read from the
// snapshot's indexes: cnt, the pods of the view matching the incoming
// terms per node (the affinity term's, then each anti-affinity term's),
// and ex, the existing pods' required anti-affinity terms matching the
// incoming pod. They are those the nodes' contributions give: a node
// adds its counts to its domain of each key it has. The memo records the
// nodes unread (NodeMemo.SeedView). It reports false, with the counts
// zero and cold over a new coldCounts, when the index cannot answer.
func (c *filterCounts) seed(view *cluster.View, cc *coldCounts, cnt *cluster.PodCounts, ex *cluster.TermCounts) bool {
	t := &c.totals
	ok := true
	q := 0
	if len(t.affinity) == 1 {
		k := cc.key(&cc.affinity, t.affinityOf[0], t.affinity[0].TopologyKey)
		made, _, done := cnt.AddByDomain(0, k.topo, 1, k.n.flat)
		t.m.affinity.pairs += made
		ok, q = ok && done, 1
	}
	for i := 0; ok && i < len(t.anti); i++ {
		k := cc.key(&cc.anti, t.antiOf[i], t.anti[i].TopologyKey)
		made, _, done := cnt.AddByDomain(q+i, k.topo, 1, k.n.flat)
		t.m.anti.pairs += made
		ok = ok && done
	}
	for k := 0; ok && k < len(ex.Keys); k++ {
		key := ex.Keys[k]
		topo := view.Topology(key)
		n := make([]int64, topo.NumIDs())
		made, _, done := ex.AddByDomain(k, topo, n, nil)
		ok = ok && done
		if made == 0 {
			continue
		}
		t.m.existing.of(key)
		ki := slices.Index(t.m.existing.keys, key)
		for len(cc.existing) <= ki {
			cc.existing = append(cc.existing, coldKey{})
		}
		cc.existing[ki] = coldKey{topo: topo, n: pagedCounts(n)}
		t.m.existing.pairs += made
	}
	if !ok {
		t.m.existing = topologyCounts{}
		t.m.affinity.pairs, t.m.anti.pairs = 0, 0
		t.beginCold(view)
		return false
	}
	t.idx, t.dense = nil, nil
	c.nodes.SeedView(view)
	return true
}

// counts fills s's counts from the cache, creating or refreshing the
// entry for s's signature. s's terms and namespace labels are set; its
// counts are empty.
func (ac *affinityCache) counts(s *interPodAffinityState, view *cluster.View, nodes []*cluster.NodeInfo) {
	key := ipaKey{namespace: s.pod.Namespace, labels: s.pod.Labels, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti}
	ac.mu.Lock()
	defer ac.mu.Unlock()
	c := ac.findFilter(&key)
	if c == nil {
		// The memo is sized by its first sync (none at all when it
		// seeds).
		c = &filterCounts{key: key, totals: interPodAffinityState{pod: s.pod, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti}}
		c.key.labels = maps.Clone(s.pod.Labels)
		c.key.nsLabels = maps.Clone(s.nsLabels)
		c.totals.indexTerms()
		ac.push(cacheEntry{kind: filterKind, filter: c})
	}
	// The contributions are computed with this cycle's pod (equal to
	// the cached one in what matters).
	c.totals.pod, c.totals.nsLabels = s.pod, s.nsLabels
	changed := c.sync(nodes, view, ac.noIndex)
	t := &c.totals
	if t.dense == nil || !t.dense.sameTopologies(view) {
		t.thaw()
		t.dense = newDenseIndex(t, view)
	}
	// The merged index costs a pass over the counted domains: it is
	// built for counts that stayed the same since the last cycle (as
	// while a pod is retried, or a workload's replicas land where they
	// do not change these counts), not for counts that change every
	// cycle (PreFilter then gives the state a plain index); and only
	// when there is no dense index, which Filter reads instead (the
	// cache then keeps a plain index, which reads only the keys, so
	// that a cycle over unchanged counts allocates none).
	switch {
	case t.idx != nil:
	case t.dense != nil:
		t.idx = newAntiIndex(t, false)
	case !changed:
		t.thaw()
		t.idx = newAntiIndex(t, true)
	}
	s.shareFrom(t)
}

// termCandidates finds through view's pod index the pods that may match
// all of the affinity terms (those matching the first one whose selector
// the index answers) or one of the anti-affinity terms, as existing pods
// are matched: by namespace name only. It reports false when the index
// cannot answer, and for no terms.
func termCandidates(view *cluster.View, all, anyOf []affinity.AffinityTerm) (*cluster.PodCandidates, bool) {
	if view == nil || (len(all) == 0 && len(anyOf) == 0) {
		return nil, false
	}
	qs := make([]cluster.PodQuery, 0, 1+len(anyOf))
	if len(all) > 0 {
		found := false
		for i := range all {
			if q, ok := termQuery(&all[i]); ok && indexable(q.Selector) {
				qs, found = append(qs, q), true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	for i := range anyOf {
		q, ok := termQuery(&anyOf[i])
		if !ok {
			return nil, false
		}
		qs = append(qs, q)
	}
	return view.PodCandidates(qs)
}

// termCounts counts through view's pod index, per node, the pods
// matching the one affinity term (if any) and each anti-affinity term,
// in that order, as existing pods are matched. It reports false when
// the index cannot count them exactly, with more than one affinity term
// (a pod must match them all), and for no terms.
func termCounts(view *cluster.View, all, anyOf []affinity.AffinityTerm) (*cluster.PodCounts, bool) {
	if view == nil || len(all) > 1 || len(all)+len(anyOf) == 0 {
		return nil, false
	}
	qs := make([]cluster.PodQuery, 0, len(all)+len(anyOf))
	for _, terms := range [][]affinity.AffinityTerm{all, anyOf} {
		for i := range terms {
			q, ok := termQuery(&terms[i])
			if !ok {
				return nil, false
			}
			qs = append(qs, q)
		}
	}
	return view.CountPods(qs)
}

// termQuery is the index query of a term matched against existing pods,
// and whether the index may answer it. Their namespace labels are not
// read: the term's namespace selector is Nothing once resolved, or
// empty, and then matches every namespace.
func termQuery(t *affinity.AffinityTerm) (cluster.PodQuery, bool) {
	if t.NamespaceSelector.Empty() {
		// An empty namespaceSelector stays unresolved, as upstream
		// leaves it, and matches the pods of every namespace.
		return cluster.PodQuery{AllNamespaces: true, Selector: t.Selector}, true
	}
	if !t.NamespaceSelector.MatchesNothing() {
		return cluster.PodQuery{}, false
	}
	ns := t.Namespaces
	if ns == nil {
		ns = map[string]struct{}{}
	}
	return cluster.PodQuery{Namespaces: ns, Selector: t.Selector}, true
}

// indexable reports whether the pod index answers sel: it matches
// nothing, or has an =, == or In requirement.
func indexable(sel affinity.Selector) bool {
	if sel.MatchesNothing() {
		return true
	}
	for i := range sel.NumRequirements() {
		if _, _, ok := sel.Equality(i); ok {
			return true
		}
	}
	return false
}
