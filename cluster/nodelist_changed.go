package cluster

// UpdateChanged is Update, also calling changed with each range [lo, hi)
// of positions whose nodes it listed anew: every position outside them
// holds the same NodeInfo, unchanged, as at the previous Update (a chunk
// of nodes a view holds never changes). Positions past the previous
// Update's length are in some range. A cache that follows one list this
// way redoes only what changed since its last cycle, not every node.
func (l *NodeList) UpdateChanged(v *View, changed func(lo, hi int)) []*NodeInfo {
	return l.update(v, changed)
}
