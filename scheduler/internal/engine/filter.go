package engine

import (
	"context"
	"fmt"
	mbits "math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// filterScratch is a filtering pass's memory, kept from cycle to cycle. A
// pass records its outcome compactly, one bit per node that passed and
// the number of the pass for each chunk that ran, and nothing is cleared
// between passes: the cycle's goroutine reads little of what helpers
// wrote and writes nothing they write next time, since on many machines a
// cache line moving between CPUs costs more than filtering a node.
type filterScratch struct {
	passBits  []uint64 // per chunk, bitStride words: bit i, the chunk's node i passed every filter
	chunkPass []uint32 // per chunk, at c*passStride: the number of the pass that last ran it
	pass      uint32
	status    []*framework.Status // the status of each node that did not pass
	chunkCnt  []int32
	chunkEnd  []bool
	feasible  []*cluster.NodeInfo
	pos       []*cluster.NodeInfo // eager scoring: each chunk's passing nodes first
	job       filterJob
	helpers   helpGroup
}

// filterPass filters c.Nodes from c.Start until c.NumToFind nodes fit.
// Nodes are filtered in parallel chunks, but the outcome is that of
// kube-scheduler with one goroutine (the scheduler's plain cycle): the
// first nodes to fit in rotation order, and the rejected nodes met before
// the next fitting one, recorded in c.Diagnosis when none fits.
//
// With eager set (see Engine.Run), it runs the early PreScore plugins
// (startEager) and, if they let it, scores each chunk's
// passing nodes right after filtering the chunk, on the same goroutine,
// while their data is in its cache; the feasible list is then not built
// (the result's fit counts the nodes, run.node gives them).
func (e *Engine) filterPass(ctx context.Context, c *Cycle, pi *profileInfo, eager bool) passResult {
	nodes := c.Nodes
	numAll := len(nodes)
	numToFind := c.NumToFind
	fs := &e.filter
	feasible := fs.feasible[:0]
	if numAll == 0 {
		return passResult{feasible: feasible}
	}
	numToFind = min(numToFind, numAll)
	start := c.Start
	if len(pi.filters) == 0 {
		for i := range numToFind {
			feasible = append(feasible, nodes[(start+i)%numAll])
		}
		fs.feasible = feasible
		return passResult{feasible: feasible}
	}
	if k := min(numToFind, maxNodeChunk); cap(feasible) < k && !eager {
		// Room for the nodes to find at once (up to a chunk's worth),
		// rather than by doubling.
		feasible = make([]*cluster.NodeInfo, 0, k)
	}
	mask := pi.skipMask(c.State)
	memo := e.memo.prepare(c, pi, mask)
	par := e.parallelism
	chunk := nodeChunkSize(numAll, par) // a multiple of 64
	helpers := 0
	if e.helpersPay(numAll, numToFind, eager) {
		helpers = min(par, (numAll+chunk-1)/chunk) - 1
	} else if numToFind == numAll {
		// One goroutine filtering every node: chunks would only add
		// their cost.
		chunk = maxNodeChunk
	}
	if helpers > 0 && eager {
		chunk = min(chunk, max(eagerChunk, (numAll/(8*par)+63)&^63))
		helpers = min(par, (numAll+chunk-1)/chunk) - 1
	}
	chunks := (numAll + chunk - 1) / chunk
	stride := bitStride(chunk)
	// A pass shared with helpers sizes the statuses for every node
	// first; a pass on one goroutine as it goes (filterJob.growStatus),
	// since a sampled pass reaches a tenth of the nodes.
	var status []*framework.Status
	if helpers > 0 {
		fs.status = grow(fs.status, numAll)
		status = fs.status[:numAll]
	} else {
		status = fs.status[:min(cap(fs.status), numAll)]
	}
	fs.passBits = grow(fs.passBits, chunks*stride)
	if cap(fs.chunkCnt) < chunks {
		fs.chunkCnt = make([]int32, chunks)
		fs.chunkEnd = make([]bool, chunks)
	}
	if cap(fs.chunkPass) < chunks*passStride {
		fs.chunkPass = grow(fs.chunkPass, chunks*passStride)
	}
	passBits := fs.passBits[:chunks*stride]
	chunkCnt, chunkEnd, chunkPass := fs.chunkCnt[:chunks], fs.chunkEnd[:chunks], fs.chunkPass[:chunks*passStride]
	clear(chunkEnd)
	if fs.pass++; fs.pass == 0 {
		clear(fs.chunkPass[:cap(fs.chunkPass)])
		fs.pass = 1
	}
	pass := fs.pass

	// With eager scoring, helpers are offered the pass at once (they
	// filter while PreScore runs); otherwise once the calling goroutine
	// has filtered a chunk, so that a pass that finds its nodes quickly
	// stays on one goroutine.
	offerLater := helpers
	if eager {
		fs.pos = grow(fs.pos, numAll)
		offerLater = 0
	}
	j := &fs.job
	*j = filterJob{
		pi: pi, mask: mask, pool: e.pool, ctx: ctx, state: c.State, pod: c.Pod, nodes: nodes, nominated: c.Nominated, done: ctx.Done(),
		start: start, numToFind: numToFind, chunk: chunk, chunks: chunks,
		passBits: passBits, stride: stride, chunkPass: chunkPass, pass: pass, status: status, chunkCnt: chunkCnt, chunkEnd: chunkEnd,
		helpersWanted: offerLater, helpAfter: chunk, helpers: &fs.helpers,
		fromBack: numToFind == numAll, eager: eager, pos: fs.pos, memo: memo,
	}
	j.pubCond.L = &j.pubMu
	j.limit.Store(int64(numAll))
	j.firstFailed.Store(int64(numAll))
	j.deal.reset(chunks)
	var run *scoreRun
	if eager {
		// Helpers start filtering now; they score once the run is
		// published, after the early PreScore.
		if helpers > 0 {
			e.pool.offer(j, helpers, j.helpers)
		}
		run = e.publishEager(ctx, c, pi, chunk, j)
	}
	j.run(true)
	j.helpers.Wait()
	if status = j.status; cap(status) > cap(fs.status) {
		fs.status = status
	}

	if run != nil && j.firstFailed.Load() == int64(numAll) && ctx.Err() == nil {
		// Every node was filtered, and those that passed scored: unless
		// fewer than two passed (the cycle then needs the node, or the
		// diagnosis), only their number is needed.
		fit := 0
		for c := range chunks {
			if chunkPass[c*passStride] != pass {
				fit = -1 // not run
				break
			}
			for _, w := range passBits[c*stride : c*stride+(min(chunk, numAll-c*chunk)+63)>>6] {
				fit += mbits.OnesCount64(w)
			}
		}
		if fit >= 2 {
			*j = filterJob{}
			return passResult{feasible: feasible, fit: fit, rejected: numAll - fit, run: run}
		}
	}

	var err error
	last := int(min(j.limit.Load(), int64(numAll-1)))
	// The rejected nodes are only counted here: a cycle that finds a
	// node drops its diagnosis, so the per-node statuses are recorded
	// only when none fits (or when the nominated node's pass already
	// recorded one, which the count must not take twice).
	nrej, stop := 0, last+1
	firstFailed := int(j.firstFailed.Load())
	// ni is the index in nodes of the i-th node in rotation order, ck
	// the chunk that begins at nextChunk, and words the pass bits of the
	// chunk that begins at base; they advance without a division per
	// node.
	ni, ck, nextChunk, base := start%numAll, 0, 0, 0
	var words []uint64
	for i := 0; i <= last; i, ni = i+1, ni+1 {
		if ni == numAll {
			ni = 0
		}
		if i == nextChunk {
			if chunkPass[ck*passStride] != pass {
				stop = i // not run
				break
			}
			words, base = passBits[ck*stride:(ck+1)*stride], i
			ck, nextChunk = ck+1, nextChunk+chunk
		}
		if i == firstFailed {
			err = status[i].AsError()
			stop = i
			break
		}
		if off := i - base; words[off>>6]&(1<<(off&63)) == 0 {
			nrej++
			continue
		}
		if len(feasible) == numToFind {
			stop = i
			break
		}
		// Left as is when the last cycle put the same node there: a
		// write would take the line from the CPUs that read it.
		if nd, k := nodes[ni], len(feasible); k < cap(feasible) && feasible[:k+1][k] == nd {
			feasible = feasible[:k+1]
		} else {
			feasible = append(feasible, nd)
		}
	}
	rejectedCount := nrej
	if diag := c.Diagnosis; len(feasible) == 0 || diag.NodeToStatus.Len() > 0 {
		// Nodes rejected alike share a status: its plugin is recorded
		// once a run of them.
		var last *framework.Status
		for i := range stop {
			if !j.passed(i) {
				diag.NodeToStatus.SetNode(nodes[(start+i)%numAll], status[i])
				if status[i] != last {
					diag.AddPluginStatus(status[i])
					last = status[i]
				}
			}
		}
		rejectedCount = diag.NodeToStatus.Len()
	}
	*j = filterJob{}
	fs.feasible = feasible
	if err == nil {
		err = ctx.Err()
	}
	if run != nil {
		run.discard()
	}
	return passResult{feasible: feasible, rejected: rejectedCount, err: err}
}

// eagerChunk is the chunk size of a parallel filtering pass that also
// scores: a chunk then costs about 40 ns a node, so that 64 nodes are
// some 2.5 µs, long enough next to handing out a chunk (a cache line
// between CPUs) and short enough that the goroutines finish close
// together.
const eagerChunk = 64

// passResult is what filterPass found: the feasible nodes in rotation
// order (or, when run is set, fit of them, two or more, scored by the
// eager run and not listed), the number of rejected nodes counted as
// kube-scheduler counts them, and the first plugin error.
type passResult struct {
	feasible []*cluster.NodeInfo
	fit      int
	rejected int
	run      *scoreRun
	err      error
}

// filterJob is one filtering pass of findNodesThatPassFilters, run by one
// or more goroutines: each takes the next chunk of nodes in rotation
// order, records every node's outcome, and then advances the prefix of
// finished chunks, lowering limit once it holds the node that fits
// beyond the target.
type filterJob struct {
	pi        *profileInfo
	mask      uint64 // the Filter plugins skipped, by index
	pool      *pool
	ctx       context.Context
	state     *framework.CycleState
	pod       *api.Pod
	nodes     []*cluster.NodeInfo
	nominated map[string][]*cluster.PodInfo
	done      <-chan struct{}
	start     int
	numToFind int
	chunk     int
	chunks    int
	passBits  []uint64
	stride    int // bitStride(chunk)
	chunkPass []uint32
	pass      uint32
	status    []*framework.Status
	chunkCnt  []int32
	chunkEnd  []bool
	// memo keeps the nodes' verdicts for the next pass (nil: not kept).
	memo *filterMemo

	// limit is the last index whose outcome can matter: the node that
	// fits beyond numToFind, or the first node whose filters failed.
	// firstFailed is the first node whose filters failed.
	limit, firstFailed atomic.Int64
	// chunks deals the chunks: to the calling goroutine from the front,
	// to helpers from the back when every node is to be filtered (which
	// keeps each goroutine on the same part of the scratch from one
	// cycle to the next) and from the front otherwise (so that the
	// search stops early).
	deal     chunkDealer
	fromBack bool

	mu                sync.Mutex
	prefix, prefixFit int

	// eager is set when the calling goroutine publishes a score run
	// (publish): each goroutine then scores each chunk's passing nodes,
	// placed first in the chunk's part of pos, right after filtering the
	// chunk, if the run published is not nil.
	eager     bool
	pos       []*cluster.NodeInfo
	published atomic.Bool
	scoreRun  atomic.Pointer[scoreRun]
	// pubMu and pubCond let a goroutine that polled for the run for
	// awaitSpin sleep until it is published: a long PreScore (the
	// first decision of a pod shape) would otherwise cost a helper's
	// CPU time for as long.
	pubMu   sync.Mutex
	pubCond sync.Cond

	// helpersWanted is how many helpers the calling goroutine offers
	// the job to once it has filtered helpAfter nodes with chunks left,
	// so that a cycle that finds its nodes quickly stays on one
	// goroutine; helpers tracks those offered it (it lives in the
	// scratch, so that its memory is reused).
	helpersWanted, helpAfter int
	helpers                  *helpGroup
}

// Help is run by a helper goroutine (a pool task): it filters chunks
// alongside the cycle's own goroutine.
func (j *filterJob) Help() { j.run(false) }

// lower lowers limit to i.
func (j *filterJob) lower(i int) {
	for {
		cur := j.limit.Load()
		if int64(i) >= cur || j.limit.CompareAndSwap(cur, int64(i)) {
			return
		}
	}
}

// failedAt records that node i's filters failed.
func (j *filterJob) failedAt(i int) {
	for {
		cur := j.firstFailed.Load()
		if int64(i) >= cur || j.firstFailed.CompareAndSwap(cur, int64(i)) {
			return
		}
	}
}

// maxChunkWords bounds the 64-node words of a filter chunk.
const maxChunkWords = maxNodeChunk / 64

// run filters chunks until none that matters is left. The calling
// goroutine (first) offers the job to helpers once it has filtered
// helpAfter nodes.
func (j *filterJob) run(first bool) {
	numAll := len(j.nodes)
	status := j.status
	filtered := 0
	back := !first && j.fromBack
	for {
		var c int
		var ok bool
		c, ok = j.deal.take(!back)
		if !ok {
			return
		}
		if int64(c*j.chunk) > j.limit.Load() {
			if back {
				continue // a lower chunk may still matter
			}
			return
		}
		if first && j.helpersWanted > 0 && filtered >= j.helpAfter && c+1 < j.chunks {
			j.pool.offer(j, j.helpersWanted, j.helpers)
			j.helpersWanted = 0
		}
		lo, end := c*j.chunk, min((c+1)*j.chunk, numAll)
		if end > len(status) {
			status = j.growStatus(end)
		}
		fit := int32(0)
		// The chunk's bits, set locally and stored whole: chunks start
		// at multiples of 64, so no two share a word.
		var bits [maxChunkWords]uint64
		classify := func(i int, st *framework.Status) {
			switch {
			case st.IsSuccess():
				bits[(i-lo)>>6] |= 1 << ((i - lo) & 63)
				fit++
			case st.Code() == framework.Error:
				status[i] = st
				j.lower(i)
				j.failedAt(i)
			default:
				status[i] = st
			}
		}
		if len(j.nominated) == 0 {
			if j.done != nil {
				select {
				case <-j.done:
					return
				default:
				}
			}
			// The chunk's nodes in rotation order are one or two runs of
			// nodes; filter them a run at a time. Statuses are set only
			// for the nodes that do not pass.
			a, n := (j.start+lo)%numAll, end-lo
			if k := numAll - a; k < n {
				fit = int32(j.filterOnNodes(j.nodes[a:], status[lo:lo+k], bits[:], 0))
				fit += int32(j.filterOnNodes(j.nodes[:n-k], status[lo+k:end], bits[:], k))
			} else {
				fit = int32(j.filterOnNodes(j.nodes[a:a+n], status[lo:end], bits[:], 0))
			}
			if int(fit) < n {
				for w := 0; w < (n+63)>>6; w++ {
					// The nodes of word w that did not pass.
					miss := ^bits[w]
					if r := n - w<<6; r < 64 {
						miss &= 1<<r - 1
					}
					for miss != 0 {
						i := lo + w<<6 + mbits.TrailingZeros64(miss)
						miss &= miss - 1
						if status[i].Code() == framework.Error {
							j.lower(i)
							j.failedAt(i)
						}
					}
				}
			}
			if j.eager {
				if r := j.awaitRun(); r != nil {
					j.scoreChunk(r, c, lo, end, &bits)
				}
			}
		} else {
			for i := lo; i < end; i++ {
				if int64(i) > j.limit.Load() {
					break
				}
				if j.done != nil {
					select {
					case <-j.done:
						return
					default:
					}
				}
				ni := j.nodes[(j.start+i)%numAll]
				classify(i, j.pi.prof.RunFilterPluginsWithNominatedPods(j.ctx, j.state, j.pod, ni, j.nominated[ni.Node().Name]))
			}
		}
		copy(j.passBits[c*j.stride:c*j.stride+(end-lo+63)>>6], bits[:])
		j.chunkPass[c*passStride] = j.pass
		if !j.fromBack {
			// Filtering every node needs no count of the nodes that fit.
			j.finish(c, fit)
		}
		filtered += end - lo
	}
}

// growStatus makes room in j.status for the statuses of the first n
// nodes, keeping those recorded, and returns it. Only a pass without
// helpers grows it (filterPass sizes it for every node otherwise), on
// its one goroutine.
func (j *filterJob) growStatus(n int) []*framework.Status {
	if n > cap(j.status) {
		// At first, room for somewhat more nodes than the pass looks
		// for: a pass that finds them by then grows no more.
		s := make([]*framework.Status, min(max(n, 2*cap(j.status), j.numToFind+j.numToFind/4), len(j.nodes)))
		copy(s, j.status)
		j.status = s
	}
	j.status = j.status[:cap(j.status)]
	return j.status
}

// filterOnNodes filters nodes as pi.filterOnNodes does, through the
// memo when the pass keeps one.
func (j *filterJob) filterOnNodes(nodes []*cluster.NodeInfo, statuses []*framework.Status, passed []uint64, off int) int {
	if j.memo != nil {
		return j.memo.filterOnNodes(j.pi, j, nodes, statuses, passed, off)
	}
	return j.pi.filterOnNodes(j.ctx, j.state, j.pod, nodes, statuses, passed, off, j.mask)
}

// scoreChunk places the nodes of chunk c (positions [lo, end) in
// rotation order) whose bits are set first in the chunk's part of pos and
// scores them. A node already in its place is not written again, so that
// the line stays with the CPUs that read it.
func (j *filterJob) scoreChunk(r *scoreRun, c, lo, end int, bits *[maxChunkWords]uint64) {
	numAll := len(j.nodes)
	k := lo
	// The passing nodes, word by word and bit by bit: node lo+off is
	// j.nodes[ni0+off], less numAll once that passes the end.
	ni0 := (j.start + lo) % numAll
	for w := 0; w < (end-lo+63)>>6; w++ {
		for m := bits[w]; m != 0; m &= m - 1 {
			ni := ni0 + w<<6 + mbits.TrailingZeros64(m)
			if ni >= numAll {
				ni -= numAll
			}
			if nd := j.nodes[ni]; j.pos[k] != nd {
				j.pos[k] = nd
			}
			k++
		}
	}
	r.scoreFirst(c, k-lo)
}

// publishEager runs startEager and publishes its run to j's goroutines,
// even if a plugin panics, so that no helper waits for ever.
func (e *Engine) publishEager(ctx context.Context, c *Cycle, pi *profileInfo, chunk int, j *filterJob) (run *scoreRun) {
	defer func() { j.publish(run) }()
	return e.startEager(ctx, c, pi, j.pos[:len(c.Nodes)], chunk)
}

// publish makes run the pass's score run.
func (j *filterJob) publish(run *scoreRun) {
	j.scoreRun.Store(run)
	j.pubMu.Lock()
	j.published.Store(true)
	j.pubMu.Unlock()
	j.pubCond.Broadcast()
}

// awaitSpin is how long awaitRun polls before it sleeps.
const awaitSpin = 20 * time.Microsecond

// awaitRun returns the published score run, polling until there is one
// (the calling goroutine publishes it right after the early PreScore)
// for awaitSpin, then sleeping until it is published.
func (j *filterJob) awaitRun() *scoreRun {
	var since time.Time
	for i := 1; !j.published.Load(); i++ {
		if i%pollYield != 0 {
			continue
		}
		if since.IsZero() {
			since = time.Now()
		} else if time.Since(since) > awaitSpin {
			j.pubMu.Lock()
			for !j.published.Load() {
				j.pubCond.Wait()
			}
			j.pubMu.Unlock()
			break
		}
		runtime.Gosched()
	}
	return j.scoreRun.Load()
}

// Each chunk records its outcome a cache line apart from the next, so that
// goroutines filtering neighbouring chunks never write the same line (a
// line passed between CPUs costs about as much as filtering a few nodes):
// bitStride(chunk) words of pass bits, and its pass number at
// c*passStride in chunkPass.
const passStride = 64 / 4

func bitStride(chunk int) int { return ((chunk+63)/64 + 7) &^ 7 }

// passed reports whether the node at rotation position i passed.
func (j *filterJob) passed(i int) bool {
	c := i / j.chunk
	off := i - c*j.chunk
	return j.passBits[c*j.stride+off>>6]&(1<<(off&63)) != 0
}

// finish records that chunk c ran with fit nodes fitting, and advances
// the prefix of finished chunks.
func (j *filterJob) finish(c int, fit int32) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.chunkCnt[c], j.chunkEnd[c] = fit, true
	for j.prefix < j.chunks && j.chunkEnd[j.prefix] {
		if j.prefixFit+int(j.chunkCnt[j.prefix]) > j.numToFind {
			// The node that fits beyond the target is in this chunk:
			// nothing after it matters.
			n := j.prefixFit
			for i := j.prefix * j.chunk; ; i++ {
				if j.passed(i) {
					if n++; n > j.numToFind {
						j.lower(i)
						break
					}
				}
			}
			j.prefix = j.chunks
			break
		}
		j.prefixFit += int(j.chunkCnt[j.prefix])
		j.prefix++
	}
}

