package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// normalizer is a FastPath.NormalizeByMax.
type normalizer = func(scores []int64, highest int64)

// scoreBuffer holds the memory of the by-max and eager score runs,
// reused from cycle to cycle; one cycle at a time.
type scoreBuffer struct {
	active     []int                   // the score plugins not skipped, by index
	maxNorm    []normalizer            // per active plugin; nil if it does not normalise by max
	general    []bool                  // per active plugin: it normalises, not by max
	list       framework.NodeScoreList // a general plugin's scores for its NormalizeScore
	highest    []int64                 // per active plugin
	totals     []int64                 // per node
	scores     []int64                 // plugin-major raw scores of the plugins that normalise
	rowOf      []int                   // per active plugin: its row in scores, -1 for none
	base       []int64                 // per node: the weighted sum of the plugins without a row
	chunkMax   []int64                 // per chunk and active plugin
	chunkSums  []chunkSum              // per chunk
	feasible   []*cluster.NodeInfo     // scoredNodes' list, reused
	normBufs   sync.Pool               // of *normBuf, one per goroutine summing a chunk
	byMaxJob   *byMaxJob
	run        scoreRun
	best, ties int
}

// resetActive empties the lists of active plugins, with room for n
// plugins at once rather than by doubling.
func (buf *scoreBuffer) resetActive(n int) {
	if cap(buf.active) < n {
		buf.active, buf.maxNorm, buf.general = make([]int, 0, n), make([]normalizer, 0, n), make([]bool, 0, n)
	}
	buf.active, buf.maxNorm, buf.general = buf.active[:0], buf.maxNorm[:0], buf.general[:0]
}

// firstError keeps the error of the lowest index, so that parallel runs
// report the same error as a sequential one.
type firstError struct {
	mu    sync.Mutex
	limit atomic.Int64
	err   error
}

func (f *firstError) init(n int) { f.limit.Store(int64(n)); f.err = nil }

func (f *firstError) set(i int, err error) {
	f.mu.Lock()
	if int64(i) < f.limit.Load() {
		f.limit.Store(int64(i))
		f.err = err
	}
	f.mu.Unlock()
}

// past reports whether piece i comes after a failed one and need not run.
func (f *firstError) past(i int) bool { return int64(i) > f.limit.Load() }

// activeByMax sets buf.active to the score plugins not skipped at
// PreScore and buf.maxNorm to their NormalizeByMax (nil for a plugin
// that does not normalise), and reports whether every active plugin
// that normalises has one: only then can the cycle score by max.
func (pi *profileInfo) activeByMax(state *framework.CycleState, buf *scoreBuffer) bool {
	skip := state.SkipScorePlugins
	buf.resetActive(len(pi.scoreNames))
	for k, name := range pi.scoreNames {
		if skipped(skip, name) {
			continue
		}
		if pi.normalizes[k] && pi.normByMax[k] == nil {
			return false
		}
		buf.active = append(buf.active, k)
		buf.maxNorm = append(buf.maxNorm, pi.normByMax[k])
		buf.general = append(buf.general, false)
	}
	return true
}

func skipped(set map[string]struct{}, name string) bool {
	if len(set) == 0 {
		return false
	}
	_, ok := set[name]
	return ok
}

// chunkBest sums up a chunk's totals: the highest, the first node with
// it (-1 for a chunk without nodes) and how many have it. stale is set
// when the totals were summed with the chunk's own highest scores and one
// of those normalised scores was out of range, so that only a sum with
// the cycle's highest scores can tell whether the run fails.
type chunkBest struct {
	total      int64
	index, cnt int
	stale      bool
}

// chunkSum is what a chunk's goroutine leaves for the caller: the nodes
// scored and the best of them. It fills a cache line of its own, so that
// goroutines summing neighbouring chunks do not take a line from each
// other.
type chunkSum struct {
	best chunkBest
	n    int32
	_    [64 - 32 - 4]byte
}

