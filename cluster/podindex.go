package cluster

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/affinity"
)

// The pod index lists the pods on the snapshot's nodes by namespace,
// label key and value, each with the slot of its node, so that the
// first decision of a new pod shape finds the pods its selectors can
// match without reading every pod. The snapshot keeps it from the start
// as pods are added, assumed and removed and as nodes come and go.
//
// One list per (namespace, key, value) holds entries that are only
// appended. An entry records the generation at which its pod came and,
// once the pod leaves, the generation at which it left (stored
// atomically: readers of older views read it concurrently). A view of
// generation g sees an entry iff it came at or before g and did not
// leave by g, so every view reads exactly its own pods from the same
// lists without a copy. A list whose entries are mostly gone is rebuilt
// into a new array; views older than the rebuild cannot read it and
// fall back to the plain walk.

// labelKey names one list of the index.
type labelKey struct{ ns, key, value string }

// indexEntry is one pod of a list: its PodInfo, its node's slot, the
// generation it came at and the one it left at (0 while present; read
// and written atomically).
type indexEntry struct {
	pod     *PodInfo
	slot    int32
	added   int64
	removed int64
}

// postings is one list of the index. live counts the entries present.
// since is the generation of the list's last rebuild: views older than
// it cannot read the list. pos finds a present pod's entry in a long
// list once a pod left it (made by the first such removal).
type postings struct {
	entries []indexEntry
	live    int
	since   int64
	pos     map[*PodInfo]int32
}

// podIndex is the snapshot's index of pods by label, and of the pods'
// pod (anti-)affinity terms by kind, position and term (termGroup).
type podIndex struct {
	lists map[labelKey]*postings
	// namespaces are, per label key and value, the namespaces that have
	// a list of them, in the order the lists came: a query of every
	// namespace reads those lists.
	namespaces map[[2]string][]string
	terms      map[string]*termGroup
	// key is scratch for the keys of terms.
	key []byte
}

// posThreshold is the list length from which a removal makes the list
// keep pos: below it a removal scans the list from its end.
const posThreshold = 32

// affinityCounts counts the pods on the snapshot's nodes that have pod
// (anti-)affinity and required anti-affinity. A plugin that reads only
// such pods learns from a view in O(1) that there are none, instead of
// reading a field of every node: on a fresh snapshot that walk costs a
// cache miss a node.
type affinityCounts struct {
	withAffinity, withRequiredAnti int
}

// add counts p (sign 1) or takes it out (sign -1).
func (c *affinityCounts) add(p *PodInfo, sign int) {
	if p.hasAffinity {
		c.withAffinity += sign
	}
	if p.hasRequiredAntiAffinity {
		c.withRequiredAnti += sign
	}
}

// indexAdd lists p, on the node of slot, in the index (if built).
func (s *Snapshot) indexAdd(p *PodInfo, slot int32) {
	s.affinityPods.add(p, 1)
	x := s.podIdx
	if x == nil {
		return
	}
	x.add(p, slot, s.gen)
}

func (x *podIndex) add(p *PodInfo, slot int32, gen int64) {
	if p.hasAffinity {
		x.eachTerm(p, func(k []byte, kind TermKind, t *affinity.AffinityTerm, w int32) {
			g := x.terms[string(k)]
			if g == nil {
				if x.terms == nil {
					x.terms = map[string]*termGroup{}
				}
				g = &termGroup{kind: kind, term: *t, weight: w}
				x.terms[string(k)] = g
			}
			g.postings.add(p, slot, gen)
		})
	}
	ns := p.Pod.Namespace
	for k, v := range p.Pod.Labels {
		lk := labelKey{ns, k, v}
		l := x.lists[lk]
		if l == nil {
			l = &postings{}
			x.lists[lk] = l
			if x.namespaces == nil {
				x.namespaces = map[[2]string][]string{}
			}
			x.namespaces[[2]string{k, v}] = append(x.namespaces[[2]string{k, v}], ns)
		}
		l.add(p, slot, gen)
	}
}

// add appends p, on the node of slot, to l at generation gen.
func (l *postings) add(p *PodInfo, slot int32, gen int64) {
	l.entries = append(l.entries, indexEntry{pod: p, slot: slot, added: gen})
	l.live++
	if l.pos != nil {
		l.pos[p] = int32(len(l.entries) - 1)
	}
}

