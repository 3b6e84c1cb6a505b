package cluster

import "sync/atomic"

// SameNodes reports whether nodes are the view's NodeInfos, in the
// view's order (as View.Nodes and a NodeList of the view list them). It
// compares pointers only and reads no NodeInfo.
func (v *View) SameNodes(nodes []*NodeInfo) bool {
	if len(nodes) != v.nodes.len() {
		return false
	}
	for c, ch := range v.nodes.chunks {
		lo := c << chunkBits
		hi := min(lo+chunkLen, v.nodes.n)
		for j, ni := range ch.nodes[:hi-lo] {
			if nodes[lo+j] != ni {
				return false
			}
		}
	}
	return true
}

// KeyOnEveryNode reports whether every node of the view carries t's key,
// t being the view's Topology of it: its domains' sizes sum to the
// number of nodes. It reads no NodeInfo.
func (v *View) KeyOnEveryNode(t *Topology) bool {
	n := 0
	for _, size := range t.dom.sizes {
		n += int(size)
	}
	return n == v.nodes.len()
}

// CountByDomain adds to counts[id], for each domain id of t (the view's
// Topology of a key, see View.Topology), the pods of the view on the
// nodes of that domain that query q may match and match accepts: the
// candidates View.PodCandidates would give, read from the snapshot's pod
// index by slot, without a pass over the nodes. counts must have at
// least t.NumIDs() entries. match decides each candidate (as the caller
// would test every pod of a node). It reports false, having added
// nothing, when the index cannot answer as PodCandidates cannot, when t
// is not the view's Topology of its key, or when a requirement's values
// repeat (a pod would be met twice), or, with limit >= 0, when the
// index lists more than limit pods for it (reading them would cost the
// caller more than what it saves).
func (v *View) CountByDomain(t *Topology, q *PodQuery, match func(*PodInfo) bool, counts []int, limit int) bool {
	s := v.snap
	if s == nil || t == nil || v.Topology(t.key) != t || len(counts) < t.NumIDs() {
		return false
	}
	if q.Selector.MatchesNothing() {
		return true
	}
	var lists [][]indexEntry
	s.mu.Lock()
	x := s.podIdx
	ok := x != nil
	if ok {
		best, bestN := q.narrowest(x)
		if best < 0 || limit >= 0 && bestN > limit {
			ok = false
		} else {
			key, values, _ := q.Selector.Equality(best)
			for i := range values {
				for j := range i {
					if values[j] == values[i] {
						ok = false
					}
				}
			}
			if q.Namespaces != nil {
				ok = false // a namespace set may name one twice with Namespace
			}
			q.eachList(x, key, values, func(l *postings) {
				if l.since > v.generation {
					ok = false
				}
				lists = append(lists, l.entries)
			})
		}
	}
	s.mu.Unlock()
	if !ok {
		return false
	}
	g := v.generation
	slots := len(t.ids)
	for _, l := range lists {
		for i := range l {
			e := &l[i]
			if e.added > g || int(e.slot) < 1 || int(e.slot) > slots {
				continue
			}
			if r := atomic.LoadInt64(&e.removed); r != 0 && r <= g {
				continue
			}
			if id := t.ids[e.slot-1]; id >= 0 && match(e.pod) {
				counts[id]++
			}
		}
	}
	return true
}