// scoreByMax scores nodes after Filter when every active plugin that
// normalises is by max (buf.active and buf.maxNorm set): a scoreRun over
// chunks shared with helpers (untilChunks), a pass for the scores and
// one for the sums. It returns the totals and, like scoreRun.finish, the
// first best node and the ties.
func (e *Engine) scoreByMax(ctx context.Context, pi *profileInfo, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *scoreBuffer) ([]int64, int, int, *framework.Status) {
	n := len(nodes)
	if n == 0 {
		return nil, -1, 0, nil
	}
	chunk := nodeChunkSize(n, e.parallelism)
	if e.parallelism == 1 || n < 2*e.minParallelPieces {
		chunk = n // one goroutine: chunks would only add their cost
	}
	r := pi.newScoreRun(ctx, state, pod, nodes, buf, chunk)
	job := r.job
	job.phase = phaseScore
	e.untilChunks(ctx, n, chunk, &job.run, job)
	if r.normalize() {
		if r.stale > 1 {
			job.phase = phaseSum
			e.untilChunks(ctx, n, chunk, &job.run, job)
		} else {
			for c := range r.chunks {
				r.sum(c)
			}
		}
	}
	best, ties, st := r.finish()
	if !st.IsSuccess() {
		return nil, 0, 0, st
	}
	return buf.totals[:n], best, ties, nil
}

// scoreRun is a by-max scoring in steps, for a caller that shares the
// nodes between goroutines itself: score (or scoreFirst) every chunk
// (any goroutine, each chunk once), then normalize (one goroutine, after
// every score), then, if normalize says so, sum every chunk, then finish.
//
// score sums a chunk with the chunk's own highest score of each plugin
// that normalises; normalize finds the cycle's, and only the chunks whose
// highest scores differ from the cycle's need sum (sum of any other
// chunk returns at once). A chunk is best scored and summed on the
// same goroutine, whose cache then holds its scores. An eager run may
// also hold plugins that normalise other than by max (buf.general):
// score then only scores, normalize runs their NormalizeScore over every
// scored node, and every chunk is summed. The totals are
// framework.Profile.RunScorePlugins' over the nodes scored.
type scoreRun struct {
	pi         *profileInfo
	buf        *scoreBuffer
	job        *byMaxJob
	n, chunks  int
	chunk      int
	nodes      []*cluster.NodeInfo
	normalizes bool
	// stale is the number of chunks normalize found in need of sum.
	stale int
	// packed is set once totals has moved the totals together.
	packed bool
}

// newScoreRun starts scoring nodes in chunks of chunk nodes, after
// PreScore, in buf's memory, once buf.active and buf.maxNorm are set
// (activeByMax).
func (pi *profileInfo) newScoreRun(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *scoreBuffer, chunk int) *scoreRun {
	n, np := len(nodes), len(buf.active)
	buf.totals = grow(buf.totals, n)
	buf.best, buf.ties = -1, 0
	stride := alignedStride(n)
	// Only a plugin that normalises keeps its raw scores, in a row: the
	// others' are weighted into base as each chunk is scored.
	if cap(buf.rowOf) < np {
		buf.rowOf = make([]int, 0, np)
	}
	buf.rowOf = buf.rowOf[:0]
	rows, anyPlain := 0, false
	for j := range np {
		if buf.maxNorm[j] != nil || buf.general[j] {
			buf.rowOf = append(buf.rowOf, rows)
			rows++
		} else {
			buf.rowOf = append(buf.rowOf, -1)
			anyPlain = true
		}
	}
	buf.scores = grow(buf.scores, rows*stride)
	if anyPlain {
		buf.base = grow(buf.base, n)
	}
	chunks := (n + chunk - 1) / chunk
	maxStride := alignedStride(np) // a chunk's highest scores fill whole cache lines
	buf.chunkMax = grow(buf.chunkMax, chunks*maxStride)
	buf.chunkSums = grow(buf.chunkSums, chunks)
	buf.highest = grow(buf.highest, np)
	r := &buf.run
	*r = scoreRun{pi: pi, buf: buf, n: n, chunks: chunks, chunk: chunk, nodes: nodes}
	anyGeneral := false
	for j, mn := range buf.maxNorm {
		r.normalizes = r.normalizes || mn != nil || buf.general[j]
		anyGeneral = anyGeneral || buf.general[j]
	}
	if buf.byMaxJob == nil {
		buf.byMaxJob = new(byMaxJob)
		buf.normBufs.New = func() any { return new(normBuf) }
	}
	r.job = buf.byMaxJob
	*r.job = byMaxJob{pi: pi, ctx: ctx, state: state, pod: pod, nodes: nodes, active: buf.active, maxNorm: buf.maxNorm, general: buf.general,
		scores: buf.scores, rowOf: buf.rowOf, base: buf.base, anyPlain: anyPlain, totals: buf.totals, chunk: chunk, chunkMax: buf.chunkMax, maxStride: maxStride, stride: stride, sums: buf.chunkSums, normBufs: &buf.normBufs,
		highest: buf.highest, normalizes: r.normalizes, anyGeneral: anyGeneral}
	r.job.fe.init(n)
	return r
}

