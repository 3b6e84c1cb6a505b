package interpodaffinity

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Reasons of the InterPodAffinity filter, as upstream's.
const (
	// ErrReasonExistingAntiAffinityRulesNotMatch is the reason when a pod
	// already in the node's domain has required anti-affinity that the
	// incoming pod matches (MatchInterPodAffinity's
	// ExistingPodsAntiAffinityRulesNotMatch).
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	// ErrReasonAffinityRulesNotMatch is the reason when the node's
	// domains hold no pod that matches all the incoming pod's required
	// affinity terms.
	ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules"
	// ErrReasonAntiAffinityRulesNotMatch is the reason when the node's
	// domain holds a pod the incoming pod's required anti-affinity
	// rejects.
	ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules"
)

var (
	affinityRulesStatus        = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	antiAffinityRulesStatus    = framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	existingAntiAffinityStatus = framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	interPodAffinityNoState    = framework.AsStatus(fmt.Errorf("error reading %q from cycleState: not found", filterStateKey))
)

const filterStateKey framework.StateKey = "PreFilter" + config.InterPodAffinityName

// topologyCounts counts matching pods per topology domain: for each
// topology key, label value → count. Like upstream's
// topologyToMatchedTermCount, a domain whose count returns to zero is
// dropped, and pairs is the number of domains with a non-zero count (the
// length of upstream's map). Keys are few (one per distinct topology key
// of the terms), so they are a slice; each key's values are a map.
type topologyCounts struct {
	keys   []string
	values []map[string]int64
	pairs  int
}

// of returns the values of key, adding the key if it is new.
func (c *topologyCounts) of(key string) map[string]int64 {
	for i, k := range c.keys {
		if k == key {
			return c.values[i]
		}
	}
	m := map[string]int64{}
	c.keys = append(c.keys, key)
	c.values = append(c.values, m)
	return m
}

// add adds v to the domain of node for key, if the node has the key.
func (c *topologyCounts) add(node *api.Node, key string, v int64) {
	tv, ok := node.Labels[key]
	if !ok {
		return
	}
	addTo(c.of(key), tv, v, &c.pairs)
}

// addTo adds v to m[value], deleting the entry at zero and keeping pairs
// the number of non-zero entries.
func addTo(m map[string]int64, value string, v int64, pairs *int) {
	old := m[value]
	n := old + v
	switch {
	case n == 0:
		delete(m, value)
	default:
		m[value] = n
	}
	if old == 0 && n != 0 {
		*pairs++
	} else if old != 0 && n == 0 {
		*pairs--
	}
}

func (c *topologyCounts) clone() topologyCounts {
	out := topologyCounts{keys: append([]string(nil), c.keys...), values: make([]map[string]int64, len(c.values)), pairs: c.pairs}
	for i, m := range c.values {
		out.values[i] = maps.Clone(m)
		if out.values[i] == nil {
			out.values[i] = map[string]int64{}
		}
	}
	return out
}

// positive reports whether node's domain for the key with values m has
// a positive count.
func positive(m map[string]int64, node *api.Node, key string) bool {
	if len(m) == 0 {
		return false
	}
	v, ok := node.Labels[key]
	return ok && m[v] > 0
}

// interPodAffinityState is what PreFilter computes for Filter: the
// incoming pod's required terms (namespace selectors resolved) and, per
// topology domain, how many existing pods match them or reject the
// incoming pod.
type interPodAffinityState struct {
	pod *api.Pod
	// nsLabels are the labels of the incoming pod's namespace (nil when
	// it is unknown).
	nsLabels map[string]string
	// affinity and anti are the incoming pod's required affinity and
	// anti-affinity terms.
	affinity, anti []affinity.AffinityTerm

	// m, idx, dense, cold and shared are the counts in their shapes
	// (filter_shapes.go): read m's values through maps, change them
	// through mutable.
	m countMaps
	// affinityOf[i] and antiOf[i] are the index in m.affinity and
	// m.anti of the key of term i.
	affinityOf, antiOf []int
	// idx indexes the anti-affinity counts for filter (newAntiIndex).
	idx *antiIndex
	// dense indexes the counts by the view's domain ids (newDenseIndex).
	dense *denseIndex
	// cold holds the counts by domain id while m's values are empty.
	cold *coldCounts
	// selfMatch: the incoming pod matches all its own affinity terms.
	selfMatch bool
	// shared: the counts are also the cache's or another state's.
	// (The small fields come last, together, so that the state,
	// allocated every cycle, stays in its size class.)
	shared bool
}

