package framework

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallelizer runs independent pieces of work on up to Parallelism
// goroutines, in chunks sized as kube-scheduler's: max(1, min(sqrt(n),
// n/parallelism+1)). Chunks are handed out in increasing order and the
// calling goroutine is one of the workers.
type Parallelizer struct {
	parallelism int
}

// NewParallelizer returns a Parallelizer; p < 1 means GOMAXPROCS.
func NewParallelizer(p int) Parallelizer {
	if p < 1 {
		p = runtime.GOMAXPROCS(0)
	}
	return Parallelizer{parallelism: p}
}

// Parallelism is the number of workers.
func (p Parallelizer) Parallelism() int {
	if p.parallelism < 1 {
		return 1
	}
	return p.parallelism
}

// ChunkSize is kube-scheduler's chunk size for n pieces over parallelism
// workers.
func ChunkSize(n, parallelism int) int {
	s := int(math.Sqrt(float64(n)))
	if r := n/parallelism + 1; s > r {
		s = r
	} else if s < 1 {
		s = 1
	}
	return s
}

// Until calls work(i) for every i in [0, pieces) until ctx is done. Pieces
// are checked against ctx one by one, as kube-scheduler's
// workqueue.ParallelizeUntil does.
func (p Parallelizer) Until(ctx context.Context, pieces int, work func(i int)) {
	if pieces <= 0 {
		return
	}
	par := p.Parallelism()
	chunk := ChunkSize(pieces, par)
	chunks := (pieces + chunk - 1) / chunk
	workers := min(par, chunks)
	done := ctx.Done()
	if workers <= 1 {
		for i := 0; i < pieces; i++ {
			if done != nil {
				select {
				case <-done:
					return
				default:
				}
			}
			work(i)
		}
		return
	}
	var next atomic.Int64
	run := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			end := min((c+1)*chunk, pieces)
			for i := c * chunk; i < end; i++ {
				if done != nil {
					select {
					case <-done:
						return
					default:
					}
				}
				work(i)
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}

// chunkWorker does the pieces [lo, hi) of a job; see untilChunks.
type chunkWorker interface {
	work(lo, hi int)
}

// untilChunks is Until handing out whole chunks: w.work(lo, hi) does the
// pieces [lo, hi). Chunks are checked against ctx one by one.
func (p Parallelizer) untilChunks(ctx context.Context, pieces int, w chunkWorker) {
	if pieces <= 0 {
		return
	}
	par := p.Parallelism()
	chunk := ChunkSize(pieces, par)
	chunks := (pieces + chunk - 1) / chunk
	workers := min(par, chunks)
	done := ctx.Done()
	if workers <= 1 {
		for c := range chunks {
			if done != nil {
				select {
				case <-done:
					return
				default:
				}
			}
			w.work(c*chunk, min((c+1)*chunk, pieces))
		}
		return
	}
	var next atomic.Int64
	run := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			if done != nil {
				select {
				case <-done:
					return
				default:
				}
			}
			w.work(c*chunk, min((c+1)*chunk, pieces))
		}
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}