// scoreFirst runs the score plugins over the first k nodes of chunk c
// only; the chunk's other nodes are left out of the run, as if they were
// not in the node list. It serves a caller that places the nodes to
// score at the start of each chunk as it finds them (the scheduler
// filters a chunk and scores the nodes that pass). Best and Totals then
// count the nodes scored, in order.
func (r *scoreRun) scoreFirst(c, k int) {
	lo := c * r.chunk
	r.job.score(lo, lo+min(max(k, 0), min(lo+r.chunk, r.n)-lo))
}

// normalize finds each normalising plugin's highest score, once every
// chunk is scored, and reports whether some chunk then needs sum (false
// when no plugin normalises, every chunk had the cycle's highest scores,
// or the run already failed).
func (r *scoreRun) normalize() bool {
	job := r.job
	r.stale = 0
	if !r.normalizes || job.fe.err != nil || job.outOfRange.Load() || job.ctx.Err() != nil {
		return false
	}
	np := len(job.active)
	for j := range np {
		h := int64(0)
		for c := range r.chunks {
			h = max(h, job.chunkMax[c*job.maxStride+j])
		}
		job.highest[j] = h
	}
	for j, k := range job.active {
		if job.general[j] && !r.normalizeGeneral(j, k) {
			return false
		}
	}
	for c := range r.chunks {
		if job.stale(c) {
			r.stale++
		}
	}
	return r.stale > 0
}

// normalizeGeneral runs the NormalizeScore of active plugin j (score
// plugin k), which is not by max, over a NodeScoreList of every node
// scored, in order, and leaves the normalised scores in the plugin's
// row; it records a failure in job.normErr and returns false.
func (r *scoreRun) normalizeGeneral(j, k int) bool {
	job, buf := r.job, r.buf
	row := job.row(j)[:r.n]
	if nn := r.pi.normNodes[k]; nn != nil && r.scoredCount() == r.n {
		// Every node scored, in one row: normalised in place.
		if st := nn(job.ctx, job.state, job.pod, r.nodes[:r.n], row); !st.IsSuccess() {
			err := fmt.Errorf("plugin %q failed with: %w", r.pi.scoreNames[k], st.AsError())
			job.normErr = framework.AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
			return false
		}
		return true
	}
	if cap(buf.list) < r.n {
		buf.list = make(framework.NodeScoreList, 0, r.n)
	}
	l := buf.list[:0]
	for c := range r.chunks {
		lo := c * r.chunk
		for i := lo; i < lo+int(job.sums[c].n); i++ {
			l = append(l, framework.NodeScore{Name: r.nodes[i].Node().Name, Score: row[i]})
		}
	}
	buf.list = l
	if st := r.pi.score[k].ScoreExtensions().NormalizeScore(job.ctx, job.state, job.pod, l); !st.IsSuccess() {
		err := fmt.Errorf("plugin %q failed with: %w", r.pi.scoreNames[k], st.AsError())
		job.normErr = framework.AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
		return false
	}
	w := 0
	for c := range r.chunks {
		lo := c * r.chunk
		for i := lo; i < lo+int(job.sums[c].n); i++ {
			row[i] = l[w].Score
			w++
		}
	}
	return true
}

