package cluster

// NodeMemo keeps a value derived from each node of successive views (such
// as a node's contribution to a plugin's per-domain counts), recomputed
// only for the nodes whose NodeInfo or Generation changed since the last
// Sync. A node whose value is zero (one that adds nothing to the caller's
// totals, as a node without relevant pods) has no value stored, so that
// the memo of a cluster where few nodes matter holds little more than
// the nodes and their generations. Its zero value is empty; it is not
// safe for concurrent use.
type NodeMemo[V any] struct {
	nodes []*NodeInfo
	gens  []int64
	// at is, by position, 1 + the index in vals of the node's value, 0
	// when it has none.
	at []int32
	// vals holds the values in pages of memoPage, so that growing it
	// copies nothing; len is the number of values stored or freed.
	vals [][]V
	len  int32
	// free lists the indexes of values no node holds.
	free []int32
	// mark is the view of the last SyncView (zero after a Sync).
	mark ChangeMark
	// lazy marks, by position, a node of seed (the view of SeedView)
	// whose value was never computed (bit i%64 of lazy[i/64]); nil when
	// none is. A lazy position's nodes entry is nil: its node is seed's.
	lazy []uint64
	seed *View
	// seeded is the number of nodes SeedView recorded while nodes,
	// gens and at are not made yet (0 once they are); sparse then holds
	// the positions synced since, until they are too many
	// (sparseLimit).
	seeded int
	sparse map[int32]memoPos
	// compute is the compute of the last Sync or SyncView, which a lazy
	// position's value is computed with when it is dropped.
	compute func(ni *NodeInfo, v *V) bool
}

// memoPos is one position of a seeded memo whose arrays are not made:
// its node, generation and 1 + value index, as nodes, gens and at hold
// them.
type memoPos struct {
	node *NodeInfo
	gen  int64
	at   int32
}

// sparseLimit is the number of positions a seeded memo holds in its map
// before it makes its arrays: a few nodes changed since the seed (the
// replicas of a workload placed one by one) cost no arrays over every
// node.
func sparseLimit(n int) int { return max(16, n/64) }

// memoPage is the number of values in a page of NodeMemo.vals.
const memoPage = 256

// val returns the value of index j.
func (m *NodeMemo[V]) val(j int32) *V { return &m.vals[j/memoPage][j%memoPage] }

// Sync brings the memo up to date with nodes, position by position. For
// a node that is new or changed, compute writes its value into v (a slot
// of the memo holding the zero value) and reports whether it is non-zero;
// a zero value is not kept and never handed to change. A
// kept value whose node is gone or changed is handed to change with sign
// -1 (and a nil NodeInfo) before it is dropped, and each new non-zero
// value with sign +1 and the NodeInfo it was computed from, so that a
// caller keeping totals of the values updates them by the difference
// only.
func (m *NodeMemo[V]) Sync(nodes []*NodeInfo, compute func(ni *NodeInfo, v *V) bool, change func(v *V, ni *NodeInfo, sign int64)) {
	m.compute = compute
	defer func() { m.compute = nil }()
	m.makeSeeded()
	for i := len(nodes); i < len(m.nodes); i++ {
		m.drop(i, change)
	}
	if len(m.nodes) > len(nodes) {
		clear(m.nodes[len(nodes):])
		m.nodes, m.gens, m.at = m.nodes[:len(nodes)], m.gens[:len(nodes)], m.at[:len(nodes)]
		if m.lazy != nil {
			for i := len(nodes); i < len(m.lazy)*64; i++ {
				m.setLazy(i, false)
			}
		}
	}
	if old := len(m.nodes); old < len(nodes) {
		m.nodes = append(m.nodes, make([]*NodeInfo, len(nodes)-old)...)
		m.gens = append(m.gens, make([]int64, len(nodes)-old)...)
		m.at = append(m.at, make([]int32, len(nodes)-old)...)
	}
	for i, ni := range nodes {
		m.syncAt(i, ni, compute, change)
	}
	m.mark = ChangeMark{}
}

// SyncView is Sync with the nodes of view v, in the order of v.Nodes():
// when the memo last synced with an earlier view of the same log of
// node changes (View.ChangedSince), it recomputes the nodes logged since
// and reads no other node, so that following a snapshot costs what
// changed, not a pass over the nodes; otherwise it compares every node
// as Sync does. The values are those Sync would keep.
func (m *NodeMemo[V]) SyncView(v *View, nodes []*NodeInfo, compute func(ni *NodeInfo, v *V) bool, change func(v *V, ni *NodeInfo, sign int64)) {
	changed, ok := v.ChangedSince(m.mark)
	if !ok || len(nodes) != m.Len() || len(nodes) != v.NumNodes() {
		m.Sync(nodes, compute, change)
	} else if len(changed) > 0 {
		if m.seeded > 0 && len(m.sparse)+len(changed) > sparseLimit(m.seeded) {
			m.makeSeeded()
		}
		m.compute = compute
		for _, i := range changed {
			m.syncAt(int(i), nodes[i], compute, change)
		}
		m.compute = nil
	}
	m.mark = v.Mark()
}

// Current reports whether the memo is in sync with view v: its last
// SyncView was with v, or with an earlier view of the same log of node
// changes and no node changed since. SyncView with v then changes
// nothing (a caller may skip listing v's nodes for it).
func (m *NodeMemo[V]) Current(v *View) bool {
	changed, ok := v.ChangedSince(m.mark)
	return ok && len(changed) == 0 && m.Len() == v.NumNodes()
}

