package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Engine runs the filter-and-score part of scheduling cycles fast. It
// belongs to one scheduler: one cycle at a time, and Close when done.
type Engine struct {
	parallelism int
	pool        *pool

	// MinParallelNodes is the fewest nodes a filtering pass that also
	// scores (eager) shares with helper goroutines; MinParallelFilter
	// the fewest nodes a pass that only filters must look for before it
	// does; MinParallelPieces the fewest nodes per goroutine of a
	// separate score pass. Below them, handing chunks between CPUs
	// costs more than it saves (see doc.go). Tests lower them.
	MinParallelNodes, MinParallelFilter, minParallelPieces int

	profiles map[*framework.Profile]*profileInfo

	filter   filterScratch
	memo     filterMemo
	scoreBuf scoreBuffer
	general  generalBuffer
	// preState is an eager cycle's PreScore state: the early PreScore
	// plugins write it while helpers filter with the cycle's state, and
	// the eager score run reads it (see FastPath.ScoresAnyNodes). Its
	// SkipScorePlugins is preSkip, reused.
	preState *framework.CycleState
	preSkip  map[string]struct{}
}

// Defaults of the thresholds (see Engine).
const (
	DefaultMinParallelNodes  = 256
	DefaultMinParallelFilter = 2000
	defaultMinParallelPieces = 1000
)

// New returns an engine that uses up to parallelism goroutines (the
// calling one and parallelism-1 helpers); parallelism < 1 means
// GOMAXPROCS.
func New(parallelism int) *Engine {
	if parallelism < 1 {
		parallelism = runtime.GOMAXPROCS(0)
	}
	return &Engine{
		parallelism:       parallelism,
		pool:              newPool(min(parallelism-1, maxHelpers), defaultSpin),
		MinParallelNodes:  DefaultMinParallelNodes,
		MinParallelFilter: DefaultMinParallelFilter,
		minParallelPieces: defaultMinParallelPieces,
		profiles:          map[*framework.Profile]*profileInfo{},
	}
}

// SetMinParallelPieces sets the fewest nodes per goroutine of a separate
// score pass (tests lower it to exercise the parallel paths).
func (e *Engine) SetMinParallelPieces(n int) { e.minParallelPieces = max(n, 1) }

// Close stops the engine's helper goroutines and waits for them to exit.
// No cycle may be running; a later Run uses the calling goroutine only.
func (e *Engine) Close() { e.pool.close() }

// helpersPay reports whether a filtering pass over numAll nodes looking
// for numToFind of them is shared with helpers.
func (e *Engine) helpersPay(numAll, numToFind int, eager bool) bool {
	if e.parallelism < 2 {
		return false
	}
	if eager {
		return numAll >= e.MinParallelNodes
	}
	return numToFind >= e.MinParallelFilter
}

// profileInfo is what the engine derives once from a profile: its
// plugins by extension point and what each offers (framework.FastPath).
type profileInfo struct {
	prof         *framework.Profile
	filters      []framework.FilterPlugin
	filterNames  []string
	filterBatch  []func(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo, []*framework.Status)
	filterStamps []stampCache
	scratch      sync.Pool // of *blockScratch
	// nodeLocal[i]: Filter plugin i is FastPath.NodeLocalFilter.
	nodeLocal []bool

	preScore      []framework.PreScorePlugin
	preScoreEarly []bool // ScoresAnyNodes: may run before Filter

	score      []framework.ScorePlugin
	scoreNames []string
	weights    []int64
	scoreBatch []func(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo, []int64) (int, *framework.Status)
	normalizes []bool
	normByMax  []normalizer
	// normNodes[k] is score plugin k's FastPath.NormalizeNodes (nil
	// when it normalises by max or does not offer it).
	normNodes []func(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo, []int64) *framework.Status
	// eagerOK: the plugin may be scored as nodes pass Filter (it is
	// ScoresAnyNodes, and so is its PreScore part; a normaliser not by
	// max then normalises once every node is scored); hasPreScore: it has
	// a PreScore part, which may skip it; late: that part runs after
	// Filter (it is not ScoresAnyNodes).
	eagerOK, hasPreScore, late []bool
	// lateScored[k]: score plugin k, which does not score eagerly, did
	// not skip at PreScore in the last cycle that ran its PreScore. While
	// one did, cycles do not score eagerly (the eager run would be
	// dropped after Filter and every node scored again); the guess
	// changes the path only, never the outcome.
	lateScored []bool
	// ifAllFit[k]: score plugin k scores eagerly only in cycles in
	// which every node filtered fits (FastPath.ScoresIfAllFit, not
	// ScoresAnyNodes); anyIfAllFit: some plugin does. someRejected is
	// whether the last cycle that filtered every node rejected one:
	// while it did, cycles do not score eagerly (the eager run would be
	// dropped); a guess that chooses the path only, like lateScored.
	ifAllFit                  []bool
	anyIfAllFit, someRejected bool
}

