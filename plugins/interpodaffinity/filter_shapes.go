package interpodaffinity

import "github.com/schedkit/schedkit/cluster"

// A filter state's counts, and the plugin cache's totals, take one of
// two shapes, and carry up to two indexes of them:
//
//   - plain: m's maps hold the counts by label value, cold is nil;
//   - cold: cold holds them by domain id of the view's topologies, and
//     m's maps hold only the keys and pairs (the first sync of a cache
//     entry, see filter_cold.go);
//   - shared: the maps, or the cold counts, are also the cache's or
//     another state's, and are read only;
//   - idx (newAntiIndex) and dense (newDenseIndex) index the counts as
//     they are.
//
// The methods below are the protocol. Keys and pairs are valid in every
// shape. maps gives the values to read, and only in the plain shape.
// mutable gives them to change: it first makes them plain and the
// state's own, and drops the indexes, which no longer describe them.

// countMaps are the three kinds of counts by label value.
type countMaps struct {
	// existing counts existing pods whose required anti-affinity terms
	// match the incoming pod, per domain of the term's key.
	existing topologyCounts
	// affinity counts existing pods that match every affinity term, per
	// domain of each term's key; anti existing pods that match an
	// anti-affinity term, per domain of that term's key.
	affinity, anti topologyCounts
}

// maps returns the counts by label value, to read. Cold counts have no
// values there: reading them is a bug of the caller, and it panics.
func (s *interPodAffinityState) maps() *countMaps {
	if s.cold != nil {
		panic("interpodaffinity: count maps read while the counts are cold")
	}
	return &s.m
}

// mutable returns the counts by label value, to change: plain, the
// state's own, and without indexes.
func (s *interPodAffinityState) mutable() *countMaps {
	s.materialize()
	s.idx, s.dense = nil, nil
	return &s.m
}

// materialize gives s count maps of its own: from its cold counts when
// it has them, else copies when they are shared. The indexes stay: they
// describe the same counts.
func (s *interPodAffinityState) materialize() {
	switch {
	case s.cold != nil:
		cc := s.cold
		s.m.existing = coldMaps(cc.existing, s.m.existing.keys, s.m.existing.pairs)
		s.m.affinity = coldMaps(cc.affinity, s.m.affinity.keys, s.m.affinity.pairs)
		s.m.anti = coldMaps(cc.anti, s.m.anti.keys, s.m.anti.pairs)
		s.cold = nil
	case s.shared:
		s.m.existing = s.m.existing.clone()
		s.m.affinity = s.m.affinity.clone()
		s.m.anti = s.m.anti.clone()
	}
	s.shared = false
}

// detach gives s, a copy of another state, count maps of its own: the
// copy shares the other's maps whether or not they were shared.
func (s *interPodAffinityState) detach() {
	s.shared = true
	s.materialize()
}

// thaw makes cold counts plain, leaving shared maps alone (each state
// that holds the cold counts keeps them); it reports whether it did.
func (s *interPodAffinityState) thaw() bool {
	if s.cold == nil {
		return false
	}
	s.shared = false
	s.materialize()
	return true
}

// shareFrom makes s hold t's counts in their shape, with their indexes.
// Both then hold them shared: the next change of either copies them.
func (s *interPodAffinityState) shareFrom(t *interPodAffinityState) {
	t.shared = true
	s.m, s.cold = t.m, t.cold
	s.affinityOf, s.antiOf = t.affinityOf, t.antiOf
	s.idx, s.dense = t.idx, t.dense
	s.shared = true
}

// beginCold starts counting t, whose counts are zero, cold: by domain
// id of view's topologies (coldCounts.add).
func (s *interPodAffinityState) beginCold(view *cluster.View) *coldCounts {
	s.cold = &coldCounts{view: view}
	return s.cold
}
