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

// NodeChunkSize is the chunk size of a parallel pass over n nodes:
// kube-scheduler's ChunkSize rounded up to a multiple of 64 (so that
// chunks can keep per-node bits in whole words of their own), which also
// keeps what a chunk costs besides its nodes (dealing it out, each
// plugin's per-call setup) small next to them; at most MaxNodeChunk.
// Results do not depend on it.
func NodeChunkSize(n, parallelism int) int {
	return min(max((ChunkSize(n, parallelism)+63)&^63, 128), MaxNodeChunk)
}

// MaxNodeChunk bounds NodeChunkSize.
const MaxNodeChunk = 1024

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
// handing chunks between CPUs (whose caches then trade the lines both
// touch) costs more than it saves for a few hundred nodes.
var minParallelPieces = 1000

// ChunkDealer deals the chunk indexes [0, n) of a parallel job, each
// once, from the front or from the back. A job whose calling goroutine
// takes chunks from the front and helpers from the back has each
// goroutine write mostly the same part of the job's buffers from one job
// to the next, so that those stay in its CPU's cache. The zero value
// deals nothing; Reset starts a job.
type ChunkDealer struct {
	// ends packs the next chunk from the front (low 32 bits) and one
	// past the next chunk from the back (high 32 bits). It is written
	// for every chunk by every goroutine of the job, so it has a cache
	// line of its own: the fields around it are read for every chunk.
	_    [64]byte
	ends atomic.Uint64
	_    [56]byte
}

// Reset makes d deal [0, n).
func (d *ChunkDealer) Reset(n int) { d.ends.Store(uint64(n) << 32) }

// Front returns the lowest chunk not dealt; false when none is left.
func (d *ChunkDealer) Front() (int, bool) { return d.take(true) }

// Back returns the highest chunk not dealt; false when none is left.
func (d *ChunkDealer) Back() (int, bool) { return d.take(false) }

func (d *ChunkDealer) take(front bool) (int, bool) {
	for {
		e := d.ends.Load()
		lo, hi := uint32(e), uint32(e>>32)
		if lo >= hi {
			return 0, false
		}
		c, next := lo, uint64(hi)<<32|uint64(lo+1)
		if !front {
			c, next = hi-1, uint64(hi-1)<<32|uint64(lo)
		}
		if d.ends.CompareAndSwap(e, next) {
			return int(c), true
		}
	}
}

// chunkRun hands out the chunks of one untilChunks job: the calling
// goroutine takes them from the front, helpers from the back. It lives
// in the job's buffer, so that a parallel job allocates nothing.
type chunkRun struct {
	w             chunkWorker
	done          <-chan struct{}
	chunk, pieces int
	chunks        ChunkDealer
	helpers       HelpGroup
}

// Help does chunks from the back until none is left or the context is
// done.
func (r *chunkRun) Help() { r.run(false) }

func (r *chunkRun) run(front bool) {
	for {
		c, ok := r.chunks.take(front)
		if !ok {
			return
		}
		if r.done != nil {
			select {
			case <-r.done:
				return
			default:
			}
		}
		lo := c * r.chunk
		r.w.work(lo, min(lo+r.chunk, r.pieces))
	}
}

// untilChunks is Until handing out whole chunks: w.work(lo, hi) does the
// pieces [lo, hi). Chunks are checked against ctx one by one. It uses at
// most one goroutine per minParallelPieces pieces: the calling goroutine
// and helpers from a pool (see OfferHelp). r is the job's memory.
func (p Parallelizer) untilChunks(ctx context.Context, pieces, chunk int, r *chunkRun, w chunkWorker) {
	if pieces <= 0 {
		return
	}
	par := p.Parallelism()
	chunks := (pieces + chunk - 1) / chunk
	workers := min(par, chunks, max(1, pieces/minParallelPieces))
	r.w, r.done, r.chunk, r.pieces = w, ctx.Done(), chunk, pieces
	r.chunks.Reset(chunks)
	if workers > 1 {
		OfferHelp(r, workers-1, &r.helpers)
	}
	r.run(true)
	r.helpers.Wait()
	r.w, r.done = nil, nil
}