// Prepare builds the engine's tables for profile p (its plugins' fast
// paths, names and weights) now rather than in p's first cycle: they
// depend on the profile alone, so a scheduler builds them when it is
// made, as kube-scheduler's framework lists its plugins when it is made.
// It is not safe to call during a cycle.
func (e *Engine) Prepare(p *framework.Profile) { e.info(p) }

func (e *Engine) info(p *framework.Profile) *profileInfo {
	if pi, ok := e.profiles[p]; ok {
		return pi
	}
	pi := &profileInfo{prof: p}
	pi.scratch.New = func() any { return new(blockScratch) }
	for _, f := range p.FilterPlugins() {
		pi.filters = append(pi.filters, f)
		pi.filterNames = append(pi.filterNames, f.Name())
		pi.filterBatch = append(pi.filterBatch, framework.FastPathOf(f).FilterNodes)
		pi.nodeLocal = append(pi.nodeLocal, framework.FastPathOf(f).NodeLocalFilter)
	}
	pi.filterStamps = make([]stampCache, len(pi.filters))
	earlyPreScore := map[string]bool{}
	for _, ps := range p.PreScorePlugins() {
		fp := framework.FastPathOf(ps)
		early := fp.ScoresAnyNodes || fp.ScoresIfAllFit
		pi.preScore = append(pi.preScore, ps)
		pi.preScoreEarly = append(pi.preScoreEarly, early)
		earlyPreScore[ps.Name()] = early
	}
	for _, ws := range p.ScorePlugins() {
		fp := framework.FastPathOf(ws.ScorePlugin)
		norm := ws.ScoreExtensions() != nil
		var byMax normalizer
		var byNodes func(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo, []int64) *framework.Status
		if norm {
			byMax = fp.NormalizeByMax
			if byMax == nil {
				byNodes = fp.NormalizeNodes
			}
		}
		ok := fp.ScoresAnyNodes || fp.ScoresIfAllFit
		ifAllFit := fp.ScoresIfAllFit && !fp.ScoresAnyNodes
		pi.ifAllFit = append(pi.ifAllFit, ifAllFit)
		pi.anyIfAllFit = pi.anyIfAllFit || ifAllFit
		early, hasPreScore := earlyPreScore[ws.Name()]
		pi.score = append(pi.score, ws.ScorePlugin)
		pi.scoreNames = append(pi.scoreNames, ws.Name())
		pi.weights = append(pi.weights, ws.Weight)
		pi.scoreBatch = append(pi.scoreBatch, fp.ScoreNodes)
		pi.normalizes = append(pi.normalizes, norm)
		pi.normByMax = append(pi.normByMax, byMax)
		pi.normNodes = append(pi.normNodes, byNodes)
		pi.eagerOK = append(pi.eagerOK, ok && (!hasPreScore || early))
		pi.hasPreScore = append(pi.hasPreScore, hasPreScore)
		pi.late = append(pi.late, hasPreScore && !early)
	}
	pi.lateScored = make([]bool, len(pi.score))
	e.profiles[p] = pi
	return pi
}

// skipMask returns the Filter plugins PreFilter skipped, as a mask over
// pi.filters (a profile has at most 64 Filter plugins on the fast path;
// see Run).
func (pi *profileInfo) skipMask(state *framework.CycleState) uint64 {
	var mask uint64
	for i, name := range pi.filterNames {
		if skipped(state.SkipFilterPlugins, name) {
			mask |= 1 << uint(i)
		}
	}
	return mask
}

