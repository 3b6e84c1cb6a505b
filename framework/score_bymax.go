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
// it and how many have it.
type chunkBest struct {
	total      int64
	index, cnt int
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
		job.phase = phaseSum
		p.par.untilChunks(ctx, n, chunk, &job.run, job)
	}
	totals, _, _, st := r.Finish()
	return totals, st
}

// ScoreRun is RunScorePluginsTotals in steps, for a caller that shares
// the nodes between goroutines itself: Score every chunk (any goroutine,
// each chunk once), then Normalize (one goroutine, after every Score),
// then Sum every chunk, then Finish. A chunk is Score'd and Sum'med best
// on the same goroutine, whose cache then holds its scores. The result
// is RunScorePluginsTotals' and ScoreBuffer.Best's.
type ScoreRun struct {
	p          *Profile
	buf        *ScoreBuffer
	job        *byMaxJob
	n, chunks  int
	normalizes bool
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
	buf.totals = grow(buf.totals, n)
	buf.best, buf.ties = -1, 0
	buf.scores = grow(buf.scores, np*n)
	chunks := (n + chunk - 1) / chunk
	buf.chunkMax = grow(buf.chunkMax, chunks*np)
	buf.chunkBest = grow(buf.chunkBest, chunks)
	buf.highest = grow(buf.highest, np)
	r := &buf.run
	*r = ScoreRun{p: p, buf: buf, n: n, chunks: chunks}
	for _, mn := range buf.maxNorm {
		r.normalizes = r.normalizes || mn != nil
	}
	if buf.byMaxJob == nil {
		buf.byMaxJob = new(byMaxJob)
	}
	r.job = buf.byMaxJob
	*r.job = byMaxJob{p: p, ctx: ctx, state: state, pod: pod, nodes: nodes, active: buf.active, maxNorm: buf.maxNorm,
		scores: buf.scores, totals: buf.totals, chunk: chunk, chunkMax: buf.chunkMax, chunkBest: buf.chunkBest, highest: buf.highest,
		normalizes: r.normalizes}
	r.job.fe.init(n)
	return r
}

// Chunks is the number of chunks.
func (r *ScoreRun) Chunks() int { return r.chunks }

// Score runs the score plugins over chunk c.
func (r *ScoreRun) Score(c int) {
	lo := c * r.job.chunk
	r.job.score(lo, min(lo+r.job.chunk, r.n))
}

// Normalize finds each normalising plugin's highest score, once every
// chunk is scored, and reports whether the chunks then need Sum (false
// when no plugin normalises, or the run already failed).
func (r *ScoreRun) Normalize() bool {
	job := r.job
	if !r.normalizes || job.fe.err != nil || job.outOfRange.Load() || job.ctx.Err() != nil {
		return false
	}
	np := len(job.active)
	for j := range np {
		h := int64(0)
		for c := range r.chunks {
			h = max(h, job.chunkMax[c*np+j])
		}
		job.highest[j] = h
	}
	return true
}

// Sum normalises, weights and sums chunk c, after Normalize returned
// true.
func (r *ScoreRun) Sum(c int) {
	lo := c * r.job.chunk
	r.job.sum(lo, min(lo+r.job.chunk, r.n))
}

// Finish returns the totals, the first node with the highest total and
// how many have it, or the error RunScorePluginsTotals would return. It
// ends the run.
func (r *ScoreRun) Finish() (totals []int64, best, ties int, st *Status) {
	job, buf := r.job, r.buf
	defer func() { *job = byMaxJob{} }()
	if err := job.fe.err; err != nil {
		return nil, -1, 0, AsStatus(fmt.Errorf("running Score plugins: %w", err))
	}
	if err := job.ctx.Err(); err != nil {
		return nil, -1, 0, AsStatus(err)
	}
	if job.outOfRange.Load() {
		if _, st := r.p.runScore(job.ctx, job.state, job.pod, job.nodes, buf, true); !st.IsSuccess() {
			return nil, -1, 0, st
		}
		return nil, -1, 0, AsStatus(errors.New("score out of range")) // not reached: the full path reports it
	}
	b := chunkBest{index: -1}
	for _, cb := range buf.chunkBest[:r.chunks] {
		switch {
		case b.index < 0 || cb.total > b.total:
			b = cb
		case cb.total == b.total:
			b.cnt += cb.cnt
		}
	}
	buf.best, buf.ties = b.index, b.cnt
	return buf.totals, b.index, b.cnt, nil
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
	scores    []int64 // plugin-major
	totals    []int64
	chunk     int
	chunkMax  []int64
	chunkBest []chunkBest
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
		job.sum(lo, hi)
	} else {
		job.score(lo, hi)
	}
}

// score runs the plugins over nodes [lo, hi); the plugins that do not
// normalise go into the totals now, those that do get the chunk's
// highest score and wait for sum. When none normalises, the chunk's best
// node is found too.
func (job *byMaxJob) score(lo, hi int) {
	n, np := len(job.nodes), len(job.active)
	c := lo / job.chunk
	t := job.totals[lo:hi]
	if job.fe.past(lo) {
		return
	}
	if !scoreChunk(job.p, job.ctx, job.state, job.pod, job.active, job.scores, job.nodes, lo, hi, &job.fe) {
		return
	}
	summed := false
	for j, k := range job.active {
		out := job.scores[j*n+lo : j*n+hi]
		if job.maxNorm[j] != nil {
			h := int64(0)
			for _, sc := range out {
				h = max(h, sc)
			}
			job.chunkMax[c*np+j] = h
			continue
		}
		if !addWeighted(t, out, job.p.scoreWeights[k], !summed) {
			job.outOfRange.Store(true)
			return
		}
		summed = true
	}
	if !summed {
		clear(t)
	}
	if !job.normalizes {
		job.chunkBest[c] = bestOf(t, lo)
	}
}

// sum normalises, weights and adds the normalising plugins' scores of
// nodes [lo, hi), and finds the chunk's best node.
func (job *byMaxJob) sum(lo, hi int) {
	n := len(job.nodes)
	t := job.totals[lo:hi]
	for j, k := range job.active {
		mn := job.maxNorm[j]
		if mn == nil {
			continue
		}
		out := job.scores[j*n+lo : j*n+hi]
		mn.NormalizeByMax(out, job.highest[j])
		if !addWeighted(t, out, job.p.scoreWeights[k], false) {
			job.outOfRange.Store(true)
			return
		}
	}
	job.chunkBest[lo/job.chunk] = bestOf(t, lo)
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
// (plugin-major, len(nodes) per plugin), each plugin over the whole chunk
// (a BatchScorePlugin in one call). On failure it records in fe the
// first failure in node order, and at that node in plugin order (the
// error a node-by-node run reports first), and returns false.
func scoreChunk(p *Profile, ctx context.Context, state *CycleState, pod *api.Pod, active []int, scores []int64, nodes []*cluster.NodeInfo, lo, hi int, fe *firstError) bool {
	n := len(nodes)
	chunk := nodes[lo:hi]
	failAt, failPlugin := len(chunk), -1
	var failSt *Status
	for j, k := range active {
		out := scores[j*n+lo : j*n+hi]
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
