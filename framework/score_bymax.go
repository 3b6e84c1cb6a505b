package framework

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// byMax reports whether every active plugin that normalises is a
// MaxNormalizer, recording them in buf.maxNorm.
func (p *Profile) byMax(buf *ScoreBuffer) bool {
	buf.maxNorm = buf.maxNorm[:0]
	for j, k := range buf.active {
		var mn MaxNormalizer
		if buf.slot[j] >= 0 {
			var ok bool
			if mn, ok = p.score[k].ScoreExtensions().(MaxNormalizer); !ok {
				return false
			}
		}
		buf.maxNorm = append(buf.maxNorm, mn)
	}
	return true
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

// runScoreByMax is runScore for totals only when every plugin that
// normalises is a MaxNormalizer: a ScoreRun over chunks shared with
// helpers (untilChunks), a pass for the scores and one for the sums.
func (p *Profile) runScoreByMax(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer) ([]int64, *Status) {
	n := len(nodes)
	chunk := NodeChunkSize(n, p.par.Parallelism())
	if p.par.Parallelism() == 1 || n < 2*minParallelPieces {
		chunk = n // one goroutine: chunks would only add their cost
	}
	r := p.newScoreRun(ctx, state, pod, nodes, buf, chunk)
	job := r.job
	job.phase = phaseScore
	p.par.untilChunks(ctx, n, chunk, &job.run, job)
	if r.Normalize() {
		if r.stale > 1 {
			job.phase = phaseSum
			p.par.untilChunks(ctx, n, chunk, &job.run, job)
		} else {
			for c := range r.chunks {
				r.Sum(c)
			}
		}
	}
	if _, _, st := r.Finish(); !st.IsSuccess() {
		return nil, st
	}
	return buf.totals[:n], nil
}

// ScoreRun is RunScorePluginsTotals in steps, for a caller that shares
// the nodes between goroutines itself: Score (or ScoreFirst) every chunk
// (any goroutine, each chunk once), then Normalize (one goroutine, after
// every Score), then, if Normalize says so, Sum every chunk, then Finish.
//
// Score sums a chunk with the chunk's own highest score of each plugin
// that normalises; Normalize finds the cycle's, and only the chunks whose
// highest scores differ from the cycle's need Sum (Sum of any other
// chunk returns at once). A chunk is best Score'd and Sum'med on the
// same goroutine, whose cache then holds its scores. The result is
// RunScorePluginsTotals' and ScoreBuffer.Best's over the nodes scored.
type ScoreRun struct {
	p          *Profile
	buf        *ScoreBuffer
	job        *byMaxJob
	n, chunks  int
	chunk      int
	nodes      []*cluster.NodeInfo
	normalizes bool
	// stale is the number of chunks Normalize found in need of Sum.
	stale int
	// packed is set once Totals has moved the totals together.
	packed bool
}

// NewScoreRun starts scoring nodes in chunks of chunk nodes, after
// PreScore, in buf's memory. It returns nil when some plugin that
// normalises is not a MaxNormalizer; RunScorePluginsTotals serves then.
func (p *Profile) NewScoreRun(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer, chunk int) *ScoreRun {
	p.activeScorePlugins(state, buf)
	if len(buf.active) == 0 || len(nodes) == 0 || chunk < 1 || !p.byMax(buf) {
		return nil
	}
	return p.newScoreRun(ctx, state, pod, nodes, buf, chunk)
}

// newScoreRun is NewScoreRun once buf.active and buf.maxNorm are set.
func (p *Profile) newScoreRun(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer, chunk int) *ScoreRun {
	n, np := len(nodes), len(buf.active)
	buf.totals = GrowAligned(buf.totals, n)
	buf.best, buf.ties = -1, 0
	stride := alignedStride(n)
	buf.scores = GrowAligned(buf.scores, np*stride)
	chunks := (n + chunk - 1) / chunk
	maxStride := alignedStride(np) // a chunk's highest scores fill whole cache lines
	buf.chunkMax = GrowAligned(buf.chunkMax, chunks*maxStride)
	buf.chunkSums = GrowAligned(buf.chunkSums, chunks)
	buf.normTmp = GrowAligned(buf.normTmp, n)
	buf.highest = grow(buf.highest, np)
	r := &buf.run
	*r = ScoreRun{p: p, buf: buf, n: n, chunks: chunks, chunk: chunk, nodes: nodes}
	for _, mn := range buf.maxNorm {
		r.normalizes = r.normalizes || mn != nil
	}
	if buf.byMaxJob == nil {
		buf.byMaxJob = new(byMaxJob)
	}
	r.job = buf.byMaxJob
	*r.job = byMaxJob{p: p, ctx: ctx, state: state, pod: pod, nodes: nodes, active: buf.active, maxNorm: buf.maxNorm,
		scores: buf.scores, totals: buf.totals, chunk: chunk, chunkMax: buf.chunkMax, maxStride: maxStride, stride: stride, sums: buf.chunkSums, norm: buf.normTmp,
		highest: buf.highest, normalizes: r.normalizes}
	r.job.fe.init(n)
	return r
}

// Chunks is the number of chunks.
func (r *ScoreRun) Chunks() int { return r.chunks }

// Score runs the score plugins over chunk c.
func (r *ScoreRun) Score(c int) {
	lo := c * r.chunk
	r.job.score(lo, min(lo+r.chunk, r.n))
}

// ScoreFirst runs the score plugins over the first k nodes of chunk c
// only; the chunk's other nodes are left out of the run, as if they were
// not in the node list. It serves a caller that places the nodes to
// score at the start of each chunk as it finds them (the scheduler
// filters a chunk and scores the nodes that pass). Best and Totals then
// count the nodes scored, in order.
func (r *ScoreRun) ScoreFirst(c, k int) {
	lo := c * r.chunk
	r.job.score(lo, lo+min(max(k, 0), min(lo+r.chunk, r.n)-lo))
}

// Normalize finds each normalising plugin's highest score, once every
// chunk is scored, and reports whether some chunk then needs Sum (false
// when no plugin normalises, every chunk had the cycle's highest scores,
// or the run already failed).
func (r *ScoreRun) Normalize() bool {
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
	for c := range r.chunks {
		if job.stale(c) {
			r.stale++
		}
	}
	return r.stale > 0
}

// Sum normalises, weights and sums chunk c with the cycle's highest
// scores, after Normalize returned true; it returns at once when the
// chunk had them.
func (r *ScoreRun) Sum(c int) {
	r.job.sum(c)
}

// Finish returns the index (among the nodes scored) of the first node
// with the highest total and how many have it, or the error
// RunScorePluginsTotals would return. It ends the run; Totals stays
// valid until the buffer is reused.
func (r *ScoreRun) Finish() (best, ties int, st *Status) {
	job, buf := r.job, r.buf
	defer func() { *job = byMaxJob{} }()
	if err := job.fe.err; err != nil {
		return -1, 0, AsStatus(fmt.Errorf("running Score plugins: %w", err))
	}
	if err := job.ctx.Err(); err != nil {
		return -1, 0, AsStatus(err)
	}
	if job.outOfRange.Load() {
		nodes := r.scoredNodes()
		if _, st := r.p.runScore(job.ctx, job.state, job.pod, nodes, buf, true); !st.IsSuccess() {
			return -1, 0, st
		}
		return -1, 0, AsStatus(errors.New("score out of range")) // not reached: the full path reports it
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

// Node returns the i-th node scored, after Finish.
func (r *ScoreRun) Node(i int) *cluster.NodeInfo {
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

// Discard ends a run whose result is not wanted.
func (r *ScoreRun) Discard() { *r.job = byMaxJob{} }

// Totals returns, after a successful Finish, the total score of each
// node scored, in node order. When some chunk was scored only in part,
// it first moves the totals together, in place.
func (r *ScoreRun) Totals() []int64 {
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

func (r *ScoreRun) scoredCount() int {
	n := 0
	for c := range r.buf.chunkSums[:r.chunks] {
		n += int(r.buf.chunkSums[c].n)
	}
	return n
}

// scoredNodes returns the nodes scored, in order.
func (r *ScoreRun) scoredNodes() []*cluster.NodeInfo {
	nodes := r.nodes
	if r.scoredCount() == r.n {
		return nodes
	}
	out := make([]*cluster.NodeInfo, 0, r.scoredCount())
	for c := range r.buf.chunkSums[:r.chunks] {
		out = append(out, nodes[c*r.chunk:c*r.chunk+int(r.buf.chunkSums[c].n)]...)
	}
	return out
}

// The passes of runScoreByMax.
const (
	phaseScore = iota // ScoreRun.Score
	phaseSum          // ScoreRun.Sum
)

// byMaxJob is a phase of runScoreByMax over chunks of nodes.
type byMaxJob struct {
	p         *Profile
	ctx       context.Context
	state     *CycleState
	pod       *api.Pod
	nodes     []*cluster.NodeInfo
	active    []int
	maxNorm   []MaxNormalizer
	scores    []int64 // plugin-major, stride per plugin
	stride    int
	totals    []int64
	chunk     int
	chunkMax  []int64
	maxStride int        // chunkMax entries per chunk
	sums      []chunkSum // per chunk
	norm      []int64    // per node: a normalised score, summed next
	highest   []int64
	// normalizes is whether some plugin normalises (then sum finds the
	// chunks' best nodes, else score does).
	normalizes bool
	phase      int

	fe         firstError
	outOfRange atomic.Bool
	run        chunkRun
}

func (job *byMaxJob) work(lo, hi int) {
	if job.phase == phaseSum {
		job.sum(lo / job.chunk)
	} else {
		job.score(lo, hi)
	}
}

// score runs the plugins over nodes [lo, hi) of the chunk that starts at
// lo. The plugins that do not normalise go into the totals; those that
// do are normalised with the chunk's highest scores (recorded for
// Normalize) and added too, and the chunk's best node is found, which
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
	if !scoreChunk(job.p, job.ctx, job.state, job.pod, job.active, job.scores, job.stride, job.nodes, lo, hi, &job.fe) {
		return
	}
	t := job.totals[lo:hi]
	summed := false
	for j, k := range job.active {
		if job.maxNorm[j] != nil {
			continue
		}
		if !addWeighted(t, job.scores[j*job.stride+lo:j*job.stride+hi], job.p.scoreWeights[k], !summed) {
			job.outOfRange.Store(true)
			return
		}
		summed = true
	}
	stale := false
	for j, k := range job.active {
		mn := job.maxNorm[j]
		if mn == nil {
			continue
		}
		out := job.scores[j*job.stride+lo : j*job.stride+hi]
		h := int64(0)
		for _, sc := range out {
			h = max(h, sc)
		}
		job.chunkMax[c*job.maxStride+j] = h
		if !addNormalized(t, out, job.norm[lo:hi], mn, h, job.p.scoreWeights[k], !summed) {
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
	for j, k := range job.active {
		out := job.scores[j*job.stride+lo : j*job.stride+hi]
		var ok bool
		if mn := job.maxNorm[j]; mn != nil {
			ok = addNormalized(t, out, job.norm[lo:hi], mn, job.highest[j], job.p.scoreWeights[k], j == 0)
		} else {
			ok = addWeighted(t, out, job.p.scoreWeights[k], j == 0)
		}
		if !ok {
			job.outOfRange.Store(true)
			return
		}
	}
	job.sums[c].best = bestOf(t, lo)
}

// addNormalized adds (or, when first, sets) raw's scores normalised by
// mn given highest, times w, into totals, leaving raw as it is (tmp, as
// long as raw, holds the normalised scores), and reports whether every
// normalised score is in range.
func addNormalized(totals, raw, tmp []int64, mn MaxNormalizer, highest, w int64, first bool) bool {
	tmp = tmp[:copy(tmp, raw)]
	mn.NormalizeByMax(tmp, highest)
	return addWeighted(totals, tmp, w, first)
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
// and reports whether every score is in [MinNodeScore, MaxNodeScore].
func addWeighted(totals, scores []int64, w int64, first bool) bool {
	totals = totals[:len(scores)]
	// With MinNodeScore 0, a score is in range when, as an unsigned
	// number, it is at most MaxNodeScore: one running maximum checks
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
	return top <= uint64(MaxNodeScore)
}

// scoreChunk runs the active plugins over nodes[lo:hi] into scores
// (plugin-major, stride per plugin), each plugin over the whole chunk
// (a BatchScorePlugin in one call). On failure it records in fe the
// first failure in node order, and at that node in plugin order (the
// error a node-by-node run reports first), and returns false.
func scoreChunk(p *Profile, ctx context.Context, state *CycleState, pod *api.Pod, active []int, scores []int64, stride int, nodes []*cluster.NodeInfo, lo, hi int, fe *firstError) bool {
	chunk := nodes[lo:hi]
	failAt, failPlugin := len(chunk), -1
	var failSt *Status
	for j, k := range active {
		out := scores[j*stride+lo : j*stride+hi]
		if b := p.scoreBatch[k]; b != nil {
			if f, st := b.ScoreNodes(ctx, state, pod, chunk, out); !st.IsSuccess() {
				if f < 0 || f >= len(chunk) {
					f = 0
				}
				if f < failAt {
					failAt, failPlugin, failSt = f, k, st
				}
			}
			continue
		}
		pl := p.score[k]
		for i, ni := range chunk[:failAt] {
			sc, st := pl.Score(ctx, state, pod, ni)
			if !st.IsSuccess() {
				failAt, failPlugin, failSt = i, k, st
				break
			}
			out[i] = sc
		}
	}
	if failPlugin >= 0 {
		fe.set(lo+failAt, fmt.Errorf("plugin %q failed with: %w", p.scoreNames[failPlugin], failSt.AsError()))
		return false
	}
	return true
}
