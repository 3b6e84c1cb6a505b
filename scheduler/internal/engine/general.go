package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// generalBuffer is the memory of the general score runs (scoreGeneral),
// reused from cycle to cycle; one cycle at a time.
type generalBuffer struct {
	active []int                   // the score plugins not skipped, by index
	scores []int64                 // plugin-major raw, then normalised, scores
	totals []int64                 // per node
	sums   []chunkSum              // per chunk
	list   framework.NodeScoreList // a plugin's scores for its NormalizeScore
	job    generalJob
}

// The passes of a general run.
const (
	generalScore = iota // the plugins' Score over a chunk
	generalSum          // weights, range check and sums of a chunk
)

// generalJob is a pass of scoreGeneral over chunks of nodes.
type generalJob struct {
	pi     *profileInfo
	ctx    context.Context
	state  *framework.CycleState
	pod    *api.Pod
	nodes  []*cluster.NodeInfo
	active []int
	scores []int64 // plugin-major, stride per plugin
	stride int
	totals []int64
	chunk  int
	sums   []chunkSum
	phase  int
	fe     firstError
	run    chunkRun
}

func (job *generalJob) work(lo, hi int) {
	if job.fe.past(lo) {
		return
	}
	if job.phase == generalScore {
		scoreChunk(job.pi, job.ctx, job.state, job.pod, job.active, job.scores, job.stride, nil, job.nodes, lo, hi, &job.fe)
		return
	}
	t := job.totals[lo:hi]
	ok := true
	for j, k := range job.active {
		ok = addWeighted(t, job.scores[j*job.stride+lo:j*job.stride+hi], job.pi.weights[k], j == 0) && ok
	}
	if !ok {
		// Recorded as an error at the chunk's start: the caller only
		// needs to know that some chunk has a score out of range.
		job.fe.set(lo, errScoreOutOfRange)
		return
	}
	job.sums[lo/job.chunk].best = bestOf(t, lo)
}

// errScoreOutOfRange marks a run with a normalised score out of range;
// the plain scoring words the error.
var errScoreOutOfRange = errors.New("score out of range")

// scoreGeneral scores nodes after PreScore for any active plugins (the
// cycle's normalising plugins need not be by max): each active plugin's
// Score (ScoreNodes where offered) over chunks of nodes shared with
// helpers into one row per plugin; then, in plugin order, each
// normalising plugin's NormalizeByMax over its row given the row's
// highest score, or else its NormalizeScore over a NodeScoreList of the
// row; then the weighted sums over chunks again, and the first best node
// and the ties. The totals, best node, ties and error are those of
// framework.Profile.RunScorePlugins over the same nodes, without its
// per-node explanation: nothing is allocated per node once the buffers
// have grown. It needs at least one active plugin and one node.
func (e *Engine) scoreGeneral(ctx context.Context, pi *profileInfo, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, gb *generalBuffer) (totals []int64, best, ties int, st *framework.Status) {
	n, np := len(nodes), len(gb.active)
	stride := alignedStride(n)
	gb.scores = grow(gb.scores, np*stride)
	gb.totals = grow(gb.totals, n)
	chunk := nodeChunkSize(n, e.parallelism)
	if e.parallelism == 1 || n < 2*e.minParallelPieces {
		chunk = n // one goroutine: chunks would only add their cost
	}
	chunks := (n + chunk - 1) / chunk
	gb.sums = grow(gb.sums, chunks)
	job := &gb.job
	defer func() { *job = generalJob{} }()
	*job = generalJob{pi: pi, ctx: ctx, state: state, pod: pod, nodes: nodes, active: gb.active, scores: gb.scores,
		stride: stride, totals: gb.totals, chunk: chunk, sums: gb.sums, phase: generalScore}
	job.fe.init(n)
	e.untilChunks(ctx, n, chunk, &job.run, job)
	if err := job.fe.err; err != nil {
		return nil, -1, 0, framework.AsStatus(fmt.Errorf("running Score plugins: %w", err))
	}
	if err := ctx.Err(); err != nil {
		return nil, -1, 0, framework.AsStatus(err)
	}
	for j, k := range gb.active {
		if !pi.normalizes[k] {
			continue
		}
		row := gb.scores[j*stride : j*stride+n]
		if mn := pi.normByMax[k]; mn != nil {
			highest := int64(0)
			for _, sc := range row {
				highest = max(highest, sc)
			}
			mn(row, highest)
			continue
		}
		if st := gb.normalize(ctx, pi, k, state, pod, nodes, row); st != nil {
			return nil, -1, 0, st
		}
	}
	job.phase = generalSum
	e.untilChunks(ctx, n, chunk, &job.run, job)
	if err := ctx.Err(); err != nil {
		return nil, -1, 0, framework.AsStatus(err)
	}
	if job.fe.err != nil {
		// A normalised score is out of range: the plain scoring finds
		// which one first and words the error.
		if _, st := pi.prof.RunScorePlugins(ctx, state, pod, nodes); !st.IsSuccess() {
			return nil, -1, 0, st
		}
		return nil, -1, 0, framework.AsStatus(errScoreOutOfRange)
	}
	b := chunkBest{index: -1}
	for c := range gb.sums[:chunks] {
		switch cb := gb.sums[c].best; {
		case b.index < 0 || cb.total > b.total:
			b = cb
		case cb.total == b.total:
			b.cnt += cb.cnt
		}
	}
	return gb.totals[:n], b.index, b.cnt, nil
}

// normalize runs score plugin k's NormalizeScore over row, the raw
// scores of nodes, through the buffer's NodeScoreList, and leaves the
// normalised scores in row. Its error is the plain scoring's.
func (gb *generalBuffer) normalize(ctx context.Context, pi *profileInfo, k int, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, row []int64) *framework.Status {
	if nn := pi.normNodes[k]; nn != nil {
		if st := nn(ctx, state, pod, nodes, row); !st.IsSuccess() {
			err := fmt.Errorf("plugin %q failed with: %w", pi.scoreNames[k], st.AsError())
			return framework.AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
		}
		return nil
	}
	l := grow(gb.list, len(row))
	gb.list = l
	for i, ni := range nodes {
		l[i] = framework.NodeScore{Name: ni.Node().Name, Score: row[i]}
	}
	if st := pi.score[k].ScoreExtensions().NormalizeScore(ctx, state, pod, l); !st.IsSuccess() {
		err := fmt.Errorf("plugin %q failed with: %w", pi.scoreNames[k], st.AsError())
		return framework.AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
	}
	for i := range row {
		row[i] = l[i].Score
	}
	return nil
}

// activeAll sets gb.active to the score plugins not skipped at PreScore.
func (pi *profileInfo) activeAll(state *framework.CycleState, gb *generalBuffer) {
	gb.active = gb.active[:0]
	for k, name := range pi.scoreNames {
		if !skipped(state.SkipScorePlugins, name) {
			gb.active = append(gb.active, k)
		}
	}
}
