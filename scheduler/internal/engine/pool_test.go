package engine

import (
	"context"
	"runtime"
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
	callers, jobs := 6, 300
	if testing.Short() {
		jobs = 50
	}
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			e := New(1 + c%4)
			defer e.Close()
			e.SetMinParallelPieces(1)
			var r chunkRun
			for j := range jobs {
				n := 1 + (j*37+c*11)%700
				w := &countWork{done: make([]atomic.Int32, n)}
				e.untilChunks(context.Background(), n, nodeChunkSize(n, e.Parallelism()), &r, w)
				for i := range w.done {
					if got := w.done[i].Load(); got != 1 {
						t.Errorf("caller %d job %d: piece %d done %d times", c, j, i, got)
						return
					}
				}
				if j%50 == 0 {
					time.Sleep(2 * defaultSpin) // let helpers park
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
		var d chunkDealer
		d.reset(n)
		seen := make([]int, n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for {
					var c int
					var ok bool
					c, ok = d.take(g%2 == 0)
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

// TestCloseLeavesNoGoroutine: after Close, the engine's helpers have
// exited: the process has the goroutines it had before New.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := settledGoroutines()
	e := New(4)
	e.SetMinParallelPieces(1)
	var r chunkRun
	for n := range 2000 {
		w := &countWork{done: make([]atomic.Int32, n%700+1)}
		e.untilChunks(context.Background(), len(w.done), 64, &r, w)
	}
	if e.pool.n.Load() == 0 {
		t.Fatal("no helper was started")
	}
	e.Close()
	e.Close() // a second Close is harmless
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("%d goroutines after Close, %d before New", got, before)
	}
	// A closed engine still runs jobs, on the calling goroutine.
	w := &countWork{done: make([]atomic.Int32, 500)}
	e.untilChunks(context.Background(), 500, 64, &r, w)
	for i := range w.done {
		if w.done[i].Load() != 1 {
			t.Fatalf("piece %d done %d times", i, w.done[i].Load())
		}
	}
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("%d goroutines after a job on a closed engine, %d before New", got, before)
	}
}

// settledGoroutines returns the number of goroutines once goroutines of
// earlier tests that are on their way out have gone.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// goroutinesAtMost waits up to a second for the number of goroutines to
// drop to n and returns it.
func goroutinesAtMost(n int) int {
	got := runtime.NumGoroutine()
	for i := 0; got > n && i < 1000; i++ {
		time.Sleep(time.Millisecond)
		got = runtime.NumGoroutine()
	}
	return got
}
