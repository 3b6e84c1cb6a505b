package predicates

import (
	"maps"
	"reflect"

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

// ipaCacheSize is how many incoming pod signatures the plugin keeps.
const ipaCacheSize = 4

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
// label values, m pods matching every affinity term, anti[i] pods
// matching anti-affinity term i, and existing[j].n required
// anti-affinity terms of its pods that match the incoming pod, per key.
type nodeContribution struct {
	node     *api.Node
	m        int64
	anti     []int64
	existing []keyCount
}

// ipaCache is the counts for one incoming pod signature, and each node's
// contribution to them.
type ipaCache struct {
	key   ipaKey
	nodes cluster.NodeMemo[nodeContribution] // each node's contribution
	// totals hold the counts; shared is set once a cycle's state holds
	// them, so that the next change copies them first.
	totals interPodAffinityState
	shared bool
	// idx indexes totals' anti-affinity counts (newAntiIndex, merged),
	// built when a cycle takes counts that did not change since the
	// last; nil after they change.
	idx *antiIndex
	// dense indexes totals by domain ids (newDenseIndex), for the
	// topologies it holds; nil after the counts change.
	dense *denseIndex
}

// contribution computes ni's contribution for the incoming pod of s.
func (s *interPodAffinityState) contribution(ni *cluster.NodeInfo) nodeContribution {
	node := ni.Node()
	c := nodeContribution{node: node}
	if node == nil {
		return c
	}
	for _, p := range ni.PodsWithRequiredAntiAffinity {
		for i := range p.RequiredAntiAffinityTerms {
			t := &p.RequiredAntiAffinityTerms[i]
			if _, ok := node.Labels[t.TopologyKey]; !ok || !t.Matches(s.pod, s.nsLabels) {
				continue
			}
			j := 0
			for j < len(c.existing) && c.existing[j].key != t.TopologyKey {
				j++
			}
			if j == len(c.existing) {
				c.existing = append(c.existing, keyCount{key: t.TopologyKey})
			}
			c.existing[j].n++
		}
	}
	if len(s.affinity) == 0 && len(s.anti) == 0 {
		return c
	}
	for _, p := range ni.Pods {
		if matchesAllTerms(s.affinity, p.Pod) {
			c.m++
		}
		for i := range s.anti {
			if s.anti[i].Matches(p.Pod, nil) {
				if c.anti == nil {
					c.anti = make([]int64, len(s.anti))
				}
				c.anti[i]++
			}
		}
	}
	return c
}

// apply adds c, times sign, to the counts of t.
func (t *interPodAffinityState) apply(c *nodeContribution, sign int64) {
	if c.node == nil {
		return
	}
	labels := c.node.Labels
	for _, kc := range c.existing {
		addTo(t.existingAnti.of(kc.key), labels[kc.key], sign*kc.n, &t.existingAnti.pairs)
	}
	if c.m != 0 {
		for i := range t.affinity {
			if v, ok := labels[t.affinity[i].TopologyKey]; ok {
				addTo(t.affinityCounts.values[t.affinityOf[i]], v, sign*c.m, &t.affinityCounts.pairs)
			}
		}
	}
	for i, n := range c.anti {
		if n == 0 {
			continue
		}
		if v, ok := labels[t.anti[i].TopologyKey]; ok {
			addTo(t.antiCounts.values[t.antiOf[i]], v, sign*n, &t.antiCounts.pairs)
		}
	}
}

// unshare gives the cache counts of its own before it changes them.
func (c *ipaCache) unshare() {
	if !c.shared {
		return
	}
	c.totals.existingAnti = c.totals.existingAnti.clone()
	c.totals.affinityCounts = c.totals.affinityCounts.clone()
	c.totals.antiCounts = c.totals.antiCounts.clone()
	c.shared = false
}

// sync brings the cache's counts up to date with nodes, and reports
// whether they changed.
func (c *ipaCache) sync(nodes []*cluster.NodeInfo) bool {
	t := &c.totals
	changed := false
	c.nodes.Sync(nodes, t.contribution, func(v *nodeContribution, sign int64) {
		c.unshare()
		c.idx, c.dense, changed = nil, nil, true
		t.apply(v, sign)
	})
	return changed
}

// cachedCounts fills s's counts from the plugin's cache, creating or
// refreshing the entry for s's signature. s's terms and namespace labels
// are set; its counts are empty.
func (pl *InterPodAffinityPlugin) cachedCounts(s *interPodAffinityState, view *cluster.View, nodes []*cluster.NodeInfo) {
	key := ipaKey{namespace: s.pod.Namespace, labels: s.pod.Labels, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var c *ipaCache
	for i, e := range pl.cache {
		if e.key.equal(&key) {
			c = e
			copy(pl.cache[1:i+1], pl.cache[:i])
			pl.cache[0] = c
			break
		}
	}
	if c == nil {
		c = &ipaCache{key: key, totals: interPodAffinityState{pod: s.pod, nsLabels: s.nsLabels, affinity: s.affinity, anti: s.anti},
			nodes: cluster.NewNodeMemo[nodeContribution](len(nodes))}
		c.key.labels = maps.Clone(s.pod.Labels)
		c.key.nsLabels = maps.Clone(s.nsLabels)
		c.totals.indexTerms()
		if len(pl.cache) < ipaCacheSize {
			pl.cache = append(pl.cache, nil)
		}
		copy(pl.cache[1:], pl.cache)
		pl.cache[0] = c
	}
	// The contributions are computed with this cycle's pod (equal to
	// the cached one in what matters).
	c.totals.pod, c.totals.nsLabels = s.pod, s.nsLabels
	// The merged index costs a pass over the counted domains: it is
	// built for counts that stayed the same since the last cycle (as
	// while a pod is retried, or a workload's replicas land where they
	// do not change these counts), not for counts that change every
	// cycle (PreFilter then gives the state a plain index).
	if !c.sync(nodes) && c.idx == nil {
		c.idx = newAntiIndex(&c.totals, true)
	}
	c.shared = true
	if c.dense == nil || !c.dense.sameTopologies(view) {
		c.dense = newDenseIndex(&c.totals, view)
	}
	s.dense = c.dense
	s.existingAnti, s.affinityCounts, s.antiCounts = c.totals.existingAnti, c.totals.affinityCounts, c.totals.antiCounts
	s.affinityOf, s.antiOf = c.totals.affinityOf, c.totals.antiOf
	s.idx = c.idx
	s.shared = true
}