// indexRemove marks p gone from the index (if built) at the current
// generation.
func (s *Snapshot) indexRemove(p *PodInfo) {
	s.affinityPods.add(p, -1)
	x := s.podIdx
	if x == nil {
		return
	}
	if p.hasAffinity {
		x.eachTerm(p, func(k []byte, _ TermKind, _ *affinity.AffinityTerm, _ int32) {
			if g := x.terms[string(k)]; g != nil {
				g.postings.remove(p, s.gen)
			}
		})
	}
	ns := p.Pod.Namespace
	for k, v := range p.Pod.Labels {
		if l := x.lists[labelKey{ns, k, v}]; l != nil {
			l.remove(p, s.gen)
		}
	}
}

// remove marks p's entry of l gone at generation gen, rebuilding l when
// most of its entries are gone.
func (l *postings) remove(p *PodInfo, gen int64) {
	i := int32(-1)
	if l.pos == nil && len(l.entries) >= posThreshold {
		l.pos = make(map[*PodInfo]int32, l.live)
		for j := range l.entries {
			if e := &l.entries[j]; atomic.LoadInt64(&e.removed) == 0 {
				l.pos[e.pod] = int32(j)
			}
		}
	}
	if l.pos != nil {
		if j, ok := l.pos[p]; ok {
			i = j
			delete(l.pos, p)
		}
	} else {
		for j := len(l.entries) - 1; j >= 0; j-- {
			if e := &l.entries[j]; e.pod == p && atomic.LoadInt64(&e.removed) == 0 {
				i = int32(j)
				break
			}
		}
	}
	if i < 0 {
		return
	}
	atomic.StoreInt64(&l.entries[i].removed, gen)
	l.live--
	if len(l.entries) > 2*l.live+posThreshold {
		l.rebuild(gen)
	}
}

// rebuild copies the present entries of l into a new array; views older
// than gen can no longer read l.
func (l *postings) rebuild(gen int64) {
	out := make([]indexEntry, 0, l.live)
	for i := range l.entries {
		e := &l.entries[i]
		if atomic.LoadInt64(&e.removed) == 0 {
			out = append(out, indexEntry{pod: e.pod, slot: e.slot, added: e.added})
		}
	}
	l.entries, l.since = out, gen
	if l.pos != nil {
		if len(out) < posThreshold {
			l.pos = nil
		} else {
			clear(l.pos)
			for i := range out {
				l.pos[out[i].pod] = int32(i)
			}
		}
	}
}

// PodQuery is a set of pods: those of namespace Namespace or of the
// namespaces in Namespaces, or of every namespace when AllNamespaces is
// set (a term's empty namespaceSelector), whose labels match Selector.
type PodQuery struct {
	Namespace     string
	Namespaces    map[string]struct{}
	AllNamespaces bool
	Selector      affinity.Selector
}

// PodCandidates is, per node of one view, the pods that the queries it
// was made for may match: every pod of the node that one of them
// matches, once, and possibly others. A plugin counting the pods its
// selectors match reads a node's candidates (Pods) instead of all its
// pods and tests each as it would test every pod.
type PodCandidates struct {
	// bySlot is the view's NodeInfo of each slot; pods[start[s]:start[s+1]]
	// are slot s's candidates.
	bySlot []*NodeInfo
	start  []int32
	pods   []*PodInfo
}

// Pods returns the candidates on ni, and false if ni is not a NodeInfo
// of the view the candidates are of (the caller then reads ni.Pods).
func (c *PodCandidates) Pods(ni *NodeInfo) ([]*PodInfo, bool) {
	s := int(ni.slot) - 1
	if c == nil || s < 0 || s >= len(c.bySlot) || c.bySlot[s] != ni {
		return nil, false
	}
	return c.pods[c.start[s]:c.start[s+1]], true
}

// Len returns the number of candidates over all nodes.
func (c *PodCandidates) Len() int { return len(c.pods) }