// sum normalises, weights and sums chunk c with the cycle's highest
// scores, after normalize returned true; it returns at once when the
// chunk had them.
func (r *scoreRun) sum(c int) {
	r.job.sum(c)
}

// finish returns the index (among the nodes scored) of the first node
// with the highest total and how many have it, or the error the plain
// scoring (framework.Profile.RunScorePlugins) returns. It ends the run;
// totals stays valid until the buffer is reused.
func (r *scoreRun) finish() (best, ties int, st *framework.Status) {
	job, buf := r.job, r.buf
	defer func() { *job = byMaxJob{} }()
	if err := job.fe.err; err != nil {
		return -1, 0, framework.AsStatus(fmt.Errorf("running Score plugins: %w", err))
	}
	if err := job.ctx.Err(); err != nil {
		return -1, 0, framework.AsStatus(err)
	}
	if job.normErr != nil {
		return -1, 0, job.normErr
	}
	if job.outOfRange.Load() {
		// A normalised score is out of range: the plain scoring finds
		// which one first and words the error.
		if _, st := r.pi.prof.RunScorePlugins(job.ctx, job.state, job.pod, r.scoredNodes()); !st.IsSuccess() {
			return -1, 0, st
		}
		return -1, 0, framework.AsStatus(errors.New("score out of range")) // the plain scoring reports it
	}
	b := chunkBest{index: -1}
	skipped := 0 // nodes left out of the chunks before b's
	for c := range buf.chunkSums[:r.chunks] {
		cb := buf.chunkSums[c].best
		switch {
		case cb.index < 0:
		case b.index < 0 || cb.total > b.total:
			b = cb
			b.index -= skipped
		case cb.total == b.total:
			b.cnt += cb.cnt
		}
		skipped += min(r.chunk, r.n-c*r.chunk) - int(buf.chunkSums[c].n)
	}
	buf.best, buf.ties = b.index, b.cnt
	return b.index, b.cnt, nil
}

// node returns the i-th node scored, after finish.
func (r *scoreRun) node(i int) *cluster.NodeInfo {
	sums := r.buf.chunkSums[:r.chunks]
	for c := range sums {
		if k := int(sums[c].n); i >= k {
			i -= k
		} else {
			return r.nodes[c*r.chunk+i]
		}
	}
	return nil
}

// discard ends a run whose result is not wanted.
func (r *scoreRun) discard() { *r.job = byMaxJob{} }

// totals returns, after a successful finish, the total score of each
// node scored, in node order. When some chunk was scored only in part,
// it first moves the totals together, in place.
func (r *scoreRun) totals() []int64 {
	t, sums := r.buf.totals, r.buf.chunkSums[:r.chunks]
	if r.packed {
		return t[:r.scoredCount()]
	}
	r.packed = true
	w := 0
	for c := range sums {
		k := sums[c].n
		lo := c * r.chunk
		if w != lo {
			copy(t[w:], t[lo:lo+int(k)])
		}
		w += int(k)
	}
	return t[:w]
}

func (r *scoreRun) scoredCount() int {
	n := 0
	for c := range r.buf.chunkSums[:r.chunks] {
		n += int(r.buf.chunkSums[c].n)
	}
	return n
}

