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
// normalises is a MaxNormalizer. Each chunk of nodes is scored, then
// (once every chunk's highest scores are known) normalised, weighted and
// summed by one goroutine, which also finds the chunk's best node: the
// calling goroutine reads one summary per chunk, not every node's
// scores. Out-of-range scores send the cycle down the full path, which
// reports them exactly.
func (p *Profile) runScoreByMax(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer) ([]int64, *Status) {
	n, np := len(nodes), len(buf.active)
	totals := buf.totals
	scores := grow(buf.scores, np*n)
	buf.scores = scores
	chunk := NodeChunkSize(n, p.par.Parallelism())
	if p.par.Parallelism() == 1 || n < 2*minParallelPieces {
		chunk = n // one goroutine: chunks would only add their cost
	}
	chunks := (n + chunk - 1) / chunk
	buf.chunkMax = grow(buf.chunkMax, chunks*np)
	buf.chunkBest = grow(buf.chunkBest, chunks)
	buf.highest = grow(buf.highest, np)
	normalizes := false
	for _, mn := range buf.maxNorm {
		normalizes = normalizes || mn != nil
	}
	if buf.byMaxJob == nil {
		buf.byMaxJob = new(byMaxJob)
	}
	job := buf.byMaxJob
	*job = byMaxJob{p: p, ctx: ctx, state: state, pod: pod, nodes: nodes, active: buf.active, maxNorm: buf.maxNorm,
		scores: scores, totals: totals, chunk: chunk, chunkMax: buf.chunkMax, chunkBest: buf.chunkBest, highest: buf.highest,
		phase: phaseScoreAndSum}
	if normalizes {
		job.phase = phaseScore
	}
	job.fe.init(n)
	defer func() { *job = byMaxJob{} }()
	p.par.untilChunks(ctx, n, chunk, &job.run, job)
	if err := job.fe.err; err != nil {
		return nil, AsStatus(fmt.Errorf("running Score plugins: %w", err))
	}
	if err := ctx.Err(); err != nil {
		return nil, AsStatus(err)
	}
	if normalizes && !job.outOfRange.Load() {
		for j := range np {
			h := int64(0)
			for c := range chunks {
				h = max(h, buf.chunkMax[c*np+j])
			}
			buf.highest[j] = h
		}
		job.phase = phaseSum
		p.par.untilChunks(ctx, n, chunk, &job.run, job)
		if err := ctx.Err(); err != nil {
			return nil, AsStatus(err)
		}
	}
	if job.outOfRange.Load() {
		if _, st := p.runScore(ctx, state, pod, nodes, buf, true); !st.IsSuccess() {
			return nil, st
		}
		return nil, AsStatus(errors.New("score out of range")) // not reached: the full path reports it
	}
	best := chunkBest{index: -1}
	for _, cb := range buf.chunkBest[:chunks] {
		switch {
		case best.index < 0 || cb.total > best.total:
			best = cb
		case cb.total == best.total:
			best.cnt += cb.cnt
		}
	}
	buf.best, buf.ties = best.index, best.cnt
	return totals, nil
}

// The unsigned range check in work relies on this.
const _ = -uint(MinNodeScore) // MinNodeScore must be 0

const (
	phaseScore       = iota // raw scores, the sum of those not normalised, each chunk's highest
	phaseSum                // normalise, weight and add the rest, best of the chunk
	phaseScoreAndSum        // both, when no plugin normalises
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
	phase     int

	fe         firstError
	outOfRange atomic.Bool
	run        chunkRun
}

func (job *byMaxJob) work(lo, hi int) {
	n, np := len(job.nodes), len(job.active)
	c := lo / job.chunk
	t := job.totals[lo:hi]
	if job.phase != phaseSum {
		if job.fe.past(lo) {
			return
		}
		if !scoreChunk(job.p, job.ctx, job.state, job.pod, job.active, job.scores, job.nodes, lo, hi, &job.fe) {
			return
		}
		// The plugins that do not normalise go into the totals now; those
		// that do get their chunk's highest score, and wait for phaseSum.
		sum := false
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
			if !addWeighted(t, out, job.p.scoreWeights[k], !sum) {
				job.outOfRange.Store(true)
				return
			}
			sum = true
		}
		if !sum {
			clear(t)
		}
		if job.phase == phaseScore {
			return
		}
	} else {
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
	}
	best := chunkBest{total: t[0], index: lo, cnt: 1}
	for i := 1; i < len(t); i++ {
		switch {
		case t[i] > best.total:
			best = chunkBest{total: t[i], index: lo + i, cnt: 1}
		case t[i] == best.total:
			best.cnt++
		}
	}
	job.chunkBest[c] = best
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