// Cycle is one cycle's filter-and-score work, after PreFilter (and the
// nominated node, which the scheduler tries first).
type Cycle struct {
	// Profile is the pod's profile; State the cycle's state after
	// PreFilter.
	Profile *framework.Profile
	State   *framework.CycleState
	Pod     *api.Pod
	// Nodes are the nodes to filter (all, or those PreFilter left), in
	// snapshot order; filtering starts at Nodes[Start % len(Nodes)].
	Nodes []*cluster.NodeInfo
	Start int
	// NumToFind is the sampling target: filtering stops once that many
	// nodes fit.
	NumToFind int
	// Nominated are the pods nominated to each node.
	Nominated map[string][]*cluster.PodInfo
	// Diagnosis receives the statuses of the rejected nodes when no node
	// fits.
	Diagnosis *framework.Diagnosis
	// Eager allows scoring nodes as they pass Filter when every node is
	// filtered (the plugins decide whether it applies: see Run).
	Eager bool
	// Objects are the snapshot's objects (View.Objects), when the
	// filters' verdicts of unchanged nodes may be kept for the next
	// cycle of a pod of the same shape (see filterMemo); nil keeps none.
	Objects *cluster.Objects
	// Select picks the winner among totals (in filtering order) when two
	// or more nodes share the highest total: the scheduler's tie-break.
	Select func(totals []int64) int
}

// Outcome is what Run decided.
type Outcome struct {
	// Node is the node picked; nil when none fits or on error.
	Node *cluster.NodeInfo
	// Feasible is the number of nodes that fit; Rejected the number of
	// rejected nodes counted (EvaluatedNodes is their sum, and the
	// start index advances by it).
	Feasible, Rejected int
	// Ties is the number of feasible nodes with the highest total (0
	// when fewer than two nodes fit: nothing was scored).
	Ties int
	// Path says how the cycle was scored: "eager", "by-max", "general",
	// "plain" (the profile has no Score plugin) or "" (not scored).
	Path string
	// Filtered is set once Filter has run without error: Feasible and
	// Rejected are then the cycle's counts even if scoring failed.
	Filtered bool
}

// Run filters c.Nodes from c.Start until c.NumToFind fit, then, if two
// or more fit, runs PreScore and scores them, and picks the best: the
// outcome of the scheduler's plain cycle for the same input, faster. Its
// error is the plain cycle's: a plugin error, or the context's.
//
// The fast paths apply per cycle, from the plugins active in it
// (framework.FastPathPlugin): filtering in parallel chunks always, with
// FilterNodes where offered; scoring by max (chunks normalised where they
// were scored) when every Score plugin not skipped at PreScore that
// normalises offers NormalizeByMax; eager scoring (PreScore before
// Filter, each chunk scored as it passes) when c.Eager, every node is to
// be filtered, no pod is nominated, and every Score plugin is
// ScoresAnyNodes or skips at PreScore (a normaliser not by max then runs
// over every scored node once Filter is done), or is ScoresIfAllFit and
// every node fits. Otherwise the cycle
// scores the general way (scoreGeneral: any normalisation, the same
// totals as framework.Profile.RunScorePlugins, which stays the
// reference).
func (e *Engine) Run(ctx context.Context, c *Cycle) (Outcome, error) {
	pi := e.info(c.Profile)
	if len(pi.filters) > 64 {
		return e.runPlain(ctx, c, pi)
	}
	eager := c.Eager && c.NumToFind >= len(c.Nodes) && len(c.Nodes) > 1 && len(c.Nominated) == 0 && pi.eagerPossible() &&
		!pi.expectLateScore() && !(pi.anyIfAllFit && pi.someRejected)
	res := e.filterPass(ctx, c, pi, eager)
	if res.err != nil {
		if res.run != nil {
			res.run.discard()
		}
		return Outcome{Rejected: res.rejected, Feasible: len(res.feasible) + res.fit}, res.err
	}
	out := Outcome{Feasible: len(res.feasible) + res.fit, Rejected: res.rejected, Filtered: true}
	allFit := out.Feasible == len(c.Nodes)
	if pi.anyIfAllFit && c.NumToFind >= len(c.Nodes) {
		pi.someRejected = !allFit
	}
	switch {
	case out.Feasible == 0:
		return out, nil
	case out.Feasible == 1:
		out.Node = res.feasible[0]
		return out, nil
	}
	if run := res.run; run != nil {
		if allFit || !pi.ifAllFitActive(e.preSkip) {
			node, ties, ok, err := e.finishEager(ctx, c, pi, run)
			if err != nil || ok {
				out.Node, out.Ties, out.Path = node, ties, "eager"
				return out, err
			}
		} else {
			// A plugin scored as if every node fit, and one did not.
			run.discard()
		}
		// A plugin that does not score eagerly did not skip, or one
		// that scores eagerly only when every node fits did not skip
		// and a node was rejected: score the nodes after Filter,
		// PreScore included, as a cycle without eager scoring does.
		node, ties, err := e.score(ctx, c, pi, run.scoredNodes(), true, &out)
		out.Node, out.Ties = node, ties
		return out, err
	}
	node, ties, err := e.score(ctx, c, pi, res.feasible, true, &out)
	out.Node, out.Ties = node, ties
	return out, err
}

