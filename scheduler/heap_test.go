package scheduler

import (
	"container/heap"
	"testing"

	"pgregory.net/rapid"
)

// containerHeap is kube-scheduler's nodeScoreHeap over totals with every
// Randomizer 0, for container/heap.
type containerHeap struct {
	totals []int64
	idx    []int
}

func (h *containerHeap) Len() int           { return len(h.idx) }
func (h *containerHeap) Less(i, j int) bool { return h.totals[h.idx[i]] > h.totals[h.idx[j]] }
func (h *containerHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *containerHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *containerHeap) Pop() any {
	n := len(h.idx) - 1
	x := h.idx[n]
	h.idx = h.idx[:n]
	return x
}

// heapRoot picks the node container/heap's Init puts at the root, ties
// and all.
func TestPropHeapRootMatchesContainerHeap(t *testing.T) {
	s := &Scheduler{}
	rapid.Check(t, func(t *rapid.T) {
		totals := rapid.SliceOfN(rapid.Int64Range(0, rapid.Int64Range(0, 6).Draw(t, "spread")), 1, 2000).Draw(t, "totals")
		h := &containerHeap{totals: totals}
		for i := range totals {
			h.idx = append(h.idx, i)
		}
		heap.Init(h)
		if got := s.heapRoot(totals); got != h.idx[0] {
			t.Fatalf("heapRoot = %d, container/heap's root is %d", got, h.idx[0])
		}
	})
}

// heapRoot agrees with container/heap on every size up to 1,100 nodes
// with every node tied, and with the highest total on every third node.
func TestHeapRootTiedSizes(t *testing.T) {
	s := &Scheduler{}
	for n := 1; n <= 1100; n++ {
		for _, mod := range []int64{1, 3, 7} {
			totals := make([]int64, n)
			for i := range totals {
				totals[i] = int64(i*5) % mod
			}
			h := &containerHeap{totals: totals}
			for i := range totals {
				h.idx = append(h.idx, i)
			}
			heap.Init(h)
			if got := s.heapRoot(totals); got != h.idx[0] {
				t.Fatalf("n=%d mod=%d: heapRoot = %d, container/heap's root is %d", n, mod, got, h.idx[0])
			}
		}
	}
}
