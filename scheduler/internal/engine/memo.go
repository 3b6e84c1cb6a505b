package engine

import (
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// filterMemo keeps, by node slot, the Filter verdict of each node for
// one pod shape, so that a cycle for a pod of the shape of the last one
// filters only the nodes that changed since (in a stream of pods of one
// template, one node a pod). It keeps verdicts from the second cycle of
// a shape in a row on. A verdict is a function of the pod's shape,
// the node, the snapshot's objects and the active Filter plugins while
// each of those is node-local (framework.FastPath.NodeLocalFilter) and
// no pod is nominated (the filters then run without PreFilter
// extensions): the memo is used only then, keyed by the profile, the
// active filters (the skip mask), the objects and the shape, and each
// verdict by its NodeInfo and Generation. Error statuses are not kept.
//
// The verdicts are kept in pages of memoPageLen slots, each allocated
// when a slot of it is first written, so that a pass costs memory in
// proportion to the nodes it filters (a sampled first cycle filters a
// tenth of them). Entries of distinct slots are written by the
// goroutines of a pass concurrently, each node by the goroutine
// filtering it; a page is published by compare-and-swap, since nodes of
// one page may be filtered by several goroutines (PreFilter may leave
// any subset of the nodes). The page table is sized before the pass and
// never grown during it.
type filterMemo struct {
	shape   framework.PodShape
	prof    *framework.Profile
	mask    uint64
	objects *cluster.Objects
	// epoch numbers the key: an entry of another epoch is stale, so
	// that a new key costs no pass over the entries.
	epoch uint32
	// pages holds the verdict of slot sl at pages[sl>>memoPageBits]
	// [sl&memoPageMask]; a nil page holds none.
	pages []atomic.Pointer[memoPage]
	// maxSlot is the highest slot a pass met beyond pages, for the next
	// pass to size it.
	maxSlot atomic.Int64
	// scratch holds memoBlocks, one per goroutine filtering a block.
	scratch sync.Pool
	// hits counts the verdicts read (for tests); written by the pass's
	// goroutines.
	hits atomic.Int64
}

// memoVerdict is one node's verdict: valid while the node is ni at
// generation gen and the memo's epoch is epoch. st is nil for a node
// that passed.
type memoVerdict struct {
	ni    *cluster.NodeInfo
	gen   int64
	epoch uint32
	st    *framework.Status
}

// memoPageBits sets the slots of a memo page: 128 verdicts, 4 KiB.
const (
	memoPageBits = 7
	memoPageLen  = 1 << memoPageBits
	memoPageMask = memoPageLen - 1
)

// memoPage holds the verdicts of memoPageLen consecutive slots.
type memoPage [memoPageLen]memoVerdict

// memoBlock is filterMemo's scratch for one block of nodes.
type memoBlock struct {
	miss [filterBlock]*cluster.NodeInfo
	at   [filterBlock]int32
	st   [filterBlock]*framework.Status
}

// usable reports whether the verdicts of pi's filters not in mask can be
// kept for cycle c.
func (pi *profileInfo) memoUsable(c *Cycle, mask uint64) bool {
	if c.Objects == nil || len(c.Nominated) != 0 || len(pi.filters) == 0 {
		return false
	}
	for i := range pi.filters {
		if mask&(1<<uint(i)) == 0 && !pi.nodeLocal[i] {
			return false
		}
	}
	return true
}

// prepare readies the memo for a pass of cycle c with pi's filters not
// in mask, and returns it, or nil when the verdicts cannot be kept.
func (m *filterMemo) prepare(c *Cycle, pi *profileInfo, mask uint64) *filterMemo {
	if !pi.memoUsable(c, mask) {
		return nil
	}
	if m.prof != c.Profile || m.mask != mask || m.objects != c.Objects || !m.shape.Alike(c.Pod) {
		// No verdict is kept under the key yet: the shape is held
		// without a copy until one is (framework.PodShape.Refer).
		m.shape.Refer(c.Pod)
		m.prof, m.mask, m.objects = c.Profile, mask, c.Objects
		if m.epoch++; m.epoch == 0 {
			for i := range m.pages {
				if p := m.pages[i].Load(); p != nil {
					clear(p[:])
				}
			}
			m.epoch = 1
		}
		// The first cycle of a key keeps no verdict: it has none to read,
		// and a shape is often decided once (explain's pending pods, pods
		// of many shapes interleaved), while keeping a verdict a node
		// cost a third of SchedulingBasic's first decision over every
		// node.
		return nil
	}
	if m.shape.Referred() {
		// The key's second cycle keeps verdicts, for this pod's shape:
		// it is copied now.
		m.shape.Set(c.Pod)
	}
	m.size(max(int(m.maxSlot.Load())+1, len(c.Nodes)))
	if c.NumToFind >= len(c.Nodes) {
		// Every node is filtered: the pages are made at once, in one
		// allocation, rather than one by one in the pass.
		m.fill()
	}
	if m.scratch.New == nil {
		m.scratch.New = func() any { return new(memoBlock) }
	}
	return m
}

// size makes the page table cover the slots [0, n), before a pass.
func (m *filterMemo) size(n int) {
	if np := (n + memoPageMask) >> memoPageBits; np > len(m.pages) {
		pages := make([]atomic.Pointer[memoPage], np)
		for i := range m.pages {
			pages[i].Store(m.pages[i].Load())
		}
		m.pages = pages
	}
}

// fill makes every missing page, in one allocation, before a pass.
func (m *filterMemo) fill() {
	missing := 0
	for i := range m.pages {
		if m.pages[i].Load() == nil {
			missing++
		}
	}
	if missing == 0 {
		return
	}
	slab := make([]memoPage, missing)
	for i := range m.pages {
		if m.pages[i].Load() == nil {
			m.pages[i].Store(&slab[0])
			slab = slab[1:]
		}
	}
}

// get returns ni's kept verdict, nil when there is none for ni as it is.
func (m *filterMemo) get(ni *cluster.NodeInfo) *memoVerdict {
	sl := ni.Slot()
	pg := sl >> memoPageBits
	if sl < 0 || pg >= len(m.pages) {
		return nil
	}
	p := m.pages[pg].Load()
	if p == nil {
		return nil
	}
	if v := &p[sl&memoPageMask]; v.ni == ni && v.gen == ni.Generation && v.epoch == m.epoch {
		return v
	}
	return nil
}

// put keeps ni's verdict st (nil: it passed), unless it is an error.
func (m *filterMemo) put(ni *cluster.NodeInfo, st *framework.Status) {
	sl := ni.Slot()
	if sl < 0 || st.Code() == framework.Error {
		return
	}
	pg := sl >> memoPageBits
	if pg >= len(m.pages) {
		for {
			cur := m.maxSlot.Load()
			if int64(sl) <= cur || m.maxSlot.CompareAndSwap(cur, int64(sl)) {
				return
			}
		}
	}
	p := m.pages[pg].Load()
	if p == nil {
		// Another goroutine may make the page meanwhile: the first
		// published is kept.
		if p = new(memoPage); !m.pages[pg].CompareAndSwap(nil, p) {
			p = m.pages[pg].Load()
		}
	}
	p[sl&memoPageMask] = memoVerdict{ni: ni, gen: ni.Generation, epoch: m.epoch, st: st}
}

// filterOnNodes is pi.filterOnNodes with the verdicts of m: the nodes
// with a kept verdict take it, the others are filtered (a block at a
// time) and their verdicts kept. Its results are those of
// pi.filterOnNodes.
func (m *filterMemo) filterOnNodes(pi *profileInfo, j *filterJob, nodes []*cluster.NodeInfo, statuses []*framework.Status, passed []uint64, off int) int {
	fit := 0
	sb := m.scratch.Get().(*memoBlock)
	hits := 0
	for lo := 0; lo < len(nodes); lo += filterBlock {
		hi := min(lo+filterBlock, len(nodes))
		k := 0
		for i := lo; i < hi; i++ {
			ni := nodes[i]
			if v := m.get(ni); v != nil {
				hits++
				if v.st == nil {
					setBits(passed, off+i, 1)
					fit++
				} else {
					statuses[i] = v.st
				}
				continue
			}
			sb.miss[k], sb.at[k] = ni, int32(i)
			k++
		}
		if k == 0 {
			continue
		}
		var bits [1]uint64
		fit += pi.filterOnNodes(j.ctx, j.state, j.pod, sb.miss[:k], sb.st[:k], bits[:], 0, j.mask)
		for q := range k {
			i := int(sb.at[q])
			if bits[0]&(1<<uint(q)) != 0 {
				setBits(passed, off+i, 1)
				m.put(sb.miss[q], nil)
			} else {
				statuses[i] = sb.st[q]
				m.put(sb.miss[q], sb.st[q])
			}
		}
		clear(sb.miss[:k])
		clear(sb.st[:k])
	}
	if hits != 0 {
		m.hits.Add(int64(hits))
	}
	m.scratch.Put(sb)
	return fit
}

// MemoHits returns how many nodes' Filter verdicts cycles read from the
// engine's memo (for tests).
func (e *Engine) MemoHits() int64 { return e.memo.hits.Load() }