// scoredNodes returns the nodes scored, in order.
func (r *scoreRun) scoredNodes() []*cluster.NodeInfo {
	nodes := r.nodes
	n := r.scoredCount()
	if n == r.n {
		return nodes
	}
	// The list is the buffer's, reused by the next cycle: the late
	// PreScore plugins it is given read it during this cycle only.
	if cap(r.buf.feasible) < n {
		r.buf.feasible = make([]*cluster.NodeInfo, 0, n)
	}
	out := r.buf.feasible[:0]
	for c := range r.buf.chunkSums[:r.chunks] {
		out = append(out, nodes[c*r.chunk:c*r.chunk+int(r.buf.chunkSums[c].n)]...)
	}
	r.buf.feasible = out
	return out
}

// The passes of runScoreByMax.
const (
	phaseScore = iota // scoreRun's score of each chunk
	phaseSum          // scoreRun.sum
)

// byMaxJob is a phase of scoreByMax over chunks of nodes.
type byMaxJob struct {
	pi        *profileInfo
	ctx       context.Context
	state     *framework.CycleState
	pod       *api.Pod
	nodes     []*cluster.NodeInfo
	active    []int
	maxNorm   []normalizer
	general   []bool  // per active plugin: normalised by NormalizeScore in normalize
	scores    []int64 // plugin-major, stride per row
	rowOf     []int   // per active plugin: its row in scores, -1 for none
	base      []int64 // per node: the weighted sum of the plugins without a row
	stride    int
	totals    []int64
	chunk     int
	chunkMax  []int64
	maxStride int        // chunkMax entries per chunk
	sums      []chunkSum // per chunk
	normBufs  *sync.Pool // of *normBuf
	highest   []int64
	// normalizes is whether some plugin normalises (then sum finds the
	// chunks' best nodes, else score does); anyGeneral whether one
	// normalises other than by max (then score only scores); anyPlain
	// whether one does not normalise (then base holds a sum).
	normalizes, anyGeneral, anyPlain bool
	phase                            int

	fe         firstError
	outOfRange atomic.Bool
	// normErr is the error of a general plugin's NormalizeScore, set by
	// normalize.
	normErr *framework.Status
	run     chunkRun
}

// row returns the raw scores of active plugin j, which normalises.
func (job *byMaxJob) row(j int) []int64 {
	r := job.rowOf[j]
	return job.scores[r*job.stride : (r+1)*job.stride]
}

func (job *byMaxJob) work(lo, hi int) {
	if job.phase == phaseSum {
		job.sum(lo / job.chunk)
	} else {
		job.score(lo, hi)
	}
}

// score runs the plugins over nodes [lo, hi) of the chunk that starts at
// lo. The plugins that do not normalise go into base, then the totals;
// those that do are normalised with the chunk's highest scores (recorded
// for Normalize) and added too, and the chunk's best node is found, which
// stands unless Normalize finds the cycle's highest scores differ.
func (job *byMaxJob) score(lo, hi int) {
	np := len(job.active)
	c := lo / job.chunk
	job.sums[c].n = int32(hi - lo)
	if hi <= lo {
		job.sums[c].best = chunkBest{index: -1}
		clear(job.chunkMax[c*job.maxStride : c*job.maxStride+np])
		return
	}
	if job.fe.past(lo) {
		return
	}
	// The chunk's totals serve as the scratch: they are set from base
	// once the chunk is scored.
	pl := plainSum{rowOf: job.rowOf, scratch: job.totals, base: job.base, outOfRange: &job.outOfRange}
	if !scoreChunk(job.pi, job.ctx, job.state, job.pod, job.active, job.scores, job.stride, &pl, job.nodes, lo, hi, &job.fe) || job.outOfRange.Load() {
		return
	}
	if job.anyGeneral {
		// Every chunk is summed once normalize has run the general
		// normalisers: record the by-max plugins' highest scores only.
		for j, mn := range job.maxNorm {
			if mn != nil {
				h := int64(0)
				for _, sc := range job.row(j)[lo:hi] {
					h = max(h, sc)
				}
				job.chunkMax[c*job.maxStride+j] = h
			}
		}
		job.sums[c].best = chunkBest{index: -1, stale: true}
		return
	}
	// The totals start from base, the plugins that do not normalise
	// (the sums are the same in any order).
	t := job.totals[lo:hi]
	summed := job.anyPlain
	if summed {
		copy(t, job.base[lo:hi])
	}
	stale := false
	for j, k := range job.active {
		if job.general[j] {
			// Normalised over every scored node: the chunk is summed
			// once normalize has run.
			stale = true
			continue
		}
		mn := job.maxNorm[j]
		if mn == nil {
			continue
		}
		out := job.row(j)[lo:hi]
		h := int64(0)
		for _, sc := range out {
			h = max(h, sc)
		}
		job.chunkMax[c*job.maxStride+j] = h
		if !job.addNormalized(t, out, mn, h, job.pi.weights[k], !summed) {
			stale = true
		}
		summed = true
	}
	if !summed {
		clear(t)
	}
	cb := bestOf(t, lo)
	cb.stale = stale
	job.sums[c].best = cb
}