// SeedView is a first SyncView (of an empty memo) whose caller has added
// the values of every node of view v to its totals by other means, such
// as the snapshot's indexes: it records the nodes of v as synced without
// reading them or computing their values (nor listing them: it keeps v
// until they have all changed). A seeded node's value is computed only when the node
// changes or goes, from its NodeInfo of v (a view's NodeInfos never
// change), by the compute of that Sync or SyncView, and handed to change
// with sign -1, as a kept value would be. The caller's totals must be
// those of the values compute gives, or later syncs follow them wrongly.
func (m *NodeMemo[V]) SeedView(v *View) {
	m.Sync(nil, func(*NodeInfo, *V) bool { return false }, func(*V, *NodeInfo, int64) {})
	n := v.NumNodes()
	m.nodes, m.gens, m.at, m.seeded, m.sparse = nil, nil, nil, n, nil
	m.lazy = make([]uint64, (n+63)/64)
	for i := range m.lazy {
		m.lazy[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		m.lazy[len(m.lazy)-1] = 1<<r - 1
	}
	m.seed = v
	m.mark = v.Mark()
}

// makeSeeded makes the positions SeedView recorded, if not made yet:
// the first sync after it that recomputes a node pays for them.
func (m *NodeMemo[V]) makeSeeded() {
	if n := m.seeded; n > 0 {
		m.nodes, m.gens, m.at, m.seeded = make([]*NodeInfo, n), make([]int64, n), make([]int32, n), 0
		for i, p := range m.sparse {
			m.nodes[i], m.gens[i], m.at[i] = p.node, p.gen, p.at
		}
		m.sparse = nil
	}
}

// pos returns position i's node, generation and 1 + value index.
func (m *NodeMemo[V]) pos(i int) memoPos {
	if m.seeded > 0 {
		return m.sparse[int32(i)]
	}
	return memoPos{m.nodes[i], m.gens[i], m.at[i]}
}

// setPos sets position i.
func (m *NodeMemo[V]) setPos(i int, p memoPos) {
	if m.seeded > 0 {
		if m.sparse == nil {
			m.sparse = map[int32]memoPos{}
		}
		m.sparse[int32(i)] = p
		return
	}
	m.nodes[i], m.gens[i], m.at[i] = p.node, p.gen, p.at
}

// lazyNode returns the NodeInfo of seed at lazy position i, or nil if
// i is not lazy.
func (m *NodeMemo[V]) lazyNode(i int) *NodeInfo {
	if i/64 >= len(m.lazy) || m.lazy[i/64]&(1<<(i%64)) == 0 || i >= m.seed.nodes.len() {
		return nil
	}
	return m.seed.nodes.at(i)
}

// isLazy reports whether position i is a seeded node whose value was
// never computed.
func (m *NodeMemo[V]) isLazy(i int) bool {
	return i/64 < len(m.lazy) && m.lazy[i/64]&(1<<(i%64)) != 0
}

// setLazy sets or clears position i's lazy bit.
func (m *NodeMemo[V]) setLazy(i int, on bool) {
	if i/64 >= len(m.lazy) {
		return
	}
	if on {
		m.lazy[i/64] |= 1 << (i % 64)
	} else {
		m.lazy[i/64] &^= 1 << (i % 64)
	}
}

// syncAt brings position i up to date with ni.
func (m *NodeMemo[V]) syncAt(i int, ni *NodeInfo, compute func(ni *NodeInfo, v *V) bool, change func(v *V, ni *NodeInfo, sign int64)) {
	if p := m.pos(i); p.node == ni && p.gen == ni.Generation {
		return
	}
	if old := m.lazyNode(i); old != nil && old == ni {
		return
	}
	m.drop(i, change)
	j := m.slot()
	p := memoPos{node: ni, gen: ni.Generation}
	if v := m.val(j); compute(ni, v) {
		m.free = m.free[:len(m.free)-1]
		p.at = j + 1
		change(v, ni, 1)
	} else {
		var zero V
		*v = zero
	}
	m.setPos(i, p)
}

// slot returns the index of a value no node holds, the last of free
// (which holds the zero value).
func (m *NodeMemo[V]) slot() int32 {
	if n := len(m.free); n > 0 {
		return m.free[n-1]
	}
	j := m.len
	if int(j/memoPage) == len(m.vals) {
		m.vals = append(m.vals, make([]V, memoPage))
	}
	m.len++
	m.free = append(m.free, j)
	return j
}

// drop hands the value of position i, if any, to change with sign -1
// and frees it.
func (m *NodeMemo[V]) drop(i int, change func(v *V, ni *NodeInfo, sign int64)) {
	if old := m.lazyNode(i); old != nil || m.isLazy(i) {
		// The value of a seeded node, computed from the NodeInfo it
		// was seeded with.
		m.setLazy(i, false)
		if old != nil {
			j := m.slot()
			v := m.val(j)
			if m.compute(old, v) {
				change(v, nil, -1)
			}
			var zero V
			*v = zero
		}
		return
	}
	p := m.pos(i)
	j := p.at - 1
	if j < 0 {
		return
	}
	v := m.val(j)
	change(v, nil, -1)
	var zero V
	*v = zero
	m.free = append(m.free, j)
	p.at = 0
	m.setPos(i, p)
}

// Len returns the number of nodes of the last Sync (0 before the first).
func (m *NodeMemo[V]) Len() int { return len(m.nodes) + m.seeded }

// NewNodeMemo returns an empty NodeMemo with room for n nodes.
func NewNodeMemo[V any](n int) NodeMemo[V] {
	return NodeMemo[V]{nodes: make([]*NodeInfo, 0, n), gens: make([]int64, 0, n), at: make([]int32, 0, n)}
}