// Clone copies the counts, which AddPod and RemovePod change; the terms
// are shared.
func (s *interPodAffinityState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	c := *s
	c.detach()
	return &c
}

// indexTerms adds the keys of the incoming pod's terms to the counts and
// records where each term's key is.
func (s *interPodAffinityState) indexTerms() {
	m := s.mutable()
	s.affinityOf = make([]int, len(s.affinity))
	for i := range s.affinity {
		m.affinity.of(s.affinity[i].TopologyKey)
		s.affinityOf[i] = slices.Index(m.affinity.keys, s.affinity[i].TopologyKey)
	}
	s.antiOf = make([]int, len(s.anti))
	for i := range s.anti {
		m.anti.of(s.anti[i].TopologyKey)
		s.antiOf[i] = slices.Index(m.anti.keys, s.anti[i].TopologyKey)
	}
}

// update counts existing pod p on node, with sign +1 (added) or -1
// (removed), as upstream's updateWithPod (hostname fast path off).
func (s *interPodAffinityState) update(p *cluster.PodInfo, node *api.Node, sign int64) {
	if node == nil {
		return
	}
	// Filter then checks the counts term by term.
	m := s.mutable()
	for i := range p.RequiredAntiAffinityTerms {
		t := &p.RequiredAntiAffinityTerms[i]
		if t.Matches(s.pod, s.nsLabels) {
			m.existing.add(node, t.TopologyKey, sign)
		}
	}
	if matchesAllTerms(s.affinity, p.Pod) {
		for i := range s.affinity {
			m.affinity.add(node, s.affinity[i].TopologyKey, sign)
		}
	}
	for i := range s.anti {
		if s.anti[i].Matches(p.Pod, nil) {
			m.anti.add(node, s.anti[i].TopologyKey, sign)
		}
	}
}

// matchesAllTerms reports whether terms is not empty and pod matches
// each (the terms' namespace selectors resolved, so no namespace labels
// are needed).
func matchesAllTerms(terms []affinity.AffinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].Matches(pod, nil) {
			return false
		}
	}
	return true
}

// PreFilter compiles the pod's required terms and counts, per topology
// domain, the existing pods that match them and those whose required
// anti-affinity matches the pod. It returns Skip when the pod has no
// required pod (anti-)affinity and no existing pod's required
// anti-affinity matches it; UnschedulableAndUnresolvable ("parsing pod:
// ...") when the pod's terms do not compile.
func (pl *InterPodAffinity) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	c, err := affinity.CompilePodAffinity(pod)
	if err != nil {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("parsing pod: %+v", err))
	}
	view := pl.handle.Snapshot().View()
	ns := objectNamespaces{view.Objects()}
	s := &interPodAffinityState{pod: pod, affinity: c.RequiredAffinity, anti: c.RequiredAntiAffinity}
	resolveNamespaces(ns, s.affinity)
	resolveNamespaces(ns, s.anti)
	s.nsLabels = namespaceLabels(ns, pod.Namespace)
	s.selfMatch = matchesAllTerms(s.affinity, pod)

	switch {
	case len(nodes) != view.NumNodes():
		// Not the snapshot's nodes: count as upstream does, existing
		// pods' anti-affinity on the snapshot's nodes.
		pl.countAll(s, view, nodes)
	case len(s.affinity) == 0 && len(s.anti) == 0 && view.NumPodsWithRequiredAntiAffinity() == 0:
		// No pod with required anti-affinity anywhere and no term of
		// the pod's own: nothing to count, Skip.
	default:
		// The snapshot's nodes: counted incrementally.
		pl.cache.counts(s, view, nodes)
	}
	if s.m.existing.pairs == 0 && len(s.affinity) == 0 && len(s.anti) == 0 {
		return nil, skipStatus
	}
	if s.idx == nil {
		s.idx = newAntiIndex(s, false)
	}
	if s.dense == nil {
		s.materialize()
		s.dense = newDenseIndex(s, view)
	}
	state.Write(filterStateKey, s)
	return nil, nil
}

// countAll counts from scratch: existing pods' required anti-affinity
// on the nodes the snapshot lists, the incoming pod's terms over nodes.
func (pl *InterPodAffinity) countAll(s *interPodAffinityState, view *cluster.View, nodes []*cluster.NodeInfo) {
	m := s.mutable()
	for _, ni := range view.HavePodsWithRequiredAntiAffinityNodes() {
		node := ni.Node()
		for _, p := range ni.PodsWithRequiredAntiAffinity {
			for i := range p.RequiredAntiAffinityTerms {
				t := &p.RequiredAntiAffinityTerms[i]
				if t.Matches(s.pod, s.nsLabels) {
					if v, ok := node.Labels[t.TopologyKey]; ok {
						addTo(m.existing.of(t.TopologyKey), v, 1, &m.existing.pairs)
					}
				}
			}
		}
	}
	s.indexTerms()
	if len(s.affinity) > 0 || len(s.anti) > 0 {
		for _, ni := range nodes {
			s.countNode(ni)
		}
	}
}

