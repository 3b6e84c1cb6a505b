package podtopologyspread

import (
	"sync"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/plugins/internal/sigcache"
)

// The plugin keeps one cache for both halves. Each entry is the counts of
// one constraint set: the DoNotSchedule constraints for Filter
// (filterCounts, see filter_cache.go) or the ScheduleAnyway ones for
// Score (scoreCounts, see score_cache.go). The halves count different
// things, as upstream's preFilterState and preScoreState do, but follow
// the snapshot the same way: an entry records, per position of the nodes
// it counted, the NodeInfo and generation a node's contribution was
// computed from (nodeTrack), and a cycle recomputes only the positions
// whose NodeInfo changed. One lock guards the store and every entry.

// cacheSize is how many constraint sets the cache keeps for each half:
// enough for the shapes of a cluster's pending pods taken in turn (a
// dump's queue interleaves a score of them), each of which would
// otherwise be counted afresh every time it comes back.
const cacheSize = 24

// Kinds of entries, one per half.
const (
	filterKind uint8 = iota
	scoreKind
)

// spreadCache is the plugin's cache of counts, shared by its halves.
// The zero value is an empty cache.
type spreadCache struct {
	mu    sync.Mutex
	store sigcache.Store[*cacheEntry]
	// noIndex makes first syncs read every pod, not the candidates the
	// snapshot's pod index gives: the plain count tests compare with.
	noIndex bool
	// size, when set, replaces cacheSize (tests evict with fewer
	// constraint sets).
	size int
	// indexed are the last constraint sets whose first score cycle
	// read the pod index (indexScores) and have no entry yet.
	indexed []indexedSignature
}

// cacheEntry is the counts of one constraint set of one half.
type cacheEntry struct {
	key        spreadSignature
	kind       uint8
	requireAll bool
	// view is the view the counts' Topologies are of, nil when they
	// number PreFilter's nodes themselves. A view's Topology of a key
	// never changes, so a cycle on the same view reuses them.
	view  *cluster.View
	track nodeTrack
	// Exactly one of filter and score is set, by kind.
	filter *filterCounts
	score  *scoreCounts
}

// Kind is the entry's half.
func (e *cacheEntry) Kind() uint8 { return e.kind }

// filterEntry and scoreEntry are an entry and its payload, allocated
// together: a new entry costs one allocation, as a half's own did.
type filterEntry struct {
	cacheEntry
	counts filterCounts
}

type scoreEntry struct {
	cacheEntry
	counts scoreCounts
}

// find returns the entry of kind for key, made the most recent, or nil.
// The caller holds mu.
func (c *spreadCache) find(kind uint8, requireAll bool, key *spreadSignature) *cacheEntry {
	for i, e := range c.store.Entries() {
		if e.kind == kind && e.requireAll == requireAll && e.key.Equal(key) {
			return c.store.Touch(i)
		}
	}
	return nil
}

// push adds e as the most recent entry. The caller holds mu.
func (c *spreadCache) push(e *cacheEntry, n int) *cacheEntry {
	e.track = nodeTrack{nodes: make([]*cluster.NodeInfo, 0, n), gens: make([]int64, 0, n)}
	size := cacheSize
	if c.size > 0 {
		size = c.size
	}
	c.store.Push(e, size)
	return e
}

// nodeTrack is what an entry's contributions were computed from: at
// position j, nodes[j] and its generation gens[j].
type nodeTrack struct {
	nodes []*cluster.NodeInfo
	gens  []int64
}

// same reports whether position j's contribution was computed from ni.
func (t *nodeTrack) same(j int, ni *cluster.NodeInfo) bool {
	return t.nodes[j] == ni && t.gens[j] == generation(ni)
}

// contributions are the per-node counts of one half that a nodeTrack
// keeps in step with the nodes. Methods take positions of the track.
type contributions interface {
	// unshare gives the counts slices of their own before they change.
	unshare()
	// drop takes position j's contribution out of the totals.
	drop(j int)
	// compute sets position j's contribution from ni and adds it.
	compute(j int, ni *cluster.NodeInfo)
	// renumber moves position j's contribution, computed from ni, to
	// the ids of the new Topologies.
	renumber(j int, ni *cluster.NodeInfo)
	// truncate keeps the first n positions; extend adds one.
	truncate(n int)
	extend()
}

