package manifest

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A large List's items are decoded on every core: the reading goroutine
// delimits the items (the validating scan) and copies them into chunks;
// workers, each with a Reader of its own (its decoder, interned strings
// and key stack), decode a chunk's items into their objects and the
// effects each item has on what is read (objects, errors, warnings,
// counts). The effects are applied by the reading Reader in the items'
// order once the List is known to be one, as the sequential path applies
// them: the objects, their order, the errors and their order are the
// same (TestParallelItemsSameAsSequential).

// itemChunkSize is how many bytes of items a chunk holds before it is
// handed to a worker.
const itemChunkSize = 256 << 10

// itemWorkers is how many workers decode a streamed List's items: one a
// core, or none (1) when the Reader is told to read sequentially.
func (r *Reader) itemWorkers() int {
	if r.workers > 0 {
		return r.workers
	}
	return runtime.GOMAXPROCS(0)
}

// itemChunk is a run of consecutive items: their bytes, sources and,
// once decoded, their effects.
type itemChunk struct {
	buf   []byte
	srcs  []Source
	ends  []int // item k is buf[ends[k-1]:ends[k]]
	apply []itemApply
}

// itemPool hands chunks of items to its workers and collects their
// effects in order.
type itemPool struct {
	jobs   chan *itemChunk
	free   chan []byte
	chunks []*itemChunk
	cur    *itemChunk
	size   int // bytes a chunk holds before it is handed on
	wg     sync.WaitGroup
	once   sync.Once
	// dropped: the List failed (a syntax or read error, a cancelled
	// context); what is queued is not decoded.
	dropped atomic.Bool
}

// newItemPool starts n workers decoding for r.
func newItemPool(r *Reader, n int) *itemPool {
	size := r.itemChunk
	if size <= 0 {
		size = itemChunkSize
	}
	p := &itemPool{jobs: make(chan *itemChunk, n), free: make(chan []byte, 3*n+1), size: size}
	for range n {
		w := r.worker()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for c := range p.jobs {
				if p.dropped.Load() {
					continue
				}
				c.apply = make([]itemApply, len(c.ends))
				start := 0
				for k, end := range c.ends {
					if p.dropped.Load() {
						break
					}
					c.apply[k] = w.streamedItem(c.srcs[k], c.buf[start:end])
					start = end
				}
				// Nothing decoded keeps the chunk's bytes (strings are
				// copied, items decoded later cloned): they are reused.
				select {
				case p.free <- c.buf[:0]:
				default:
				}
				c.buf = nil
			}
		}()
	}
	return p
}

// worker returns a Reader that decodes for r: the kinds r reads, its own
// decoding state; its effects are applied to r.
func (r *Reader) worker() *Reader {
	w := &Reader{kinds: r.kinds, dec: newDecoder(), validate: r.validate, draFeatures: r.draFeatures}
	w.dec.shareLists = r.dec.shareLists
	return w
}

// add copies the item b, read from src, into the current chunk, handing
// the chunk to a worker when it is full.
func (p *itemPool) add(src Source, b []byte) {
	if p.cur == nil {
		var buf []byte
		select {
		case buf = <-p.free:
		default:
			buf = make([]byte, 0, p.size+p.size/4)
		}
		p.cur = &itemChunk{buf: buf}
	}
	c := p.cur
	c.buf = append(c.buf, b...)
	c.srcs = append(c.srcs, src)
	c.ends = append(c.ends, len(c.buf))
	if len(c.buf) >= p.size {
		p.flush()
	}
}

// flush hands the current chunk to a worker.
func (p *itemPool) flush() {
	if p.cur == nil {
		return
	}
	p.chunks = append(p.chunks, p.cur)
	p.jobs <- p.cur
	p.cur = nil
}

// drop ends the workers without decoding what is queued.
func (p *itemPool) drop() {
	p.dropped.Store(true)
	p.stop()
}

// stop ends the workers once they have decoded what they were given.
func (p *itemPool) stop() {
	p.once.Do(func() {
		close(p.jobs)
		p.wg.Wait()
	})
}

// wait decodes what is left and returns every item's effects in order.
func (p *itemPool) wait() []itemApply {
	p.flush()
	p.stop()
	n := 0
	for _, c := range p.chunks {
		n += len(c.apply)
	}
	out := make([]itemApply, 0, n)
	for _, c := range p.chunks {
		out = append(out, c.apply...)
	}
	p.chunks = nil
	return out
}