// countNode adds the pods of ni that match the incoming pod's terms to
// affinityCounts and antiCounts.
func (s *interPodAffinityState) countNode(ni *cluster.NodeInfo) {
	node := ni.Node()
	if node == nil || len(ni.Pods) == 0 {
		return
	}
	m := s.mutable()
	for _, p := range ni.Pods {
		if matchesAllTerms(s.affinity, p.Pod) {
			for i := range s.affinity {
				if v, ok := node.Labels[s.affinity[i].TopologyKey]; ok {
					addTo(m.affinity.values[s.affinityOf[i]], v, 1, &m.affinity.pairs)
				}
			}
		}
		for i := range s.anti {
			if !s.anti[i].Matches(p.Pod, nil) {
				continue
			}
			if v, ok := node.Labels[s.anti[i].TopologyKey]; ok {
				addTo(m.anti.values[s.antiOf[i]], v, 1, &m.anti.pairs)
			}
		}
	}
}

// PreFilterExtensions returns the plugin: AddPod and RemovePod update
// the counts.
func (pl *InterPodAffinity) PreFilterExtensions() framework.PreFilterExtensions { return pl }

func readInterPodAffinityState(state *framework.CycleState) (*interPodAffinityState, *framework.Status) {
	d, ok := state.Read(filterStateKey)
	if !ok {
		return nil, interPodAffinityNoState
	}
	s, ok := d.(*interPodAffinityState)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("%+v  convert to interpodaffinity.state error", d))
	}
	return s, nil
}

// AddPod counts podToAdd on nodeInfo's node in the cycle's state.
func (pl *InterPodAffinity) AddPod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, st := readInterPodAffinityState(state)
	if st != nil {
		return st
	}
	s.update(podToAdd, nodeInfo.Node(), 1)
	return nil
}

// RemovePod takes podToRemove on nodeInfo's node out of the counts.
func (pl *InterPodAffinity) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, st := readInterPodAffinityState(state)
	if st != nil {
		return st
	}
	s.update(podToRemove, nodeInfo.Node(), -1)
	return nil
}

// Filter rejects the node when its domains hold no pod matching all the
// pod's required affinity terms (UnschedulableAndUnresolvable, unless the
// pod is the first of its group: no pod matches anywhere, it matches its
// own terms and the node has every term's key), when they hold a pod the
// pod's required anti-affinity rejects (Unschedulable), or when they
// hold a pod whose required anti-affinity rejects the pod
// (Unschedulable), checked in that order. Without PreFilter state it
// returns an Error status, as upstream.
func (pl *InterPodAffinity) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, st := readInterPodAffinityState(state)
	if st != nil {
		return st
	}
	return s.filterNode(nodeInfo)
}

// FilterNodes is Filter for each node, reading the state once. With the
// dense index (PreFilter's counts by the view's domain ids) a node's
// check is slice indexing; without, it reads the count maps.
func (pl *InterPodAffinity) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	s, st := readInterPodAffinityState(state)
	if st != nil {
		for i := range nodes {
			statuses[i] = st
		}
		return
	}
	if s.dense != nil {
		for i, ni := range nodes {
			statuses[i] = s.filterNode(ni)
		}
		return
	}
	if len(s.affinity) != 1 || s.m.affinity.pairs != 1 {
		for i, ni := range nodes {
			statuses[i] = s.filter(ni.Node())
		}
		return
	}
	// One affinity term whose pods are all in one domain (as when a
	// workload's replicas share a zone): the node fits that term when its
	// label is that domain's value, compared without a map lookup.
	key := s.affinity[0].TopologyKey
	var one string
	found := false
	for v, n := range s.maps().affinity.values[s.affinityOf[0]] {
		one, found = v, n > 0
	}
	for i, ni := range nodes {
		node := ni.Node()
		v, ok := node.Labels[key]
		switch {
		case !ok || !found:
			statuses[i] = s.filter(node)
		case v != one:
			// No matching pod in the node's domain, and some elsewhere.
			statuses[i] = affinityRulesStatus
		default:
			statuses[i] = s.filterAnti(node)
		}
	}
}

func (s *interPodAffinityState) filter(node *api.Node) *framework.Status {
	if !s.affinityFits(node) {
		return affinityRulesStatus
	}
	return s.filterAnti(node)
}

