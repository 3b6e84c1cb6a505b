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

// minParallelPieces is the fewest pieces untilChunks gives each
// goroutine: a smaller job is done by the calling goroutine alone, as
// waking another costs more than it saves for a few hundred nodes (and
// far more on a busy machine).
var minParallelPieces = 1000

// chunkRun hands out the chunks of one untilChunks job to the calling
// goroutine and its helpers. It lives in the job's buffer, so that a
// parallel job allocates nothing.
type chunkRun struct {
	w             chunkWorker
	done          <-chan struct{}
	chunk, pieces int
	chunks        int64
	next          atomic.Int64
	wg            sync.WaitGroup
}

// Help does chunks until none is left or the context is done.
func (r *chunkRun) Help() {
	for {
		c := r.next.Add(1) - 1
		if c >= r.chunks {
			return
		}
		if r.done != nil {
			select {
			case <-r.done:
				return
			default:
			}
		}
		lo := int(c) * r.chunk
		r.w.work(lo, min(lo+r.chunk, r.pieces))
	}
}

// untilChunks is Until handing out whole chunks: w.work(lo, hi) does the
// pieces [lo, hi). Chunks are checked against ctx one by one. It uses at
// most one goroutine per minParallelPieces pieces: the calling goroutine
// and helpers from a pool (see OfferHelp). r is the job's memory.
func (p Parallelizer) untilChunks(ctx context.Context, pieces int, r *chunkRun, w chunkWorker) {
	if pieces <= 0 {
		return
	}
	par := p.Parallelism()
	chunk := ChunkSize(pieces, par)
	chunks := (pieces + chunk - 1) / chunk
	workers := min(par, chunks, max(1, pieces/minParallelPieces))
	r.w, r.done, r.chunk, r.pieces, r.chunks = w, ctx.Done(), chunk, pieces, int64(chunks)
	r.next.Store(0)
	if workers > 1 {
		OfferHelp(r, workers-1, &r.wg)
	}
	r.Help()
	r.wg.Wait()
	r.w, r.done = nil, nil
}

// Helper is a job that several goroutines can share: Help does parts of
// it until none is left, and must be safe to call from several goroutines
// at once.
type Helper interface {
	Help()
}

type helpTask struct {
	h  Helper
	wg *sync.WaitGroup
}

// The pool of helper goroutines: each waits on helpTasks for a job,
// helps with it, and waits again, so that a parallel job costs neither a
// goroutine start nor an allocation once the pool has grown. A job is
// offered to idle helpers only; it never waits for a busy one.
//
// This is the module's one piece of package-level mutable state, kept on
// purpose: it is a process-wide set of parked goroutines, like the Go
// runtime's own, shared by every scheduler so that none leaks goroutines.
// It holds no scheduling state (a parked helper keeps no job), and no
// result depends on which goroutine, or how many, helped.
var (
	helpTasks = make(chan helpTask)
	helpersMu sync.Mutex
	helpers   int
)

// maxHelpers bounds the pool.
const maxHelpers = 64

// OfferHelp hands h to up to n helpers: idle ones, then new ones while
// the pool is smaller than its bound. Each calls wg.Done once its Help
// returns; OfferHelp does not wait, and the caller is expected to call
// h.Help itself too, then wg.Wait.
func OfferHelp(h Helper, n int, wg *sync.WaitGroup) {
	for range n {
		wg.Add(1)
		t := helpTask{h, wg}
		select {
		case helpTasks <- t:
			continue
		default:
		}
		helpersMu.Lock()
		grow := helpers < maxHelpers
		if grow {
			helpers++
		}
		helpersMu.Unlock()
		if !grow {
			wg.Done()
			return
		}
		go helpLoop(t)
	}
}

func helpLoop(t helpTask) {
	for {
		t.h.Help()
		wg := t.wg
		// Hold on to nothing of the job while waiting for the next.
		t = helpTask{}
		wg.Done()
		t = <-helpTasks
	}
}
