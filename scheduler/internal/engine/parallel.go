package engine

import (
	"context"
	"math"
	"sync/atomic"
)

// chunkSize is kube-scheduler's chunk size for n pieces over parallelism
// workers: max(1, min(sqrt(n), n/parallelism+1)).
func chunkSize(n, parallelism int) int {
	s := int(math.Sqrt(float64(n)))
	if r := n/parallelism + 1; s > r {
		s = r
	} else if s < 1 {
		s = 1
	}
	return s
}

// nodeChunkSize is the chunk size of a parallel pass over n nodes:
// kube-scheduler's chunk size rounded up to a multiple of 64 (so that
// chunks can keep per-node bits in whole words of their own), which also
// keeps what a chunk costs besides its nodes (dealing it out, each
// plugin's per-call setup) small next to them; at most maxNodeChunk.
// Results do not depend on it.
func nodeChunkSize(n, parallelism int) int {
	return min(max((chunkSize(n, parallelism)+63)&^63, 128), maxNodeChunk)
}

// maxNodeChunk bounds nodeChunkSize.
const maxNodeChunk = 1024

// chunkWorker does the pieces [lo, hi) of a job; see untilChunks.
type chunkWorker interface {
	work(lo, hi int)
}

// chunkDealer deals the chunk indexes [0, n) of a parallel job, each
// once, from the front or from the back. A job whose calling goroutine
// takes chunks from the front and helpers from the back has each
// goroutine write mostly the same part of the job's buffers from one job
// to the next, so that those stay in its CPU's cache. The zero value
// deals nothing; reset starts a job.
type chunkDealer struct {
	// ends packs the next chunk from the front (low 32 bits) and one
	// past the next chunk from the back (high 32 bits). It is written
	// for every chunk by every goroutine of the job, so it has a cache
	// line of its own: the fields around it are read for every chunk.
	_    [64]byte
	ends atomic.Uint64
	_    [56]byte
}

// reset makes d deal [0, n).
func (d *chunkDealer) reset(n int) { d.ends.Store(uint64(n) << 32) }

// take returns the lowest (front) or highest chunk not dealt; false
// when none is left.
func (d *chunkDealer) take(front bool) (int, bool) {
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
	chunks        chunkDealer
	helpers       helpGroup
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

// untilChunks calls w.work(lo, hi) for the chunks [lo, hi) of [0,
// pieces), each once, checking ctx chunk by chunk. It uses at most one
// goroutine per e.minParallelPieces pieces: the calling goroutine and
// helpers from e's pool. r is the job's memory.
func (e *Engine) untilChunks(ctx context.Context, pieces, chunk int, r *chunkRun, w chunkWorker) {
	if pieces <= 0 {
		return
	}
	chunks := (pieces + chunk - 1) / chunk
	workers := min(e.parallelism, chunks, max(1, pieces/e.minParallelPieces))
	r.w, r.done, r.chunk, r.pieces = w, ctx.Done(), chunk, pieces
	r.chunks.reset(chunks)
	if workers > 1 {
		e.pool.offer(r, workers-1, &r.helpers)
	}
	r.run(true)
	r.helpers.Wait()
	r.w, r.done = nil, nil
}