// runPlain filters node by node: for profiles the fast filter pass does
// not take (more than 64 Filter plugins).
func (e *Engine) runPlain(ctx context.Context, c *Cycle, pi *profileInfo) (Outcome, error) {
	var out Outcome
	var feasible []*cluster.NodeInfo
	n := len(c.Nodes)
	for i := range n {
		ni := c.Nodes[(c.Start+i)%n]
		st := pi.prof.RunFilterPluginsWithNominatedPods(ctx, c.State, c.Pod, ni, c.Nominated[ni.Node().Name])
		switch {
		case st.IsSuccess():
			if len(feasible) == c.NumToFind {
				i = n
				continue
			}
			feasible = append(feasible, ni)
		case st.Code() == framework.Error:
			out.Feasible = len(feasible)
			return out, st.AsError()
		default:
			c.Diagnosis.NodeToStatus.SetNode(ni, st)
			c.Diagnosis.AddPluginStatus(st)
		}
	}
	out.Feasible, out.Rejected, out.Filtered = len(feasible), c.Diagnosis.NodeToStatus.Len(), true
	switch len(feasible) {
	case 0:
		return out, nil
	case 1:
		out.Node = feasible[0]
		return out, nil
	}
	node, ties, err := e.score(ctx, c, pi, feasible, true, &out)
	out.Node, out.Ties = node, ties
	return out, err
}

// score runs PreScore (unless done) and scores nodes after Filter, by
// max if the active plugins allow it, else the general way, and picks
// the best.
func (e *Engine) score(ctx context.Context, c *Cycle, pi *profileInfo, nodes []*cluster.NodeInfo, preScore bool, out *Outcome) (*cluster.NodeInfo, int, error) {
	if len(pi.score) == 0 {
		// Every node scores 1 (kube-scheduler's prioritizeNodes).
		totals := make([]int64, len(nodes))
		for i := range totals {
			totals[i] = 1
		}
		out.Path = "plain"
		return nodes[c.Select(totals)], len(nodes), nil
	}
	if preScore {
		if st := pi.prof.RunPreScorePlugins(ctx, c.State, c.Pod, nodes); !st.IsSuccess() {
			return nil, 0, st.AsError()
		}
		for k, name := range pi.scoreNames {
			if pi.late[k] {
				pi.lateScored[k] = !skipped(c.State.SkipScorePlugins, name)
			}
		}
	}
	buf := &e.scoreBuf
	if pi.activeByMax(c.State, buf) && len(buf.active) > 0 {
		out.Path = "by-max"
		totals, best, ties, st := e.scoreByMax(ctx, pi, c.State, c.Pod, nodes, buf)
		if !st.IsSuccess() {
			return nil, 0, st.AsError()
		}
		if ties != 1 {
			best = c.Select(totals)
		}
		return nodes[best], ties, nil
	}
	gb := &e.general
	pi.activeAll(c.State, gb)
	if len(gb.active) == 0 {
		// Every plugin skipped: every node totals 0.
		out.Path = "general"
		totals := grow(gb.totals, len(nodes))
		clear(totals)
		gb.totals = totals
		return nodes[c.Select(totals)], len(nodes), nil
	}
	out.Path = "general"
	totals, best, ties, st := e.scoreGeneral(ctx, pi, c.State, c.Pod, nodes, gb)
	if !st.IsSuccess() {
		return nil, 0, st.AsError()
	}
	if ties != 1 {
		best = c.Select(totals)
	}
	return nodes[best], ties, nil
}

// ifAllFitActive reports whether a score plugin that scores eagerly only
// when every node fits is not in skip, the early PreScore skips.
func (pi *profileInfo) ifAllFitActive(skip map[string]struct{}) bool {
	for k, name := range pi.scoreNames {
		if pi.ifAllFit[k] && !skipped(skip, name) {
			return true
		}
	}
	return false
}

// expectLateScore reports whether a Score plugin that does not score
// eagerly did not skip in the last cycle that ran its PreScore.
func (pi *profileInfo) expectLateScore() bool {
	for _, on := range pi.lateScored {
		if on {
			return true
		}
	}
	return false
}

// eagerPossible reports whether eager scoring may apply to a cycle of
// pi: every Score plugin scores eagerly or has a PreScore part that may
// skip it.
func (pi *profileInfo) eagerPossible() bool {
	for k := range pi.score {
		if !pi.eagerOK[k] && !pi.hasPreScore[k] {
			return false // active in every cycle
		}
	}
	return len(pi.score) > 0
}