// PodCandidates finds, through the snapshot's pod index, the pods of the
// view that the queries may match. Each query's candidates are the pods
// listed under the values of one of its selector's requirements that
// admit only listed values (=, == or In), the one with the fewest pods;
// a selector that matches nothing has none. It reports false when the
// index cannot answer: a query without such a requirement (Exists,
// NotIn, DoesNotExist or no requirement at all), a view not taken from a
// snapshot, or a view older than the last rebuild of a list it reads.
func (v *View) PodCandidates(queries []PodQuery) (*PodCandidates, bool) {
	s := v.snap
	if s == nil {
		return nil, false
	}
	var lists [][]indexEntry
	multi := len(queries) > 1
	s.mu.Lock()
	x := s.podIdx
	ok := x != nil
	slots := int(s.slots)
	for qi := 0; ok && qi < len(queries); qi++ {
		q := &queries[qi]
		if q.Selector.MatchesNothing() {
			continue
		}
		best, _ := q.narrowest(x)
		if best < 0 {
			ok = false
			break
		}
		key, values, _ := q.Selector.Equality(best)
		q.eachList(x, key, values, func(l *postings) {
			if l.since > v.generation {
				ok = false
			}
			lists = append(lists, l.entries)
		})
	}
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	if len(lists) > 1 {
		multi = true
	}
	g := v.generation
	c := &PodCandidates{bySlot: make([]*NodeInfo, slots), start: make([]int32, slots+1)}
	v.nodes.each(func(_ int, ni *NodeInfo) {
		if s := int(ni.slot) - 1; s >= 0 && s < slots {
			c.bySlot[s] = ni
		}
	})
	present := func(e *indexEntry) bool {
		if e.added > g || int(e.slot) < 1 || int(e.slot) > slots {
			return false
		}
		r := atomic.LoadInt64(&e.removed)
		return r == 0 || r > g
	}
	total := 0
	for _, l := range lists {
		for i := range l {
			if e := &l[i]; present(e) {
				c.start[e.slot]++
				total++
			}
		}
	}
	// start[s+1] counted slot s; turn the counts into starts.
	for s := 1; s <= slots; s++ {
		c.start[s] += c.start[s-1]
	}
	c.pods = make([]*PodInfo, total)
	fill := make([]int32, slots)
	copy(fill, c.start[:slots])
	for _, l := range lists {
		for i := range l {
			if e := &l[i]; present(e) {
				s := e.slot - 1
				c.pods[fill[s]] = e.pod
				fill[s]++
			}
		}
	}
	if multi {
		c.dedupe()
	}
	return c, true
}

// eachList calls f with each list of the index under the query's
// namespaces, key and values.
// narrowest returns the equality requirement of q's selector whose
// postings hold the fewest entries, and that count; -1 when the selector
// has no equality requirement.
func (q *PodQuery) narrowest(x *podIndex) (best, n int) {
	best = -1
	for i := range q.Selector.NumRequirements() {
		key, values, eq := q.Selector.Equality(i)
		if !eq {
			continue
		}
		c := 0
		q.eachList(x, key, values, func(l *postings) { c += len(l.entries) })
		if best < 0 || c < n {
			best, n = i, c
		}
	}
	return best, n
}

func (q *PodQuery) eachList(x *podIndex, key string, values []string, f func(*postings)) {
	each := func(ns string) {
		for _, val := range values {
			if l := x.lists[labelKey{ns, key, val}]; l != nil {
				f(l)
			}
		}
	}
	if q.AllNamespaces {
		for _, val := range values {
			for _, ns := range x.namespaces[[2]string{key, val}] {
				f(x.lists[labelKey{ns, key, val}])
			}
		}
		return
	}
	if q.Namespaces == nil {
		each(q.Namespace)
		return
	}
	if _, dup := q.Namespaces[q.Namespace]; !dup && q.Namespace != "" {
		each(q.Namespace)
	}
	for ns := range q.Namespaces {
		each(ns)
	}
}

// dedupe keeps each pod once per slot, in place.
func (c *PodCandidates) dedupe() {
	out := c.pods[:0]
	var seen map[*PodInfo]struct{}
	prev := int32(0)
	for s := range len(c.bySlot) {
		lo, hi := c.start[s], c.start[s+1]
		c.start[s] = prev
		group := c.pods[lo:hi]
		first := len(out)
		if len(group) > 16 {
			if seen == nil {
				seen = make(map[*PodInfo]struct{}, len(group))
			}
			clear(seen)
		}
		for _, p := range group {
			dup := false
			if seen != nil && len(group) > 16 {
				_, dup = seen[p]
				seen[p] = struct{}{}
			} else {
				for _, q := range out[first:] {
					if q == p {
						dup = true
						break
					}
				}
			}
			if !dup {
				out = append(out, p)
			}
		}
		prev = int32(len(out))
	}
	c.start[len(c.bySlot)] = prev
	c.pods = out
}

