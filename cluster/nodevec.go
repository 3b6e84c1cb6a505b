package cluster

// The snapshot keeps its node list in fixed-size chunks, so that a view,
// which must never change, can share every chunk the writer has not
// touched since: after one pod change the writer copies the small array
// of chunk pointers and the one chunk holding the changed node, not the
// whole list.
const (
	chunkBits = 7
	chunkLen  = 1 << chunkBits
	chunkMask = chunkLen - 1
)

// nodeChunk holds up to chunkLen consecutive nodes of a list.
type nodeChunk struct {
	// epoch is the snapshot epoch in which the writer made the chunk and
	// may still change it in place; see Snapshot.
	epoch uint64
	nodes [chunkLen]*NodeInfo
}

// nodeVec is a list of NodeInfos in chunks. A copy of a nodeVec (held by
// a view) is immutable as long as the writer calls its changing methods
// with an epoch newer than the one it had when the copy was made.
type nodeVec struct {
	chunks []*nodeChunk
	n      int
	// epoch is the snapshot epoch in which the writer owns chunks.
	epoch uint64
}

// len returns the number of nodes.
func (v *nodeVec) len() int { return v.n }

// at returns node i.
func (v *nodeVec) at(i int) *NodeInfo { return v.chunks[i>>chunkBits].nodes[i&chunkMask] }

// each calls f with each node in order.
func (v *nodeVec) each(f func(i int, ni *NodeInfo)) {
	for c, ch := range v.chunks {
		lo := c << chunkBits
		for j, ni := range ch.nodes[:min(chunkLen, v.n-lo)] {
			f(lo+j, ni)
		}
	}
}

// appendTo appends the nodes to dst.
func (v *nodeVec) appendTo(dst []*NodeInfo) []*NodeInfo {
	for c, ch := range v.chunks {
		dst = append(dst, ch.nodes[:min(chunkLen, v.n-c<<chunkBits)]...)
	}
	return dst
}

// ownChunks makes the chunk pointer array private to the writer.
func (v *nodeVec) ownChunks(epoch uint64) {
	if v.epoch != epoch {
		v.chunks = append(make([]*nodeChunk, 0, len(v.chunks)+1), v.chunks...)
		v.epoch = epoch
	}
}

// chunk returns chunk c for changing, copying it first if a view may
// hold it.
func (v *nodeVec) chunk(c int, epoch uint64) *nodeChunk {
	ch := v.chunks[c]
	if ch.epoch != epoch {
		v.ownChunks(epoch)
		cp := *ch
		cp.epoch = epoch
		ch = &cp
		v.chunks[c] = ch
	}
	return ch
}

// set replaces node i.
func (v *nodeVec) set(i int, ni *NodeInfo, epoch uint64) {
	v.chunk(i>>chunkBits, epoch).nodes[i&chunkMask] = ni
}

// push appends a node.
func (v *nodeVec) push(ni *NodeInfo, epoch uint64) {
	if v.n&chunkMask == 0 {
		v.ownChunks(epoch)
		v.chunks = append(v.chunks, &nodeChunk{epoch: epoch})
	}
	v.n++
	v.set(v.n-1, ni, epoch)
}

// pop drops the last node.
func (v *nodeVec) pop(epoch uint64) {
	v.set(v.n-1, nil, epoch)
	v.n--
	if v.n&chunkMask == 0 {
		v.ownChunks(epoch)
		v.chunks[len(v.chunks)-1] = nil
		v.chunks = v.chunks[:len(v.chunks)-1]
	}
}

// NodeList is a reusable flat list of a view's nodes, for a goroutine
// that walks the nodes of one view after another, as a scheduler does
// once per cycle: Update copies only the parts of the list that changed
// since the view it last listed, where View.Nodes makes a new list of
// every node for each view. The zero NodeList is ready to use; it must
// not be used by several goroutines at once.
type NodeList struct {
	nodes []*NodeInfo
	// chunks are the chunks nodes were copied from.
	chunks []*nodeChunk
}

// Update makes l list the nodes of v, in the order of v.Nodes(), and
// returns them. The slice is l's own and changes at the next Update; do
// not modify it or keep it past then.
func (l *NodeList) Update(v *View) []*NodeInfo { return l.update(v, nil) }

// update is Update, calling changed (when not nil) with each range
// [lo, hi) of positions it lists anew.
func (l *NodeList) update(v *View, changed func(lo, hi int)) []*NodeInfo {
	n := v.nodes.n
	old := len(l.nodes)
	if cap(l.nodes) < n {
		grown := make([]*NodeInfo, n, n+n/8)
		copy(grown, l.nodes)
		l.nodes = grown
	} else {
		if n < old {
			clear(l.nodes[n:old])
		}
		l.nodes = l.nodes[:n]
	}
	chunks := v.nodes.chunks
	for c, ch := range chunks {
		lo := c << chunkBits
		hi := min(lo+chunkLen, n)
		// A chunk a view holds never changes, so the same chunk holds
		// the same nodes; only the part of it listed before is known.
		if c < len(l.chunks) && l.chunks[c] == ch && hi <= old {
			continue
		}
		copy(l.nodes[lo:hi], ch.nodes[:hi-lo])
		if changed != nil {
			changed(lo, hi)
		}
	}
	if cap(l.chunks) < len(chunks) {
		l.chunks = make([]*nodeChunk, len(chunks), len(chunks)+len(chunks)/8+1)
	} else {
		if len(chunks) < len(l.chunks) {
			clear(l.chunks[len(chunks):])
		}
		l.chunks = l.chunks[:len(chunks)]
	}
	copy(l.chunks, chunks)
	return l.nodes
}