// filterBlock is how many nodes filterOnNodes takes through the
// plugins at a time: few enough that what the plugins read of them stays
// in the cache from one plugin to the next.
const filterBlock = 64

// stampCache remembers, for one Filter plugin, the copies naming the
// plugin of statuses the plugin shares between nodes (its fixed-reason
// rejections), so that filterOnNodes makes each copy once per profile
// rather than once per block. It holds a few entries, replaced in turn,
// and is safe for concurrent use; an entry is an immutable pair, replaced
// whole.
type stampCache struct {
	slots [4]atomic.Pointer[stampedStatus]
	next  atomic.Uint32
}

type stampedStatus struct{ in, out *framework.Status }

// get returns the stamped copy of s, nil if none is kept.
func (c *stampCache) get(s *framework.Status) *framework.Status {
	for i := range c.slots {
		if e := c.slots[i].Load(); e != nil && e.in == s {
			return e.out
		}
	}
	return nil
}

// put keeps out as the stamped copy of in.
func (c *stampCache) put(in, out *framework.Status) {
	c.slots[c.next.Add(1)%uint32(len(c.slots))].Store(&stampedStatus{in, out})
}

// blockScratch is filterOnNodes' memory for one block; each goroutine
// takes one from its profileInfo's pool.
type blockScratch struct {
	nodes [filterBlock]*cluster.NodeInfo
	out   [filterBlock]*framework.Status
}