// PodCounts is, per node of one view, how many pods each of the queries
// it was made for matches: exact counts, not candidates.
type PodCounts struct {
	// slots lists the view's NodeInfo of each slot (built on the first
	// Count, so that counts read only by domain cost no pass over the
	// nodes); n[q][s] is query q's count on slot s.
	slots slotTable
	n     [][]int32
}

// Count returns the number of pods on ni that query q matches, and false
// if ni is not a NodeInfo of the view the counts are of (the caller then
// tests ni.Pods itself).
func (c *PodCounts) Count(q int, ni *NodeInfo) (int32, bool) {
	if c == nil || !c.slots.has(ni) {
		return 0, false
	}
	return c.n[q][ni.slot-1], true
}

// AddByDomain adds query q's count on each node, times mul, to dst at
// the id of the node's domain in t (dst has t.NumIDs() entries),
// skipping the nodes without t's key. It returns the number of entries
// of dst it made non-zero (less those it made zero) and the sum of the
// counts it added. It reads no NodeInfo: its cost is in the number of
// slots, not in the nodes' memory. It reports false, adding nothing,
// when t is not the view's Topology of its key.
func (c *PodCounts) AddByDomain(q int, t *Topology, mul int64, dst []int64) (made int, matched int64, ok bool) {
	if c == nil || t == nil || c.slots.view.Topology(t.Key()) != t || len(dst) < t.NumIDs() {
		return 0, 0, false
	}
	made, matched = addByDomain(c.n[q], nil, mul, t, dst, nil)
	return made, matched, true
}

// addByDomain adds n[s]*mul (or w[s] when w is not nil) to dst at the
// domain id of slot s in t, and, when cnt is not nil, n[s] to cnt
// there. It returns the entries of dst made non-zero less those made
// zero, and the sum of the n[s] added.
func addByDomain(n []int32, w []int64, mul int64, t *Topology, dst []int64, cnt []int64) (made int, matched int64) {
	for s, k := range n {
		if k == 0 || s >= len(t.ids) {
			continue
		}
		id := t.ids[s]
		if id < 0 {
			continue
		}
		x := int64(k) * mul
		if w != nil {
			x = w[s]
		}
		old := dst[id]
		dst[id] += x
		if old == 0 && dst[id] != 0 {
			made++
		} else if old != 0 && dst[id] == 0 {
			made--
		}
		if cnt != nil {
			cnt[id] += int64(k)
		}
		matched += int64(k)
	}
	return made, matched
}

// slotTable is the NodeInfo of each slot of a view, made on first use.
type slotTable struct {
	view  *View
	n     int
	once  sync.Once
	nodes []*NodeInfo
}

// has reports whether ni is the view's NodeInfo of its slot.
func (t *slotTable) has(ni *NodeInfo) bool {
	t.once.Do(func() {
		t.nodes = make([]*NodeInfo, t.n)
		t.view.nodes.each(func(_ int, ni *NodeInfo) {
			if s := int(ni.slot) - 1; s >= 0 && s < t.n {
				t.nodes[s] = ni
			}
		})
	})
	s := int(ni.slot) - 1
	return s >= 0 && s < len(t.nodes) && t.nodes[s] == ni
}

// exactQuery reports whether every pod listed under q's namespaces and
// the values of its selector's one requirement matches q: the selector is
// Nothing, or a single =, == or In requirement whose values are distinct
// (each pod is then in one list at most).
func exactQuery(q *PodQuery) bool {
	if q.Selector.MatchesNothing() {
		return true
	}
	if q.Selector.NumRequirements() != 1 {
		return false
	}
	_, values, ok := q.Selector.Equality(0)
	if !ok {
		return false
	}
	for i := range values {
		for j := range i {
			if values[j] == values[i] {
				return false
			}
		}
	}
	return true
}

