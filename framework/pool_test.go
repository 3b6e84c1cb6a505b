package framework

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countWork counts how often each piece is done.
type countWork struct{ done []atomic.Int32 }

func (w *countWork) work(lo, hi int) {
	for i := lo; i < hi; i++ {
		w.done[i].Add(1)
	}
}

// TestHelperPoolStress runs many parallel jobs from several goroutines at
// once, with pauses long enough for helpers to park, and checks that
// every piece of every job is done exactly once and that no job waits on
// another's helper (the test would hang).
func TestHelperPoolStress(t *testing.T) {
	defer SetMinParallelPieces(1)()
	callers, jobs := 6, 300
	if testing.Short() {
		jobs = 50
	}
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			p := NewParallelizer(1 + c%4)
			var r chunkRun
			for j := range jobs {
				n := 1 + (j*37+c*11)%700
				w := &countWork{done: make([]atomic.Int32, n)}
				p.untilChunks(context.Background(), n, NodeChunkSize(n, p.Parallelism()), &r, w)
				for i := range w.done {
					if got := w.done[i].Load(); got != 1 {
						t.Errorf("caller %d job %d: piece %d done %d times", c, j, i, got)
						return
					}
				}
				if j%50 == 0 {
					time.Sleep(2 * helperSpin) // let helpers park
				}
			}
		})
	}
	wg.Wait()
}

// TestChunkDealer checks that front and back takers share out every chunk
// exactly once.
func TestChunkDealer(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		var d ChunkDealer
		d.Reset(n)
		seen := make([]int, n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for {
					var c int
					var ok bool
					if g%2 == 0 {
						c, ok = d.Front()
					} else {
						c, ok = d.Back()
					}
					if !ok {
						return
					}
					mu.Lock()
					seen[c]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		for c, k := range seen {
			if k != 1 {
				t.Errorf("n=%d: chunk %d dealt %d times", n, c, k)
			}
		}
	}
}
