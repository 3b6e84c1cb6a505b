package cluster

import (
	"errors"
	"maps"
	"slices"
	"sync/atomic"
)

// ErrOtherLineage is returned by Reset when the two snapshots do not
// descend from one snapshot through Fork.
var ErrOtherLineage = errors.New("cluster: snapshots of different lineages")

// lineage is what a snapshot shares with its forks: the sequences of
// epochs and generations. A structure stamped with an epoch belongs to
// the one snapshot that took that epoch, so a fork never changes in
// place what its origin may read, and a NodeInfo's Generation names one
// state in the whole lineage, so that caches keyed by NodeInfo and
// Generation stay exact across Reset.
type lineage struct {
	epoch atomic.Uint64
	gen   atomic.Int64
	id    atomic.Uint64
}

func (l *lineage) nextEpoch() uint64 { return l.epoch.Add(1) }
func (l *lineage) nextGen() int64    { return l.gen.Add(1) }

// sharedParts marks the writer-only structures that a snapshot still
// shares with a fork or its origin.
type sharedParts struct {
	tree, orphans, images bool
}

// ownTree makes the zone tree private to the writer.
func (s *Snapshot) ownTree() {
	if !s.shared.tree {
		return
	}
	s.shared.tree = false
	t := s.tree
	t.zones = slices.Clone(t.zones)
	t.byZone = make(map[string][]string, len(s.tree.byZone))
	for z, names := range s.tree.byZone {
		t.byZone[z] = slices.Clone(names)
	}
	t.keys = maps.Clone(t.keys)
	s.tree = t
}

// ownOrphans makes the pods kept aside private to the writer.
func (s *Snapshot) ownOrphans() {
	if !s.shared.orphans {
		return
	}
	s.shared.orphans = false
	o := make(map[string][]*PodInfo, len(s.orphans))
	for n, ps := range s.orphans {
		o[n] = slices.Clone(ps)
	}
	s.orphans = o
}

// ownImages makes the image counts private to the writer.
func (s *Snapshot) ownImages() {
	if !s.shared.images {
		return
	}
	s.shared.images = false
	s.images = maps.Clone(s.images)
	if s.images == nil {
		s.images = map[string]imageCount{}
	}
}

// Fork returns a snapshot that holds what s holds and then changes
// independently of it: changes to either are invisible to the other.
// It copies no node and no pod. Everything the two share is frozen, and
// each copies a part (a NodeInfo, a chunk of the node list, the name
// index, a topology list) the first time it changes it, as a writer does
// after handing out a view; the pod index is layered, so that the
// fork's pod changes go to a map of its own over the shared one. Forking
// takes no view of s and changes none of its decisions: the next view of
// either orders the nodes as s's would have. s and its forks may be used
// from different goroutines. Reset brings one snapshot of a lineage to
// another's state.
func (s *Snapshot) Fork() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	f := &Snapshot{}
	s.shareWith(f)
	return f
}

// shareWith makes dst hold what s holds, sharing every structure, and
// freezes what both then share. The caller holds both locks (dst's may
// be a new snapshot's).
func (s *Snapshot) shareWith(dst *Snapshot) {
	dst.gen, dst.line = s.gen, s.line
	dst.nodes, dst.index, dst.indexEpoch = s.nodes, s.index, s.indexEpoch
	dst.tree, dst.relayout, dst.setDiff, dst.last = s.tree, s.relayout, s.setDiff, s.last
	dst.pods, dst.uids, dst.orphans = s.pods.share(), s.uids.share(), s.orphans
	dst.images, dst.staleImages = s.images, s.staleImages
	dst.dirtyImages = maps.Clone(s.dirtyImages)
	if dst.dirtyImages == nil {
		dst.dirtyImages = map[string]struct{}{}
	}
	dst.topo = maps.Clone(s.topo)
	if dst.topo == nil {
		dst.topo = map[string]*domainIndex{}
	}
	dst.topoIDs = maps.Clone(s.topoIDs)
	dst.slots, dst.freeSlots = s.slots, slices.Clone(s.freeSlots)
	dst.nodeSet, dst.objects = s.nodeSet, s.objects
	dst.affinityPods = s.affinityPods
	// The pod index is its writer's alone (its lists grow in place), so
	// dst drops its own and reads every pod from now on: a fork never
	// has one, and an origin that takes a fork's state by Reset no
	// longer holds an index of its pods.
	dst.podIdx = nil
	dst.view = nil
	// dst's positions are s's, but its log is its own from now on.
	dst.restartLog()
	dst.writes++
	s.shared = sharedParts{tree: true, orphans: true, images: true}
	dst.shared = s.shared
	// New epochs for both: what they share is now read-only to each.
	s.epoch = s.line.nextEpoch()
	dst.epoch = s.line.nextEpoch()
}

// Reset makes s hold what from holds, as Fork would, and keeps s's
// views as they were: a fork's changes are committed to its origin by
// origin.Reset(fork), and a fork goes back to its origin's state by
// fork.Reset(origin). Both snapshots stay usable and change
// independently afterwards. It fails with ErrOtherLineage unless s and
// from descend from one snapshot through Fork.
func (s *Snapshot) Reset(from *Snapshot) error {
	if s == from {
		return nil
	}
	a, la := s.lockID()
	b, lb := from.lockID()
	if la != lb {
		return ErrOtherLineage
	}
	first, second := s, from
	if a > b {
		first, second = from, s
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.shareWith(s)
	return nil
}

// lockID returns the number that orders the locks Reset takes, and
// the snapshot's lineage.
func (s *Snapshot) lockID() (uint64, *lineage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if s.lid == 0 {
		s.lid = s.line.id.Add(1)
	}
	return s.lid, s.line
}
