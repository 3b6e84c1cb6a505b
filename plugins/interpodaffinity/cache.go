package interpodaffinity

import (
	"sync"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/plugins/internal/sigcache"
)

// The plugin keeps one cache for both halves. Each entry is the counts
// of one incoming pod signature: the required-term counts for Filter
// (filterCounts, see filter_cache.go) or the preferred-term sums for
// Score (scoreSums, see score_cache.go). The halves count different
// things, as upstream's preFilterState and preScoreState do, but follow
// the snapshot the same way: an entry memoizes each node's contribution
// by NodeInfo and generation (cluster.NodeMemo), and a cycle recomputes
// only the nodes whose NodeInfo changed, found through the snapshot's
// log of node changes (NodeMemo.SyncView) without reading the others. One lock guards the store, every
// entry and the node list.

// cacheSize is how many incoming pod signatures the cache keeps for
// each half: enough for the shapes of a cluster's pending pods taken in
// turn (a dump's queue interleaves a score of them), each of which
// would otherwise be counted afresh every time it comes back.
const cacheSize = 24

// Kinds of entries, one per half.
const (
	filterKind uint8 = iota
	scoreKind
)

// affinityCache is the plugin's cache of counts, shared by its halves.
// The zero value is an empty cache.
type affinityCache struct {
	mu    sync.Mutex
	store sigcache.Store[cacheEntry]
	// nodes lists the snapshot's nodes, a view after another: the
	// score half counts them all.
	nodes cluster.NodeList
	// noIndex makes first syncs read every pod, not the candidates the
	// snapshot's pod index gives: the plain count tests compare with.
	noIndex bool
	// size, when set, replaces cacheSize (tests evict with fewer
	// signatures).
	size int
}

// cacheEntry is the counts of one incoming pod signature of one half:
// exactly one of filter and score is set, by kind. The store holds it by
// value, so that a new entry costs no allocation of its own.
type cacheEntry struct {
	kind   uint8
	filter *filterCounts
	score  *scoreSums
}

// Kind is the entry's half.
func (e cacheEntry) Kind() uint8 { return e.kind }

// findFilter returns the filter entry for key, made the most recent, or
// nil. The caller holds mu.
func (c *affinityCache) findFilter(key *ipaKey) *filterCounts {
	for i, e := range c.store.Entries() {
		if e.kind == filterKind && e.filter.key.equal(key) {
			return c.store.Touch(i).filter
		}
	}
	return nil
}

// findScore returns the score entry for key, made the most recent, or
// nil. The caller holds mu.
func (c *affinityCache) findScore(key *scoreKey) *scoreSums {
	for i, e := range c.store.Entries() {
		if e.kind == scoreKind && e.score.key.equal(key) {
			return c.store.Touch(i).score
		}
	}
	return nil
}

// push adds e as the most recent entry. The caller holds mu.
func (c *affinityCache) push(e cacheEntry) {
	n := cacheSize
	if c.size > 0 {
		n = c.size
	}
	c.store.Push(e, n)
}