// sync brings p up to date with nodes, position by position. With
// renumber, the Topologies changed: the contributions of unchanged
// NodeInfos move to their new ids, and the others are recomputed.
func (t *nodeTrack) sync(nodes []*cluster.NodeInfo, renumber bool, p contributions) {
	t.syncRanges(nodes, renumber, nil, p)
}

// syncRanges is sync when only the positions of ranges (pairs lo, hi:
// the positions [lo, hi)) may hold another NodeInfo or generation than
// at the track's last sync, and every position past its length is in
// one; nil ranges is every position. With renumber every position is
// looked at.
func (t *nodeTrack) syncRanges(nodes []*cluster.NodeInfo, renumber bool, ranges []int, p contributions) {
	if renumber {
		ranges = nil
		for j := range min(len(t.nodes), len(nodes)) {
			if ni := nodes[j]; t.same(j, ni) {
				p.renumber(j, ni)
			}
		}
	}
	if n := len(nodes); len(t.nodes) > n {
		p.unshare()
		for j := n; j < len(t.nodes); j++ {
			p.drop(j)
		}
		clear(t.nodes[n:])
		t.nodes, t.gens = t.nodes[:n], t.gens[:n]
		p.truncate(n)
	}
	if ranges == nil {
		t.syncRange(nodes, 0, len(nodes), p)
		return
	}
	for r := 0; r+1 < len(ranges); r += 2 {
		t.syncRange(nodes, ranges[r], ranges[r+1], p)
	}
}

// syncRange syncs the positions [lo, hi) of nodes, in order; positions
// past the track's length are added.
func (t *nodeTrack) syncRange(nodes []*cluster.NodeInfo, lo, hi int, p contributions) {
	for j := lo; j < hi; j++ {
		ni := nodes[j]
		if j < len(t.nodes) {
			if t.same(j, ni) {
				continue
			}
			p.unshare()
			p.drop(j)
		} else {
			p.unshare()
			t.nodes, t.gens = append(t.nodes, nil), append(t.gens, 0)
			p.extend()
		}
		p.compute(j, ni)
		t.nodes[j], t.gens[j] = ni, generation(ni)
	}
}

// inputs are what a sync computes contributions with: the cycle's pod
// and its compiled required node affinity. They are set for one sync
// only, so that the cache keeps no pod alive.
type inputs struct {
	pod *api.Pod
	// req is held by value: a pointer to a caller's local would make
	// the local escape, one allocation a cycle.
	req affinity.RequiredNodeAffinity
	// cand, for a first sync, is each node's pods the constraints'
	// selectors may match (nil: every pod is read).
	cand *cluster.PodCandidates
	// host, for a score sync with a kubernetes.io/hostname
	// constraint, is the view's Topology of that key: whether a node
	// has the label is then read from its domain id, not its labels.
	host *cluster.Topology
}

// count counts the pods of ni that sel selects in namespace ns
// (cluster.CountSpreadPods), reading only ni's candidates when in has
// them.
func (in *inputs) count(ni *cluster.NodeInfo, sel affinity.Selector, ns string) int {
	if in.cand != nil {
		if c, ok := in.cand.Pods(ni); ok {
			return cluster.CountSpreadPods(c, sel, ns)
		}
	}
	return cluster.CountSpreadPods(ni.Pods, sel, ns)
}

// firstInputs returns in with the candidates, found through view's pod
// index, of the pods in pod's namespace that the constraints' selectors
// may match, unless noIndex or the index cannot answer. An empty
// selector counts no pod and needs no candidates.
func firstInputs(in inputs, view *cluster.View, cs []affinity.SpreadConstraint, noIndex bool) inputs {
	if noIndex || view == nil {
		return in
	}
	qs := make([]cluster.PodQuery, 0, len(cs))
	for i := range cs {
		if cs[i].Selector.Empty() {
			continue
		}
		qs = append(qs, cluster.PodQuery{Namespace: in.pod.Namespace, Selector: cs[i].Selector})
	}
	if cand, ok := view.PodCandidates(qs); ok {
		in.cand = cand
	}
	return in
}
