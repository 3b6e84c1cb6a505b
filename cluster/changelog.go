package cluster

// The change log lets a reader that keeps something per node (a
// NodeMemo) follow a snapshot from view to view by the nodes that
// changed, not by comparing every node's NodeInfo and Generation: the
// fixed cost of a cycle then does not grow with the number of nodes.
//
// The snapshot appends the position of every node it changes in place
// (a pod added or removed, a node updated, image states refreshed) to
// its log. A view keeps the log as it was when the view was made: the
// writer only appends, and never writes an entry a view can read, so
// views share the log's array without a copy. A log is valid while the
// nodes keep their positions: adding, removing or reordering nodes, a
// Fork or Reset, or a log grown past maxLogLen begins a new log at the
// next view, and a reader with a mark of another log compares every
// node once.

// logTag names one log. Marks hold it, so a tag is never reused while
// a mark can be compared with it.
type logTag struct{ _ byte }

// ChangeMark is a reader's place in a snapshot's log of node changes:
// the view it last caught up with. The zero ChangeMark is the place of
// a reader that saw no view.
type ChangeMark struct {
	tag *logTag
	n   int
}

// maxLogLen bounds a log of n nodes: past it a new log begins, so that
// a snapshot changed many times keeps little, and a reader left behind
// compares every node (about as costly as reading that many entries).
func maxLogLen(n int) int { return max(1024, 2*n) }

// restartLog drops the log: node positions changed, and the next view
// begins a new log.
func (s *Snapshot) restartLog() { s.logTag, s.logPos = nil, nil }

// logChange records that node i changed in place.
func (s *Snapshot) logChange(i int) {
	if s.logTag == nil {
		return // the next view begins a new log anyway
	}
	if len(s.logPos) >= maxLogLen(s.nodes.len()) {
		s.restartLog()
		return
	}
	s.logPos = append(s.logPos, int32(i))
}

// Mark returns the view's place in the snapshot's log of node changes,
// for a later view's ChangedSince.
func (v *View) Mark() ChangeMark { return ChangeMark{tag: v.logTag, n: len(v.changes)} }

// ChangedSince returns the positions in Nodes of the nodes changed
// between the view m was taken from and v, in the order they changed,
// with repeats: every node of v whose NodeInfo differs from the one at
// its position then is among them. It reports false when v cannot tell,
// because m is of another log (nodes came, went or moved between the
// two views, the snapshot was forked or reset, the log was restarted),
// or is the zero mark or later than v; the caller then compares every
// node. Do not modify the result.
func (v *View) ChangedSince(m ChangeMark) ([]int32, bool) {
	if m.tag == nil || m.tag != v.logTag || m.n > len(v.changes) {
		return nil, false
	}
	return v.changes[m.n:], true
}