// CountPods counts, through the snapshot's pod index, the pods of the
// view each query matches on each node, reading the index's entries and
// no pod. It reports false when the index cannot count a query exactly:
// a selector other than Nothing or one =, == or In requirement with
// distinct values, a view not taken from a snapshot, or a view older
// than the last rebuild of a list it reads.
func (v *View) CountPods(queries []PodQuery) (*PodCounts, bool) {
	s := v.snap
	if s == nil {
		return nil, false
	}
	for i := range queries {
		if !exactQuery(&queries[i]) {
			return nil, false
		}
	}
	lists := make([][][]indexEntry, len(queries))
	s.mu.Lock()
	x := s.podIdx
	ok := x != nil
	slots := int(s.slots)
	for qi := 0; ok && qi < len(queries); qi++ {
		q := &queries[qi]
		if q.Selector.MatchesNothing() {
			continue
		}
		key, values, _ := q.Selector.Equality(0)
		q.eachList(x, key, values, func(l *postings) {
			if l.since > v.generation {
				ok = false
			}
			lists[qi] = append(lists[qi], l.entries)
		})
	}
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	g := v.generation
	c := &PodCounts{slots: slotTable{view: v, n: slots}, n: make([][]int32, len(queries))}
	for qi := range queries {
		n := make([]int32, slots)
		for _, l := range lists[qi] {
			for i := range l {
				e := &l[i]
				if e.added > g || int(e.slot) < 1 || int(e.slot) > slots {
					continue
				}
				if r := atomic.LoadInt64(&e.removed); r == 0 || r > g {
					n[e.slot-1]++
				}
			}
		}
		c.n[qi] = n
	}
	return c, true
}

// TermKind is a kind of a pod's pod (anti-)affinity terms.
type TermKind uint8

// The kinds of terms, as PodInfo holds them.
const (
	// RequiredAffinity is PodInfo.RequiredAffinityTerms.
	RequiredAffinity TermKind = iota
	// RequiredAntiAffinity is PodInfo.RequiredAntiAffinityTerms.
	RequiredAntiAffinity
	// PreferredAffinity is PodInfo.PreferredAffinityTerms.
	PreferredAffinity
	// PreferredAntiAffinity is PodInfo.PreferredAntiAffinityTerms.
	PreferredAntiAffinity
)

// termGroup is the pods whose term of one kind at one position of their
// list is the same term (with the same weight): the replicas of a
// workload, as a rule. A pod is in a group once, as its position names
// one term.
type termGroup struct {
	kind   TermKind
	term   affinity.AffinityTerm
	weight int32
	postings
}

// eachTerm calls f with the group key, kind, term and weight of each of
// p's terms. The key is x's scratch, valid during the call (looking it
// up as a map's string key does not allocate).
func (x *podIndex) eachTerm(p *PodInfo, f func(key []byte, kind TermKind, t *affinity.AffinityTerm, weight int32)) {
	one := func(kind TermKind, i int, t *affinity.AffinityTerm, w int32) {
		b := append(x.key[:0], byte(kind))
		b = binary.AppendUvarint(b, uint64(i))
		b = binary.AppendVarint(b, int64(w))
		b = t.AppendKey(b)
		x.key = b
		f(b, kind, t, w)
	}
	for i := range p.RequiredAffinityTerms {
		one(RequiredAffinity, i, &p.RequiredAffinityTerms[i], 0)
	}
	for i := range p.RequiredAntiAffinityTerms {
		one(RequiredAntiAffinity, i, &p.RequiredAntiAffinityTerms[i], 0)
	}
	for i := range p.PreferredAffinityTerms {
		one(PreferredAffinity, i, &p.PreferredAffinityTerms[i].AffinityTerm, p.PreferredAffinityTerms[i].Weight)
	}
	for i := range p.PreferredAntiAffinityTerms {
		one(PreferredAntiAffinity, i, &p.PreferredAntiAffinityTerms[i].AffinityTerm, p.PreferredAntiAffinityTerms[i].Weight)
	}
}

// TermCounts is, per node of one view and per topology key, how many
// terms of the node's pods a caller selected (View.CountTerms) and the
// sum of the values it gave them.
type TermCounts struct {
	slots slotTable
	// Keys are the topology keys of the selected terms; n[k][s] and
	// w[k][s] are key k's count and sum on slot s.
	Keys []string
	n    [][]int32
	w    [][]int64
}

// Has reports whether ni is a NodeInfo of the view the counts are of.
func (c *TermCounts) Has(ni *NodeInfo) bool {
	return c != nil && c.slots.has(ni)
}

// At returns the count and the sum of key k on ni, and false if ni is
// not a NodeInfo of the view the counts are of.
func (c *TermCounts) At(k int, ni *NodeInfo) (n int32, w int64, ok bool) {
	if !c.Has(ni) {
		return 0, 0, false
	}
	s := ni.slot - 1
	if c.w[k] == nil {
		return c.n[k][s], 0, true
	}
	return c.n[k][s], c.w[k][s], true
}