// filterAnti is filter's anti-affinity part, for a node that fits the
// affinity terms.
func (s *interPodAffinityState) filterAnti(node *api.Node) *framework.Status {
	if s.m.anti.pairs == 0 && s.m.existing.pairs == 0 {
		return nil
	}
	if ix := s.idx; ix != nil {
		// Each key's label looked up once, for both kinds of counts.
		existing := false
		for i := range ix.keys {
			k := &ix.keys[i]
			v, ok := node.Labels[k.key]
			if !ok {
				continue
			}
			if ix.both != nil && ix.both[i] != nil {
				m := ix.both[i]
				b := m[v]
				if b&antiPositive != 0 {
					return antiAffinityRulesStatus
				}
				existing = existing || b&existingPositive != 0
				continue
			}
			if k.anti >= 0 && s.m.anti.pairs > 0 && s.maps().anti.values[k.anti][v] > 0 {
				return antiAffinityRulesStatus
			}
			if k.existing >= 0 && !existing && s.m.existing.pairs > 0 && s.maps().existing.values[k.existing][v] > 0 {
				existing = true
			}
		}
		if existing {
			return existingAntiAffinityStatus
		}
		return nil
	}
	if s.m.anti.pairs > 0 {
		for i := range s.anti {
			if positive(s.maps().anti.values[s.antiOf[i]], node, s.anti[i].TopologyKey) {
				return antiAffinityRulesStatus
			}
		}
	}
	if s.m.existing.pairs > 0 {
		m := s.maps()
		for i, key := range m.existing.keys {
			if positive(m.existing.values[i], node, key) {
				return existingAntiAffinityStatus
			}
		}
	}
	return nil
}

// antiKey is a topology key of the anti-affinity counts: its index in
// antiCounts and in existingAnti, -1 where it has none.
type antiKey struct {
	key            string
	anti, existing int
}

// antiIndex is what filter reads to check the anti-affinity counts:
// their distinct keys and, for a key both kinds of counts have, one map
// of the values with a positive count of either kind (so that a node's
// value is looked up once). It is built from counts that no longer
// change (the plugin cache's, shared), and read concurrently.
type antiIndex struct {
	keys []antiKey
	// both[i] is nil unless keys[i] has both kinds of counts (both is
	// nil when nothing was merged): value → antiPositive |
	// existingPositive.
	both []map[string]uint8
}

// The bits of antiIndex.both.
const (
	antiPositive     = 1 << iota // antiCounts counts a pod there
	existingPositive             // existingAnti counts a term there
)

// newAntiIndex indexes s's anti-affinity counts; with combine, it also
// merges the values of each key both kinds of counts have (a cost in
// the number of counted domains, paid by the plugin cache once per
// change of its counts).
func newAntiIndex(s *interPodAffinityState, combine bool) *antiIndex {
	ix := &antiIndex{}
	for i, k := range s.m.anti.keys {
		ix.keys = append(ix.keys, antiKey{key: k, anti: i, existing: -1})
	}
	for i, k := range s.m.existing.keys {
		j := 0
		for j < len(ix.keys) && ix.keys[j].key != k {
			j++
		}
		if j == len(ix.keys) {
			ix.keys = append(ix.keys, antiKey{key: k, anti: -1, existing: i})
		} else {
			ix.keys[j].existing = i
		}
	}
	if !combine {
		return ix
	}
	ix.both = make([]map[string]uint8, len(ix.keys))
	for i, k := range ix.keys {
		if k.anti < 0 || k.existing < 0 {
			continue
		}
		m := map[string]uint8{}
		for v, n := range s.maps().anti.values[k.anti] {
			if n > 0 {
				m[v] |= antiPositive
			}
		}
		for v, n := range s.maps().existing.values[k.existing] {
			if n > 0 {
				m[v] |= existingPositive
			}
		}
		ix.both[i] = m
	}
	return ix
}

// affinityFits is upstream's nodeTopologyMatchesAffinity (fast path
// off): the node must have every term's key, and each of its domains
// must count a matching pod, or else no domain counts one and the pod
// matches its own terms.
func (s *interPodAffinityState) affinityFits(node *api.Node) bool {
	if len(s.affinity) == 0 {
		return true
	}
	exist := true
	for i := range s.affinity {
		v, ok := node.Labels[s.affinity[i].TopologyKey]
		if !ok {
			return false
		}
		if s.maps().affinity.values[s.affinityOf[i]][v] <= 0 {
			exist = false
		}
	}
	return exist || (s.m.affinity.pairs == 0 && s.selfMatch)
}