// stale reports whether chunk c's totals were summed with highest scores
// other than the cycle's, or must be summed again to tell whether a
// score is out of range.
func (job *byMaxJob) stale(c int) bool {
	if job.sums[c].n == 0 {
		return false
	}
	if job.sums[c].best.stale {
		return true
	}
	for j, mn := range job.maxNorm {
		if mn != nil && job.chunkMax[c*job.maxStride+j] != job.highest[j] {
			return true
		}
	}
	return false
}

// sum sums chunk c again with the cycle's highest scores, if it was not
// summed with them, and finds its best node.
func (job *byMaxJob) sum(c int) {
	if !job.stale(c) {
		return
	}
	lo := c * job.chunk
	hi := lo + int(job.sums[c].n)
	t := job.totals[lo:hi]
	first := !job.anyPlain
	if !first {
		copy(t, job.base[lo:hi])
	}
	for j, k := range job.active {
		if job.rowOf[j] < 0 {
			continue
		}
		out := job.row(j)[lo:hi]
		var ok bool
		if mn := job.maxNorm[j]; mn != nil && !job.general[j] {
			ok = job.addNormalized(t, out, mn, job.highest[j], job.pi.weights[k], first)
		} else {
			ok = addWeighted(t, out, job.pi.weights[k], first)
		}
		first = false
		if !ok {
			job.outOfRange.Store(true)
			return
		}
	}
	if first {
		clear(t)
	}
	job.sums[c].best = bestOf(t, lo)
}

// normBlock is how many scores addNormalized normalises at a time, in
// a normBuf: NormalizeByMax rescales each score from it and the highest
// alone, so any part of a row may be normalised apart.
const normBlock = 128

// normBuf holds normalised scores on their way to the totals.
type normBuf [normBlock]int64

// addNormalized adds (or, when first, sets) raw's scores normalised by
// mn given highest, times w, into totals, leaving raw as it is, and
// reports whether every normalised score is in range.
func (job *byMaxJob) addNormalized(totals, raw []int64, mn normalizer, highest, w int64, first bool) bool {
	tmp := job.normBufs.Get().(*normBuf)
	ok := true
	for lo := 0; lo < len(raw); lo += normBlock {
		t := tmp[:copy(tmp[:], raw[lo:])]
		mn(t, highest)
		ok = addWeighted(totals[lo:], t, w, first) && ok
	}
	job.normBufs.Put(tmp)
	return ok
}

// bestOf sums up the totals of a chunk starting at node lo.
func bestOf(t []int64, lo int) chunkBest {
	best := chunkBest{total: t[0], index: lo, cnt: 1}
	for i := 1; i < len(t); i++ {
		switch {
		case t[i] > best.total:
			best = chunkBest{total: t[i], index: lo + i, cnt: 1}
		case t[i] == best.total:
			best.cnt++
		}
	}
	return best
}