// setBits sets bits [off, off+n) of passed.
func setBits(passed []uint64, off, n int) {
	for n > 0 {
		w, b := off>>6, off&63
		k := min(64-b, n)
		passed[w] |= (^uint64(0) >> (64 - k)) << b
		off, n = off+k, n-k
	}
}

// filterOnNodes runs the Filter plugins not in skip (a mask over the
// profile's Filter plugins) on nodes: it sets statuses[i] to what
// framework.Profile.RunFilterPlugins returns for nodes[i] for the nodes
// that do not pass (leaving the others' entries as they are) and bit
// off+i of passed (bit b is passed[b/64]&(1<<(b%64))) for those that do,
// and returns how many pass. It takes the nodes through the plugins a
// block at a time, calling a plugin's FilterNodes once per block with the
// nodes every earlier plugin passed, so the results are those of
// RunFilterPlugins, node by node. It allocates nothing for nodes that
// pass.
func (pi *profileInfo) filterOnNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status, passed []uint64, off int, mask uint64) int {
	if len(nodes) == 0 {
		return 0
	}
	statuses = statuses[:len(nodes)]
	if len(pi.filters) == 0 {
		if passed != nil {
			setBits(passed, off, len(nodes))
		}
		return len(nodes)
	}
	npassed := 0
	sc := pi.scratch.Get().(*blockScratch)
	for lo := 0; lo < len(nodes); lo += filterBlock {
		hi := min(lo+filterBlock, len(nodes))
		// live are the nodes every plugin so far passed: nodes[lo:hi]
		// until one is rejected, then sc.nodes; bit p of liveMask is set
		// while node lo+p is live (filterBlock is 64).
		live := nodes[lo:hi]
		liveMask := ^uint64(0) >> (64 - (hi - lo))
		compacted := false
		for i, pl := range pi.filters {
			name := pi.filterNames[i]
			if mask&(1<<uint(i)) != 0 {
				continue
			}
			// out is all nil here: the loops below set every entry they
			// look at back to nil.
			out := sc.out[:len(live)]
			if b := pi.filterBatch[i]; b != nil {
				b(ctx, state, pod, live, out)
			} else {
				for j, ni := range live {
					out[j] = pl.Filter(ctx, state, pod, ni)
				}
			}
			first := -1
			for j, st := range out {
				if st != nil {
					if st.Code() != framework.Success {
						first = j
						break
					}
					out[j] = nil // a Success status
				}
			}
			if first < 0 {
				continue
			}
			if !compacted {
				// The live nodes before the first rejected one stay
				// where they are; the loop below moves the others down.
				copy(sc.nodes[:first], live[:first])
				compacted = true
			}
			// m's lowest bit is the position of live node j.
			m := liveMask
			for range first {
				m &= m - 1
			}
			// Keep the nodes that passed; record the others' statuses as
			// framework.Profile.RunFilterPlugins does.
			// Plugins return shared Status values for fixed reasons, and a
			// Status is immutable, so nodes of the block rejected with the
			// same value share one copy naming the plugin.
			var lastIn, lastOut *framework.Status
			lastCached := false
			w := first
			for j := first; j < len(out); j++ {
				p := mbits.TrailingZeros64(m)
				m &= m - 1
				st := out[j]
				if st == nil {
					sc.nodes[w] = live[j]
					w++
					continue
				}
				out[j] = nil
				if st.IsSuccess() {
					sc.nodes[w] = live[j]
					w++
					continue
				}
				liveMask &^= 1 << p
				if st == lastIn {
					if !lastCached {
						// A status met twice is one the plugin shares:
						// keep its stamped copy for later blocks.
						pi.filterStamps[i].put(lastIn, lastOut)
						lastCached = true
					}
					statuses[lo+p] = lastOut
					continue
				}
				lastIn = st
				if !st.IsRejected() {
					lastOut, lastCached = framework.AsStatus(fmt.Errorf("running %q filter plugin: %w", name, st.AsError())).WithPlugin(name), true
				} else if lastOut = pi.filterStamps[i].get(st); lastOut != nil {
					lastCached = true
				} else {
					lastOut, lastCached = st.WithPlugin(name), false
				}
				statuses[lo+p] = lastOut
			}
			live = sc.nodes[:w]
			if w == 0 {
				break
			}
		}
		npassed += len(live)
		if passed != nil && liveMask != 0 {
			// The block's bits start at bit off+lo, in one word or two.
			b := off + lo
			passed[b>>6] |= liveMask << (b & 63)
			if sh := b & 63; sh != 0 {
				if high := liveMask >> (64 - sh); high != 0 {
					passed[b>>6+1] |= high
				}
			}
		}
	}
	clear(sc.nodes[:])
	clear(sc.out[:])
	pi.scratch.Put(sc)
	return npassed
}
