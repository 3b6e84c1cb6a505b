package framework

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// RunPreEnqueuePlugins runs the PreEnqueue plugins in order and returns
// the first non-success status, naming its plugin; nil admits the pod.
func (p *Profile) RunPreEnqueuePlugins(ctx context.Context, pod *api.Pod) *Status {
	for _, pl := range p.preEnqueue {
		if st := pl.PreEnqueue(ctx, pod); !st.IsSuccess() {
			return st.WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunPreFilterPlugins runs the PreFilter plugins as kube-scheduler does.
// A plugin returning Skip has its Filter skipped for the cycle (recorded
// in state.SkipFilterPlugins). UnschedulableAndUnresolvable stops at once;
// Unschedulable lets the others run and is returned at the end (so that
// preemption sees every plugin's state); any other failure is an Error
// "running PreFilter plugin %q: ...". The PreFilterResults are
// intersected; an empty intersection is an UnschedulableAndUnresolvable
// "node(s) didn't satisfy plugin(s) [a b] simultaneously" (or "node(s)
// didn't satisfy plugin a" for one plugin). The set returned holds the
// plugins whose results narrowed the nodes.
func (p *Profile) RunPreFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*PreFilterResult, *Status, map[string]struct{}) {
	var skip map[string]struct{}
	defer func() { p.setFilterSkip(state, skip) }()
	var result *PreFilterResult
	var withNodes map[string]struct{}
	var ret *Status
	for _, pl := range p.preFilter {
		name := pl.Name()
		r, st := pl.PreFilter(ctx, state, pod, nodes)
		if st.IsSkip() {
			if skip == nil {
				skip = skipSet(&state.spareFilterSkip)
			}
			skip[name] = struct{}{}
			continue
		}
		if !st.IsSuccess() {
			st = st.WithPlugin(name)
			switch st.Code() {
			case UnschedulableAndUnresolvable:
				return nil, st, nil
			case Unschedulable:
				ret = st
				continue
			}
			return nil, AsStatus(fmt.Errorf("running PreFilter plugin %q: %w", name, st.AsError())).WithPlugin(name), nil
		}
		if !r.AllNodes() {
			if withNodes == nil {
				withNodes = map[string]struct{}{}
			}
			withNodes[name] = struct{}{}
		}
		result = result.Merge(r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			names := sortedSet(withNodes)
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", names)
			if len(names) == 1 {
				msg = fmt.Sprintf("node(s) didn't satisfy plugin %v", names[0])
			}
			return result, NewStatus(UnschedulableAndUnresolvable, msg), withNodes
		}
	}
	return result, ret, withNodes
}

// RunPreFilterExtensionAddPod calls the AddPod hook of every PreFilter
// plugin that has one and was not skipped.
func (p *Profile) RunPreFilterExtensionAddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status {
	for _, pl := range p.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || skipped(state.SkipFilterPlugins, pl.Name()) {
			continue
		}
		if st := ext.AddPod(ctx, state, podToSchedule, podToAdd, nodeInfo); !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running AddPod on PreFilter plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod calls the RemovePod hook of every
// PreFilter plugin that has one and was not skipped.
func (p *Profile) RunPreFilterExtensionRemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status {
	for _, pl := range p.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || skipped(state.SkipFilterPlugins, pl.Name()) {
			continue
		}
		if st := ext.RemovePod(ctx, state, podToSchedule, podToRemove, nodeInfo); !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running RemovePod on PreFilter plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

// setFilterSkip records the Filter plugins to skip, by name and as a
// mask over p's Filter plugins.
func (p *Profile) setFilterSkip(state *CycleState, skip map[string]struct{}) {
	state.SkipFilterPlugins = skip
	state.skip = filterSkip{}
	if len(p.filter) > 64 {
		return
	}
	var mask uint64
	for i, name := range p.filterNames {
		if _, ok := skip[name]; ok {
			mask |= 1 << uint(i)
		}
	}
	state.skip = filterSkip{owner: p, set: skip, mask: mask}
}

// filterSkipMask returns the mask of Filter plugins to skip, and false
// when it is not known (the state's skip set was not made by p's
// PreFilter) and names must be looked up.
func (p *Profile) filterSkipMask(state *CycleState) (uint64, bool) {
	if state == nil || len(state.SkipFilterPlugins) == 0 {
		return 0, true
	}
	if state.skip.owner == p && sameSet(state.skip.set, state.SkipFilterPlugins) {
		return state.skip.mask, true
	}
	return 0, false
}

// sameSet reports whether a and b are the same map (a map value is a
// pointer to the map's header).
func sameSet(a, b map[string]struct{}) bool {
	return *(*unsafe.Pointer)(unsafe.Pointer(&a)) == *(*unsafe.Pointer)(unsafe.Pointer(&b))
}

func skipped(set map[string]struct{}, name string) bool {
	if len(set) == 0 {
		return false
	}
	_, ok := set[name]
	return ok
}

// RunFilterPlugins runs the Filter plugins on one node, in order, and
// stops at the first that does not succeed. Its status is returned as a
// copy naming the plugin (the plugin's own value is not modified, so
// plugins may return shared statuses); a status other than Success,
// Unschedulable, UnschedulableAndUnresolvable or Pending becomes an Error
// "running %q filter plugin: ...". Plugins skipped at PreFilter do not
// run. A node that passes costs no allocation here.
func (p *Profile) RunFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *Status {
	mask, known := p.filterSkipMask(state)
	for i, pl := range p.filter {
		name := p.filterNames[i]
		if known {
			if mask&(1<<uint(i)) != 0 {
				continue
			}
		} else if skipped(state.SkipFilterPlugins, name) {
			continue
		}
		if st := pl.Filter(ctx, state, pod, nodeInfo); !st.IsSuccess() {
			if !st.IsRejected() {
				st = AsStatus(fmt.Errorf("running %q filter plugin: %w", name, st.AsError()))
			}
			return st.WithPlugin(name)
		}
	}
	return nil
}

// filterBlock is how many nodes RunFilterPluginsOnNodes takes through the
// plugins at a time: few enough that what the plugins read of them stays
// in the cache from one plugin to the next.
const filterBlock = 64

// stampCache remembers, for one Filter plugin, the copies naming the
// plugin of statuses the plugin shares between nodes (its fixed-reason
// rejections), so that RunFilterPluginsOnNodes makes each copy once per
// profile rather than once per block. It is direct-mapped and safe for
// concurrent use; an entry is an immutable pair, replaced whole.
type stampCache struct {
	slots [8]atomic.Pointer[stampedStatus]
}

type stampedStatus struct{ in, out *Status }

func stampSlot(s *Status) int { return int(uintptr(unsafe.Pointer(s))>>4) & 7 }

// get returns the stamped copy of s, nil if none is kept.
func (c *stampCache) get(s *Status) *Status {
	if e := c.slots[stampSlot(s)].Load(); e != nil && e.in == s {
		return e.out
	}
	return nil
}

// put keeps out as the stamped copy of in.
func (c *stampCache) put(in, out *Status) {
	c.slots[stampSlot(in)].Store(&stampedStatus{in, out})
}

// filterScratch is RunFilterPluginsOnNodes' memory for one block.
type filterScratch struct {
	nodes [filterBlock]*cluster.NodeInfo
	idx   [filterBlock]int
	out   [filterBlock]*Status
}

var filterScratchPool = sync.Pool{New: func() any { return new(filterScratch) }}

// RunFilterPluginsOnNodes sets statuses[i] to RunFilterPlugins(ctx,
// state, pod, nodes[i]) for every i; statuses must have len(nodes)
// entries. It takes the nodes through the plugins a block at a time,
// calling a BatchFilterPlugin once per block with the nodes every
// earlier plugin passed, so the results are those of RunFilterPlugins,
// node by node. It allocates nothing for nodes that pass.
func (p *Profile) RunFilterPluginsOnNodes(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*Status) {
	statuses = statuses[:len(nodes)]
	clear(statuses)
	p.filterOnNodes(ctx, state, pod, nodes, statuses, nil, 0)
}

// RunFilterPluginsOnNodesBits is RunFilterPluginsOnNodes for a caller
// that keeps which nodes pass as bits: it sets bit off+i of passed (bit b
// is passed[b/64]&(1<<(b%64))) for every nodes[i] that passes, and
// statuses[i] only for those that do not, leaving the other entries and
// bits as they are. It returns how many nodes pass. It saves clearing the
// statuses and looking at the status of every node that passes.
func (p *Profile) RunFilterPluginsOnNodesBits(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*Status, passed []uint64, off int) int {
	return p.filterOnNodes(ctx, state, pod, nodes, statuses[:len(nodes)], passed, off)
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

// filterOnNodes is RunFilterPluginsOnNodes without clearing statuses: it
// sets statuses[i] for the nodes that do not pass and, if passed is not
// nil, bit off+i of passed for those that do, and returns how many pass.
func (p *Profile) filterOnNodes(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*Status, passed []uint64, off int) int {
	if len(nodes) == 0 {
		return 0
	}
	if len(p.filter) == 0 {
		if passed != nil {
			setBits(passed, off, len(nodes))
		}
		return len(nodes)
	}
	npassed := 0
	mask, known := p.filterSkipMask(state)
	sc := filterScratchPool.Get().(*filterScratch)
	for lo := 0; lo < len(nodes); lo += filterBlock {
		hi := min(lo+filterBlock, len(nodes))
		// live are the nodes every plugin so far passed: nodes[lo:hi]
		// until one is rejected, then sc.nodes with indexes sc.idx.
		live := nodes[lo:hi]
		compacted := false
		for i, pl := range p.filter {
			name := p.filterNames[i]
			if known {
				if mask&(1<<uint(i)) != 0 {
					continue
				}
			} else if skipped(state.SkipFilterPlugins, name) {
				continue
			}
			// out is all nil here: the loops below set every entry they
			// look at back to nil.
			out := sc.out[:len(live)]
			if b := p.filterBatch[i]; b != nil {
				b.FilterNodes(ctx, state, pod, live, out)
			} else {
				for j, ni := range live {
					out[j] = pl.Filter(ctx, state, pod, ni)
				}
			}
			first := -1
			for j, st := range out {
				if st != nil {
					if st.code != Success {
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
				copy(sc.nodes[:], live)
				for j := range live {
					sc.idx[j] = lo + j
				}
				compacted = true
			}
			// Keep the nodes that passed; record the others' statuses as
			// RunFilterPlugins does.
			// Plugins return shared Status values for fixed reasons, and a
			// Status is immutable, so nodes of the block rejected with the
			// same value share one copy naming the plugin.
			var lastIn, lastOut *Status
			lastCached := false
			w := first
			for j := first; j < len(out); j++ {
				st := out[j]
				out[j] = nil
				if st.IsSuccess() {
					sc.nodes[w], sc.idx[w] = sc.nodes[j], sc.idx[j]
					w++
					continue
				}
				if st == lastIn {
					if !lastCached {
						// A status met twice is one the plugin shares:
						// keep its stamped copy for later blocks.
						p.filterStamps[i].put(lastIn, lastOut)
						lastCached = true
					}
					statuses[sc.idx[j]] = lastOut
					continue
				}
				lastIn = st
				if !st.IsRejected() {
					lastOut, lastCached = AsStatus(fmt.Errorf("running %q filter plugin: %w", name, st.AsError())).WithPlugin(name), true
				} else if lastOut = p.filterStamps[i].get(st); lastOut != nil {
					lastCached = true
				} else {
					lastOut, lastCached = st.WithPlugin(name), false
				}
				statuses[sc.idx[j]] = lastOut
			}
			live = sc.nodes[:w]
			if w == 0 {
				break
			}
		}
		npassed += len(live)
		if passed != nil {
			if !compacted {
				setBits(passed, off+lo, hi-lo)
			} else {
				// The indexes ascend: gather each word's bits before
				// storing it.
				cur, acc := -1, uint64(0)
				for _, i := range sc.idx[:len(live)] {
					b := off + i
					if w := b >> 6; w != cur {
						if cur >= 0 {
							passed[cur] |= acc
						}
						cur, acc = w, 0
					}
					acc |= 1 << (b & 63)
				}
				if cur >= 0 {
					passed[cur] |= acc
				}
			}
		}
	}
	clear(sc.nodes[:])
	clear(sc.out[:])
	filterScratchPool.Put(sc)
	return npassed
}

// PodPriority is a pod's priority, 0 when unset.
func PodPriority(pod *api.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// RunFilterPluginsWithNominatedPods runs the Filter plugins as
// kube-scheduler does when pods are nominated to the node: first with the
// nominated pods of equal or higher priority (other than pod itself)
// added to a copy of the node and of the state, then, if that passes and
// any were added, again without them, so that the decision holds whether
// or not they land. nominated are the pods nominated to this node.
func (p *Profile) RunFilterPluginsWithNominatedPods(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo) *Status {
	if len(nominated) == 0 {
		return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
	}
	prio := PodPriority(pod)
	var stateWith *CycleState
	var infoWith *cluster.NodeInfo
	for _, pi := range nominated {
		if PodPriority(pi.Pod) < prio || samePod(pi.Pod, pod) {
			continue
		}
		if infoWith == nil {
			stateWith = state.Clone()
			infoWith = nodeInfo.Clone()
		}
		infoWith.AddPod(pi)
		if st := p.RunPreFilterExtensionAddPod(ctx, stateWith, pod, pi, infoWith); !st.IsSuccess() {
			return st
		}
	}
	if infoWith == nil {
		return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
	}
	st := p.RunFilterPlugins(ctx, stateWith, pod, infoWith)
	if !st.IsSuccess() {
		return st
	}
	return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
}

func samePod(a, b *api.Pod) bool {
	if a == b {
		return true
	}
	if a.UID != "" || b.UID != "" {
		return a.UID == b.UID
	}
	return a.Name == b.Name && a.Namespace == b.Namespace
}

// RunPostFilterPlugins runs the PostFilter plugins until one succeeds, or
// returns UnschedulableAndUnresolvable or an error; otherwise it returns
// Unschedulable with every plugin's reasons, naming the first plugin, and
// the last non-nil result.
func (p *Profile) RunPostFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, statuses NodeToStatusReader) (*PostFilterResult, *Status) {
	var result *PostFilterResult
	var reasons []string
	var rejector string
	for _, pl := range p.postFilter {
		r, st := pl.PostFilter(ctx, state, pod, statuses)
		switch {
		case st.IsSuccess():
			return r, st
		case st.Code() == UnschedulableAndUnresolvable:
			return r, st.WithPlugin(pl.Name())
		case !st.IsRejected():
			return nil, AsStatus(st.AsError()).WithPlugin(pl.Name())
		}
		if r != nil {
			// A non-nil result is meaningful even with an empty node: it
			// clears the pod's nomination (upstream's ModeOverride).
			result = r
		}
		reasons = append(reasons, st.Reasons()...)
		if rejector == "" {
			rejector = pl.Name()
		}
	}
	return result, NewStatus(Unschedulable, reasons...).WithPlugin(rejector)
}

// RunPreScorePlugins runs the PreScore plugins over the feasible nodes. A
// plugin returning Skip has its Score skipped for the cycle (recorded in
// state.SkipScorePlugins); any other failure is an Error "running
// PreScore plugin %q: ...".
func (p *Profile) RunPreScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *Status {
	var skip map[string]struct{}
	defer func() { state.SkipScorePlugins = skip }()
	for _, pl := range p.preScore {
		st := pl.PreScore(ctx, state, pod, nodes)
		if st.IsSkip() {
			if skip == nil {
				skip = skipSet(&state.spareScoreSkip)
			}
			skip[pl.Name()] = struct{}{}
			continue
		}
		if !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

// PluginScore is one plugin's score of a node.
type PluginScore struct {
	// Name of the plugin.
	Name string
	// Score given.
	Score int64
}

// NodePluginScores is the scores of one node.
type NodePluginScores struct {
	// Name of the node.
	Name string
	// RawScores are the plugins' Score results, before normalisation.
	RawScores []PluginScore
	// NormalizedScores are the scores after NormalizeScore, in
	// [MinNodeScore, MaxNodeScore], before weighting.
	NormalizedScores []PluginScore
	// Scores are the normalised scores times the plugins' weights.
	Scores []PluginScore
	// TotalScore is the sum of Scores.
	TotalScore int64
	// Randomizer breaks ties between nodes of equal TotalScore: the
	// higher wins. The scheduler draws it from its seeded source.
	Randomizer int
}

// ScoreBuffer holds the memory of RunScorePluginsInto and
// RunScorePluginsTotals so that it can be reused from cycle to cycle. The
// zero value is ready; a buffer must not be used by two cycles at once,
// and the scores of a cycle are valid until the buffer is reused.
type ScoreBuffer struct {
	// TotalsOnly makes RunScorePluginsInto skip the per-plugin score
	// lists: the result has each node's Name and TotalScore only. Errors
	// are the same.
	TotalsOnly bool

	nodes               []NodePluginScores
	totals              []int64
	scores              []int64 // plugin-major raw scores
	job                 *scoreJob
	raw, norm, weighted []PluginScore
	lists               []NodeScore
	active, slot        []int

	// The by-max path's memory (see runScoreByMax).
	maxNorm    []MaxNormalizer // per active plugin; nil if it does not normalise
	highest    []int64         // per active plugin
	chunkMax   []int64         // per chunk and active plugin
	chunkSums  []chunkSum      // per chunk
	normTmp    []int64         // per node: a normalised score
	byMaxJob   *byMaxJob
	run        ScoreRun
	best, ties int
}

// Best returns, after RunScorePluginsTotals, the index of the first node
// with the highest total and how many nodes have that total, when the
// run could tell without a pass over the totals; ties is 0 otherwise.
func (b *ScoreBuffer) Best() (index, ties int) { return b.best, b.ties }

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// RunScorePlugins runs the Score plugins not skipped at PreScore on every
// node in parallel, normalises each plugin's scores, checks they are in
// [MinNodeScore, MaxNodeScore] and weights them. The result is in the
// order of nodes.
func (p *Profile) RunScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) ([]NodePluginScores, *Status) {
	return p.RunScorePluginsInto(ctx, state, pod, nodes, &ScoreBuffer{})
}

// RunScorePluginsInto is RunScorePlugins using buf's memory; it allocates
// nothing per node once buf has grown to the cycle's size.
func (p *Profile) RunScorePluginsInto(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer) ([]NodePluginScores, *Status) {
	full := !buf.TotalsOnly
	totals, st := p.runScore(ctx, state, pod, nodes, buf, full)
	if !st.IsSuccess() {
		return nil, st
	}
	out := grow(buf.nodes, len(nodes))
	buf.nodes = out
	np := len(buf.active)
	for i, ni := range nodes {
		out[i] = NodePluginScores{Name: ni.Node().Name, TotalScore: totals[i]}
		if full {
			out[i].RawScores = buf.raw[i*np : (i+1)*np : (i+1)*np]
			out[i].NormalizedScores = buf.norm[i*np : (i+1)*np : (i+1)*np]
			out[i].Scores = buf.weighted[i*np : (i+1)*np : (i+1)*np]
		}
	}
	return out, nil
}

// RunScorePluginsTotals is RunScorePlugins that returns only each node's
// total score, in the order of nodes, in buf's memory: the cheapest way
// to score.
func (p *Profile) RunScorePluginsTotals(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer) ([]int64, *Status) {
	return p.runScore(ctx, state, pod, nodes, buf, false)
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

func rangeError(plugin string, s int64) error {
	return fmt.Errorf("plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing",
		plugin, s, MinNodeScore, MaxNodeScore)
}

// activeScorePlugins sets buf.active to the score plugins to run (those
// not skipped at PreScore) and buf.slot[j] to the score list of active
// plugin j if it normalises (only those need a list), else -1; it
// returns the number of lists.
func (p *Profile) activeScorePlugins(state *CycleState, buf *ScoreBuffer) int {
	var skip map[string]struct{}
	if state != nil {
		skip = state.SkipScorePlugins
	}
	buf.active, buf.slot = buf.active[:0], buf.slot[:0]
	nn := 0
	for i, name := range p.scoreNames {
		if skipped(skip, name) {
			continue
		}
		buf.active = append(buf.active, i)
		if p.score[i].ScoreExtensions() != nil {
			buf.slot = append(buf.slot, nn)
			nn++
		} else {
			buf.slot = append(buf.slot, -1)
		}
	}
	return nn
}

// runScore scores nodes into buf.totals and, when full, the per-plugin
// lists buf.raw, buf.norm and buf.weighted (node-major, one entry per
// active plugin).
func (p *Profile) runScore(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, buf *ScoreBuffer, full bool) ([]int64, *Status) {
	n := len(nodes)
	nn := p.activeScorePlugins(state, buf)
	active, slot := buf.active, buf.slot
	np := len(active)
	totals := GrowAligned(buf.totals, n)
	buf.totals = totals
	buf.best, buf.ties = -1, 0
	if !full && np > 0 && n > 0 && p.byMax(buf) {
		return p.runScoreByMax(ctx, state, pod, nodes, buf)
	}
	lists := grow(buf.lists, nn*n)
	buf.lists = lists
	var raw, norm, weighted []PluginScore
	if full {
		raw = grow(buf.raw, n*np)
		norm = grow(buf.norm, n*np)
		weighted = grow(buf.weighted, n*np)
		buf.raw, buf.norm, buf.weighted = raw, norm, weighted
	}
	if np == 0 || n == 0 {
		clear(totals)
		return totals, nil
	}

	// Pass 1: score, a chunk of nodes at a time, each plugin over the
	// chunk (a BatchScorePlugin in one call), into scores (plugin-major).
	// Then, per node, the scores of plugins that normalise go to their
	// lists; without lists, those of plugins that do not go straight into
	// the total, and one out of range sends the cycle down the full path,
	// which reports it exactly.
	scores := grow(buf.scores, np*n)
	buf.scores = scores
	if buf.job == nil {
		buf.job = new(scoreJob)
	}
	job := buf.job
	*job = scoreJob{p: p, ctx: ctx, state: state, pod: pod, nodes: nodes, active: active, slot: slot,
		scores: scores, lists: lists, raw: raw, totals: totals, full: full}
	job.fe.init(n)
	p.par.untilChunks(ctx, n, NodeChunkSize(n, p.par.Parallelism()), &job.run, job)
	scoreErr, outOfRange := job.fe.err, job.outOfRange.Load()
	*job = scoreJob{}
	if scoreErr != nil {
		return nil, AsStatus(fmt.Errorf("running Score plugins: %w", scoreErr))
	}
	if err := ctx.Err(); err != nil {
		return nil, AsStatus(err)
	}
	if outOfRange {
		if _, st := p.runScore(ctx, state, pod, nodes, buf, true); !st.IsSuccess() {
			return nil, st
		}
		return nil, AsStatus(errors.New("score out of range")) // not reached: the full path reports it
	}

	for j, k := range active {
		l := slot[j]
		if l < 0 {
			continue
		}
		if st := p.score[k].ScoreExtensions().NormalizeScore(ctx, state, pod, NodeScoreList(lists[l*n:(l+1)*n:(l+1)*n])); !st.IsSuccess() {
			err := fmt.Errorf("plugin %q failed with: %w", p.scoreNames[k], st.AsError())
			return nil, AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
		}
	}

	// Pass 2: check and weight the normalised scores. It is arithmetic
	// only, so one goroutine does it.
	if !full {
		if nn == 0 {
			return totals, nil
		}
		// Plugin by plugin; an out-of-range score sends the check down
		// the node-by-node loop below, which reports the first one.
		bad := false
		for j, k := range active {
			l := slot[j]
			if l < 0 {
				continue
			}
			w := p.scoreWeights[k]
			lowest, highest := MinNodeScore, MaxNodeScore
			list := lists[l*n : (l+1)*n]
			t := totals[:len(list)]
			for i, ns := range list {
				sc := ns.Score
				lowest, highest = min(lowest, sc), max(highest, sc)
				t[i] += sc * w
			}
			bad = bad || lowest < MinNodeScore || highest > MaxNodeScore
		}
		if !bad {
			return totals, nil
		}
	}
	for i := range n {
		var total int64
		for j, k := range active {
			l := slot[j]
			var sc int64
			switch {
			case l >= 0:
				sc = lists[l*n+i].Score
			case full:
				sc = raw[i*np+j].Score
			default:
				continue
			}
			if sc > MaxNodeScore || sc < MinNodeScore {
				err := rangeError(p.scoreNames[k], sc)
				return nil, AsStatus(fmt.Errorf("applying score defaultWeights on Score plugins: %w", err))
			}
			w := sc * p.scoreWeights[k]
			if full {
				norm[i*np+j] = PluginScore{Name: p.scoreNames[k], Score: sc}
				weighted[i*np+j] = PluginScore{Name: p.scoreNames[k], Score: w}
			}
			total += w
		}
		totals[i] += total
	}
	if !full {
		// Not reached: the loop above found the score out of range.
		return nil, AsStatus(errors.New("score out of range"))
	}
	return totals, nil
}

// scoreJob is pass 1 of runScore: it scores chunks of nodes, each plugin
// over the chunk (a BatchScorePlugin in one call), into scores
// (plugin-major). Then, per node, the scores of plugins that normalise go
// to their lists; without lists (full unset), those of plugins that do
// not go straight into the totals, and one out of range is recorded so
// that the cycle goes down the full path, which reports it exactly. It
// lives in the ScoreBuffer, so that a cycle allocates nothing for it.
type scoreJob struct {
	p            *Profile
	ctx          context.Context
	state        *CycleState
	pod          *api.Pod
	nodes        []*cluster.NodeInfo
	active, slot []int
	scores       []int64
	lists        []NodeScore
	raw          []PluginScore
	totals       []int64
	full         bool

	fe         firstError
	outOfRange atomic.Bool
	run        chunkRun
}

func (job *scoreJob) work(lo, hi int) {
	p, ctx, state, pod, nodes := job.p, job.ctx, job.state, job.pod, job.nodes
	active, slot, scores, lists, raw, totals, full := job.active, job.slot, job.scores, job.lists, job.raw, job.totals, job.full
	n, np := len(nodes), len(active)
	if job.fe.past(lo) {
		return
	}
	chunk := nodes[lo:hi]
	if !scoreChunk(p, ctx, state, pod, active, scores, n, nodes, lo, hi, &job.fe) {
		return
	}
	clear(totals[lo:hi])
	for j, k := range active {
		out := scores[j*n+lo : j*n+hi]
		switch l := slot[j]; {
		case full:
			for i, sc := range out {
				raw[(lo+i)*np+j] = PluginScore{Name: p.scoreNames[k], Score: sc}
				if l >= 0 {
					lists[l*n+lo+i] = NodeScore{Name: chunk[i].Node().Name, Score: sc}
				}
			}
		case l >= 0:
			list := lists[l*n+lo : l*n+hi]
			for i, sc := range out {
				list[i] = NodeScore{Name: chunk[i].Node().Name, Score: sc}
			}
		default:
			w := p.scoreWeights[k]
			t := totals[lo:hi]
			t = t[:len(out)]
			lowest, highest := MinNodeScore, MaxNodeScore
			for i, sc := range out {
				lowest, highest = min(lowest, sc), max(highest, sc)
				t[i] += sc * w
			}
			if lowest < MinNodeScore || highest > MaxNodeScore {
				job.outOfRange.Store(true)
			}
		}
	}
}

// SortNodeScores orders scores best first: higher TotalScore, then higher
// Randomizer; the order kube-scheduler pops its scored-node heap in.
func SortNodeScores(scores []NodePluginScores) {
	sort.SliceStable(scores, func(i, j int) bool { return betterScore(&scores[i], &scores[j]) })
}

func betterScore(a, b *NodePluginScores) bool {
	return a.TotalScore > b.TotalScore || (a.TotalScore == b.TotalScore && a.Randomizer > b.Randomizer)
}

// BestNode returns the index of the best of scores (see SortNodeScores),
// the first of equals; -1 if scores is empty.
func BestNode(scores []NodePluginScores) int {
	best := -1
	for i := range scores {
		if best < 0 || betterScore(&scores[i], &scores[best]) {
			best = i
		}
	}
	return best
}