// AddByDomain adds key k's counts on each node to n (when not nil), and
// its sums to w (when not nil), at the id of the node's domain in t (n
// and w have t.NumIDs() entries), skipping the nodes without the key.
// It returns the number of entries of n it made non-zero (0 without n)
// and the sum of the counts it added. As PodCounts.AddByDomain, it reads no NodeInfo, and it
// reports false, adding nothing, when t is not the view's Topology of
// key k.
func (c *TermCounts) AddByDomain(k int, t *Topology, n, w []int64) (made int, matched int64, ok bool) {
	if c == nil || t == nil || t.Key() != c.Keys[k] || c.slots.view.Topology(t.Key()) != t || (n != nil && len(n) < t.NumIDs()) ||
		(w != nil && len(w) < t.NumIDs()) || (n == nil && w == nil) {
		return 0, 0, false
	}
	if n == nil {
		// The sums alone (made is then 0).
		if c.w[k] == nil {
			_, matched = addByDomain(c.n[k], nil, 0, t, w, nil)
		} else {
			_, matched = addByDomain(c.n[k], c.w[k], 1, t, w, nil)
		}
		return 0, matched, true
	}
	if w == nil {
		made, matched = addByDomain(c.n[k], nil, 1, t, n, nil)
		return made, matched, true
	}
	before := 0
	for _, x := range n[:t.NumIDs()] {
		if x != 0 {
			before++
		}
	}
	if c.w[k] == nil {
		// Every value was 0: the counts alone.
		_, matched = addByDomain(c.n[k], nil, 0, t, w, n)
	} else {
		_, matched = addByDomain(c.n[k], c.w[k], 1, t, w, n)
	}
	for _, x := range n[:t.NumIDs()] {
		if x != 0 {
			made++
		}
	}
	return made - before, matched, true
}

// CountTerms counts, through the snapshot's index of the pods' terms,
// the terms of the view's pods that selected chooses: it is called once
// per group of equal terms (of one kind, at one position of the pods'
// lists, with one weight), not once per pod, and gives the value each
// such term adds to its node's sum. Counts and sums are by node and by
// the term's topology key, whether or not the node has that label. It
// reports false when the index cannot answer: a view not taken from a
// snapshot, or one older than the last rebuild of a group it reads.
func (v *View) CountTerms(selected func(kind TermKind, t *affinity.AffinityTerm, weight int32) (int64, bool)) (*TermCounts, bool) {
	s := v.snap
	if s == nil {
		return nil, false
	}
	type group struct {
		g       *termGroup
		entries []indexEntry
	}
	var groups []group
	s.mu.Lock()
	x := s.podIdx
	ok := x != nil
	slots := int(s.slots)
	if ok {
		for _, g := range x.terms {
			if g.since > v.generation {
				ok = false
				break
			}
			if len(g.entries) > 0 {
				groups = append(groups, group{g, g.entries})
			}
		}
	}
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	g := v.generation
	c := &TermCounts{slots: slotTable{view: v, n: slots}}
	for _, gr := range groups {
		w, ok := selected(gr.g.kind, &gr.g.term, gr.g.weight)
		if !ok {
			continue
		}
		k := slices.Index(c.Keys, gr.g.term.TopologyKey)
		if k < 0 {
			k = len(c.Keys)
			c.Keys = append(c.Keys, gr.g.term.TopologyKey)
			c.n = append(c.n, make([]int32, slots))
			c.w = append(c.w, nil)
		}
		// The sums of a key made only once a term gives a value.
		if c.w[k] == nil && w != 0 {
			c.w[k] = make([]int64, slots)
		}
		n, sum := c.n[k], c.w[k]
		for i := range gr.entries {
			e := &gr.entries[i]
			if e.added > g || int(e.slot) < 1 || int(e.slot) > slots {
				continue
			}
			if r := atomic.LoadInt64(&e.removed); r == 0 || r > g {
				n[e.slot-1]++
				if sum != nil {
					sum[e.slot-1] += w
				}
			}
		}
	}
	c.sortKeys()
	return c, true
}

// sortKeys puts the keys in order, their counts with them, so that the
// counts do not depend on the order the groups were read in.
func (c *TermCounts) sortKeys() {
	for i := 1; i < len(c.Keys); i++ {
		for j := i; j > 0 && c.Keys[j] < c.Keys[j-1]; j-- {
			c.Keys[j], c.Keys[j-1] = c.Keys[j-1], c.Keys[j]
			c.n[j], c.n[j-1] = c.n[j-1], c.n[j]
			c.w[j], c.w[j-1] = c.w[j-1], c.w[j]
		}
	}
}