// startEager runs the PreScore plugins that may run before Filter over
// every node, into e.preState (helpers may already be filtering with the
// cycle's state), and starts the eager score run over the chunks of pos
// (the filter pass places each chunk's passing nodes first in its part).
// It returns nil when eager scoring does not apply to the cycle: an early
// PreScore failed (the cycle then runs PreScore in its place, after
// Filter, which reports it as kube-scheduler does), or a Score plugin
// that does not score eagerly is active and no late PreScore may still
// skip it, or no plugin is left to score.
func (e *Engine) startEager(ctx context.Context, c *Cycle, pi *profileInfo, pos []*cluster.NodeInfo, chunk int) *scoreRun {
	if e.preState == nil {
		e.preState, e.preSkip = framework.NewCycleState(), map[string]struct{}{}
	}
	ps := e.preState
	ps.Reset()
	clear(e.preSkip)
	ps.SkipScorePlugins = e.preSkip
	for i, pl := range pi.preScore {
		if !pi.preScoreEarly[i] {
			continue
		}
		st := pl.PreScore(ctx, ps, c.Pod, c.Nodes)
		switch {
		case st.IsSkip():
			e.preSkip[pl.Name()] = struct{}{}
		case !st.IsSuccess():
			return nil
		}
	}
	for k, name := range pi.scoreNames {
		if !pi.eagerOK[k] && !pi.late[k] && !skipped(e.preSkip, name) {
			return nil // its PreScore ran and did not skip it: score after Filter
		}
	}
	buf := &e.scoreBuf
	buf.resetActive(len(pi.scoreNames))
	for k, name := range pi.scoreNames {
		if !pi.eagerOK[k] || skipped(e.preSkip, name) {
			continue
		}
		buf.active = append(buf.active, k)
		buf.maxNorm = append(buf.maxNorm, pi.normByMax[k])
		buf.general = append(buf.general, pi.normalizes[k] && pi.normByMax[k] == nil)
	}
	if len(buf.active) == 0 {
		return nil
	}
	return pi.newScoreRun(ctx, ps, c.Pod, pos, buf, chunk)
}

// finishEager completes an eager cycle after Filter: the late PreScore
// plugins over the feasible nodes (into the cycle's state, as upstream),
// then, if every Score plugin that did not score eagerly skipped, the
// sums and the pick. ok is false when one did not skip: the caller
// scores after Filter (by max or the general way), after PreScore
// again.
func (e *Engine) finishEager(ctx context.Context, c *Cycle, pi *profileInfo, run *scoreRun) (node *cluster.NodeInfo, ties int, ok bool, err error) {
	if hasLatePreScore(pi) {
		feasible := run.scoredNodes()
		for i, ps := range pi.preScore {
			if pi.preScoreEarly[i] {
				continue
			}
			st := ps.PreScore(ctx, c.State, c.Pod, feasible)
			switch {
			case st.IsSkip():
				// Recorded with the early skips, so that the run's
				// state says which plugins it scores.
				e.preSkip[ps.Name()] = struct{}{}
			case !st.IsSuccess():
				run.discard()
				return nil, 0, false, fmt.Errorf("running PreScore plugin %q: %w", ps.Name(), st.AsError())
			}
		}
		for k, name := range pi.scoreNames {
			if pi.late[k] {
				pi.lateScored[k] = !skipped(e.preSkip, name)
			}
		}
		for k, name := range pi.scoreNames {
			if !pi.eagerOK[k] && !skipped(e.preSkip, name) {
				run.discard()
				return nil, 0, false, nil
			}
		}
	}
	// The nodes were scored as they passed Filter, each chunk's summed
	// with its own highest scores; sum again the chunks whose highest
	// scores were not the cycle's.
	if run.normalize() {
		for ch := range run.chunks {
			run.sum(ch)
		}
	}
	best, ties, st := run.finish()
	if !st.IsSuccess() {
		return nil, 0, true, st.AsError()
	}
	if ties != 1 {
		best = c.Select(run.totals())
	}
	return run.node(best), ties, true, nil
}

func hasLatePreScore(pi *profileInfo) bool {
	for _, early := range pi.preScoreEarly {
		if !early {
			return true
		}
	}
	return false
}

// Parallelism is the number of goroutines the engine uses at most.
func (e *Engine) Parallelism() int { return e.parallelism }
