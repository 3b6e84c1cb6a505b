package cluster

// NodeMemo keeps a value derived from each node of successive views (such
// as a node's contribution to a plugin's per-domain counts), recomputed
// only for the nodes whose NodeInfo or Generation changed since the last
// Sync. Its zero value is empty; it is not safe for concurrent use.
type NodeMemo[V any] struct {
	nodes []*NodeInfo
	gens  []int64
	vals  []V
}

// Sync brings the memo up to date with nodes, position by position: a
// value whose node is gone or changed is handed to change with sign -1
// before it is dropped, and each new value, computed by compute, is
// handed to change with sign +1, so that a caller keeping totals of the
// values updates them by the difference only.
func (m *NodeMemo[V]) Sync(nodes []*NodeInfo, compute func(*NodeInfo) V, change func(v *V, sign int64)) {
	for i := len(nodes); i < len(m.nodes); i++ {
		change(&m.vals[i], -1)
	}
	if len(m.nodes) > len(nodes) {
		clear(m.nodes[len(nodes):])
		clear(m.vals[len(nodes):])
		m.nodes, m.gens, m.vals = m.nodes[:len(nodes)], m.gens[:len(nodes)], m.vals[:len(nodes)]
	}
	for i, ni := range nodes {
		if i < len(m.nodes) {
			if m.nodes[i] == ni && m.gens[i] == ni.Generation {
				continue
			}
			change(&m.vals[i], -1)
		} else {
			var zero V
			m.nodes, m.gens, m.vals = append(m.nodes, nil), append(m.gens, 0), append(m.vals, zero)
		}
		m.vals[i] = compute(ni)
		change(&m.vals[i], 1)
		m.nodes[i], m.gens[i] = ni, ni.Generation
	}
}

// NewNodeMemo returns an empty NodeMemo with room for n nodes.
func NewNodeMemo[V any](n int) NodeMemo[V] {
	return NodeMemo[V]{nodes: make([]*NodeInfo, 0, n), gens: make([]int64, 0, n), vals: make([]V, 0, n)}
}