// addWeighted adds (or, when first, sets) scores times w into totals,
// and reports whether every score is in [framework.MinNodeScore, framework.MaxNodeScore].
func addWeighted(totals, scores []int64, w int64, first bool) bool {
	totals = totals[:len(scores)]
	// With framework.MinNodeScore 0, a score is in range when, as an unsigned
	// number, it is at most framework.MaxNodeScore: one running maximum checks
	// both bounds.
	var top uint64
	if first {
		for i, sc := range scores {
			top = max(top, uint64(sc))
			totals[i] = sc * w
		}
	} else {
		for i, sc := range scores {
			top = max(top, uint64(sc))
			totals[i] += sc * w
		}
	}
	return top <= uint64(framework.MaxNodeScore)
}

// plainSum is where scoreChunk puts the scores of the plugins without a
// row (rowOf -1): each plugin's into scratch, then weighted into base,
// setting outOfRange for a score out of range.
type plainSum struct {
	rowOf         []int
	scratch, base []int64
	outOfRange    *atomic.Bool
}

// scoreChunk runs the active plugins over nodes[lo:hi] into scores
// (plugin-major, stride per row), each plugin over the whole chunk
// (a plugin's FastPath.ScoreNodes in one call): active plugin j into row
// j, or with pl (nil: every plugin has its row) into row pl.rowOf[j] or,
// for -1, into pl.base (see plainSum). On failure it records in fe the
// first failure in node order, and at that node in plugin order (the
// error a node-by-node run reports first), and returns false.
func scoreChunk(pi *profileInfo, ctx context.Context, state *framework.CycleState, pod *api.Pod, active []int, scores []int64, stride int, pl *plainSum, nodes []*cluster.NodeInfo, lo, hi int, fe *firstError) bool {
	chunk := nodes[lo:hi]
	failAt, failPlugin := len(chunk), -1
	var failSt *framework.Status
	firstPlain := true
	for j, k := range active {
		r := j
		if pl != nil {
			r = pl.rowOf[j]
		}
		var out []int64
		if r >= 0 {
			out = scores[r*stride+lo : r*stride+hi]
		} else {
			out = pl.scratch[lo:hi]
		}
		if f, st := scoreNodes(pi, ctx, state, pod, k, chunk, failAt, out); f >= 0 && f < failAt {
			failAt, failPlugin, failSt = f, k, st
		}
		if r < 0 && failPlugin < 0 {
			if !addWeighted(pl.base[lo:hi], out, pi.weights[k], firstPlain) {
				pl.outOfRange.Store(true)
			}
			firstPlain = false
		}
	}
	if failPlugin >= 0 {
		fe.set(lo+failAt, fmt.Errorf("plugin %q failed with: %w", pi.scoreNames[failPlugin], failSt.AsError()))
		return false
	}
	return true
}

// scoreNodes runs score plugin k into out over chunk, or, when it is not
// a FastPath.ScoreNodes, over the first limit nodes only, and returns
// the index and status of its first failure, or -1.
func scoreNodes(pi *profileInfo, ctx context.Context, state *framework.CycleState, pod *api.Pod, k int, chunk []*cluster.NodeInfo, limit int, out []int64) (int, *framework.Status) {
	if b := pi.scoreBatch[k]; b != nil {
		f, st := b(ctx, state, pod, chunk, out)
		if st.IsSuccess() {
			return -1, nil
		}
		if f < 0 || f >= len(chunk) {
			f = 0
		}
		return f, st
	}
	pl := pi.score[k]
	for i, ni := range chunk[:limit] {
		sc, st := pl.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			return i, st
		}
		out[i] = sc
	}
	return -1, nil
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// alignedStride is n rounded up to a multiple of 8: the distance between
// the rows of a row-major buffer of 8-byte elements whose rows are
// chunked, so that a row starts a cache line after the one before it
// when the buffer does.
func alignedStride(n int) int { return (n + 7) &^ 7 }
