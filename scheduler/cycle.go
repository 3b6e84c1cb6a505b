package scheduler

// Start here: this file is one scheduling cycle written plainly, one node
// and one plugin at a time. It is the definition of what a cycle
// decides (kube-scheduler v1.37.2's schedulePod with one goroutine).
// Explain runs it. Schedule runs the same steps up to PreFilter and the
// nominated node, then hands Filter and Score to the engine
// (internal/engine), which must decide exactly what plainCycle decides,
// faster. Tests compare the two, and WithEngineCheck does at every cycle.

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// cycleRecord is what plainCycle saw, for Explain: it is filled in as
// the cycle goes when not nil.
type cycleRecord struct {
	preFilter       *framework.Status
	preFilterResult *framework.PreFilterResult
	narrowedBy      []string
	nominated       string              // the nominated node tried first, if any
	filtered        []*cluster.NodeInfo // in the order Filter ran on them
	statuses        map[string]*framework.Status
	feasible        []*cluster.NodeInfo
	scores          []framework.NodePluginScores // of the feasible nodes, when scored
	scoredForReport bool                         // one node fit: scored only for the record
	tied            []int                        // indexes in feasible of the nodes at the best total
	pick            *cluster.NodeInfo
}

// plainCycle runs one cycle for pod with prof from the rotating start
// index start and returns the result, the next start index and the
// error (a *FitError when no node fits).
func (s *Scheduler) plainCycle(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, start int, rec *cycleRecord) (Decision, int, error) {
	res := Decision{Profile: prof.Name(), NotEvaluated: prof.NotEvaluated()}
	view := s.snapshot.View()
	allNodes := view.Nodes()
	if len(allNodes) == 0 {
		return res, start, ErrNoNodesAvailable
	}
	if rec == nil {
		rec = &cycleRecord{}
	}
	diag := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	fitError := func() error { return &FitError{Pod: pod, NumAllNodes: len(allNodes), Diagnosis: diag} }

	// 1. PreFilter, and the nodes it leaves.
	nodes, done, err := s.preFilter(ctx, prof, state, pod, view, allNodes, &diag, rec)
	if err != nil {
		return res, start, err
	}
	if done {
		return res, start, fitError()
	}

	// 2. The nominated node first: if it fits, it is the only feasible
	// node and nothing else is filtered.
	if ni := s.nominatedNode(ctx, prof, state, pod, view, &diag, rec); ni != nil {
		res.Node, res.EvaluatedNodes, res.FeasibleNodes = ni.Node().Name, 1, 1
		rec.feasible, rec.pick = []*cluster.NodeInfo{ni}, ni
		return res, start, nil
	}

	// 3. Filter node by node from the rotating start index until the
	// sampling target is met. A node that fits beyond the target ends
	// the pass; the rejected nodes met before it are recorded.
	numToFind := s.numToFind(prof, len(nodes))
	var feasible []*cluster.NodeInfo
	var filterErr error
	for i := range nodes {
		ni := nodes[(start+i)%len(nodes)]
		st := prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, s.nominated[ni.Node().Name])
		if st.IsSuccess() && len(feasible) == numToFind {
			break
		}
		rec.filtered = append(rec.filtered, ni)
		if st.Code() == framework.Error {
			filterErr = st.AsError()
			break
		}
		if st.IsSuccess() {
			feasible = append(feasible, ni)
			continue
		}
		diag.NodeToStatus.Set(ni.Node().Name, st)
		diag.AddPluginStatus(st)
	}
	rec.feasible, rec.statuses = feasible, statusMap(diag.NodeToStatus)
	// The start index moves past the nodes processed (those that fit and
	// those with a status), even on error, so that every node gets its
	// turn.
	processed := len(feasible) + diag.NodeToStatus.Len()
	next := (start + processed) % len(allNodes)
	if filterErr == nil {
		filterErr = ctx.Err()
	}
	if filterErr != nil {
		return res, next, filterErr
	}
	if len(feasible) == 0 {
		return res, next, fitError()
	}
	res.EvaluatedNodes, res.FeasibleNodes = processed, len(feasible)

	// 4. One feasible node is the answer: kube-scheduler scores nothing.
	if len(feasible) == 1 {
		res.Node = feasible[0].Node().Name
		rec.pick = feasible[0]
		if rec.scoredForReport {
			// Explain scores it anyway, for the report only.
			scores, err := s.scorePlain(ctx, prof, state, pod, feasible)
			if err == nil {
				rec.scores, rec.tied = scores, []int{0}
			}
		}
		return res, next, nil
	}

	// 5. PreScore, Score, NormalizeScore, range check, weights and sums
	// (framework.Profile.RunScorePlugins is those loops).
	scores, err := s.scorePlain(ctx, prof, state, pod, feasible)
	if err != nil {
		return res, next, err
	}
	rec.scores = scores

	// 6. The highest total wins; ties are broken as s.tieBreak says.
	pick, tied := s.pickPlain(scores)
	rec.tied, rec.pick = tied, feasible[pick]
	res.Node = feasible[pick].Node().Name
	return res, next, nil
}

// preFilter runs the PreFilter plugins and returns the nodes to filter
// (all, or those the PreFilterResults left, in snapshot order), or done
// when PreFilter rejected the pod (diag then says why).
func (s *Scheduler) preFilter(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, view *cluster.View, allNodes []*cluster.NodeInfo, diag *framework.Diagnosis, rec *cycleRecord) (nodes []*cluster.NodeInfo, done bool, err error) {
	result, st, narrowedBy := prof.RunPreFilterPlugins(ctx, state, pod, allNodes)
	diag.UnschedulablePlugins = narrowedBy
	if rec != nil {
		rec.preFilter, rec.preFilterResult = st, result
		for name := range narrowedBy {
			rec.narrowedBy = append(rec.narrowedBy, name)
		}
		slices.Sort(rec.narrowedBy)
	}
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, false, st.AsError()
		}
		// Every node carries the PreFilter status.
		diag.NodeToStatus.SetAbsentNodesStatus(st)
		diag.PreFilterMsg = st.Message()
		diag.AddPluginStatus(st)
		return nil, true, nil
	}
	if result.AllNodes() {
		return allNodes, false, nil
	}
	for _, name := range slices.Sorted(maps.Keys(result.NodeNames)) {
		if ni, ok := view.Get(name); ok {
			nodes = append(nodes, ni)
		}
	}
	// The nodes left out are absent from the filter statuses: they carry
	// this one.
	diag.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", diag.SortedUnschedulablePlugins())))
	return nodes, false, nil
}

// nominatedNode filters the node the pod is nominated to (after
// preemption) and returns it if it fits. A rejection is recorded in
// diag; an error is ignored, as kube-scheduler logs it and goes on.
func (s *Scheduler) nominatedNode(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, view *cluster.View, diag *framework.Diagnosis, rec *cycleRecord) *cluster.NodeInfo {
	name := pod.Status.NominatedNodeName
	if name == "" {
		return nil
	}
	ni, ok := view.Get(name)
	if !ok {
		return nil
	}
	if rec != nil {
		rec.nominated = name
	}
	st := prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, s.nominated[name])
	switch {
	case st.IsSuccess():
		return ni
	case st.Code() != framework.Error:
		diag.NodeToStatus.Set(name, st)
		diag.AddPluginStatus(st)
	}
	return nil
}

// numToFind is the sampling target for a pass over n nodes: one node
// when the profile does not score (any feasible node is as good as
// another), else numFeasibleNodesToFind.
func (s *Scheduler) numToFind(prof *framework.Profile, n int) int {
	if !prof.HasScorePlugins() {
		return min(1, n)
	}
	return min(int(s.numFeasibleNodesToFind(prof.PercentageOfNodesToScore(), int32(n))), n)
}

// scorePlain runs PreScore over the feasible nodes and scores them.
// Without Score plugins every node scores 1.
func (s *Scheduler) scorePlain(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, feasible []*cluster.NodeInfo) ([]framework.NodePluginScores, error) {
	if !prof.HasScorePlugins() {
		scores := make([]framework.NodePluginScores, len(feasible))
		for i, ni := range feasible {
			scores[i] = framework.NodePluginScores{Name: ni.Node().Name, TotalScore: 1}
		}
		return scores, nil
	}
	if st := prof.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		return nil, st.AsError()
	}
	scores, st := prof.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	return scores, nil
}

// pickPlain returns the index of the winner among scores and the
// indexes of every node with the highest total. With TieBreakUpstream the
// winner is the first node popped from a container/heap of the scores
// in filtering order, ordered by total (kube-scheduler's
// NewSortedScoredNodes(...).Pop() with every Randomizer 0); with
// TieBreakRandom each tied node draws a Randomizer, in order, and the
// highest wins (the first of equals).
func (s *Scheduler) pickPlain(scores []framework.NodePluginScores) (int, []int) {
	var tied []int
	for i := range scores {
		switch {
		case len(tied) == 0 || scores[i].TotalScore > scores[tied[0]].TotalScore:
			tied = append(tied[:0], i)
		case scores[i].TotalScore == scores[tied[0]].TotalScore:
			tied = append(tied, i)
		}
	}
	if len(tied) == 1 {
		return tied[0], tied
	}
	if s.tieBreak == TieBreakUpstream {
		h := &upstreamHeap{scores: scores}
		for i := range scores {
			h.idx = append(h.idx, i)
		}
		heap.Init(h)
		return heap.Pop(h).(int), tied
	}
	best := -1
	for _, i := range tied {
		scores[i].Randomizer = int(s.rng.Int64())
		if best < 0 || scores[i].Randomizer > scores[best].Randomizer {
			best = i
		}
	}
	return best, tied
}

// upstreamHeap is kube-scheduler's scored-node heap: the root is the
// highest total.
type upstreamHeap struct {
	scores []framework.NodePluginScores
	idx    []int
}

func (h *upstreamHeap) Len() int { return len(h.idx) }
func (h *upstreamHeap) Less(i, j int) bool {
	return h.scores[h.idx[i]].TotalScore > h.scores[h.idx[j]].TotalScore
}
func (h *upstreamHeap) Swap(i, j int) { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *upstreamHeap) Push(x any)    { h.idx = append(h.idx, x.(int)) }
func (h *upstreamHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

func statusMap(m *framework.NodeToStatus) map[string]*framework.Status {
	out := map[string]*framework.Status{}
	m.ForEachExplicitNode(func(n string, st *framework.Status) { out[n] = st })
	return out
}

// errEngineMismatch is wrapped by WithEngineCheck's errors.
var errEngineMismatch = errors.New("scheduler: the engine and the plain cycle disagree")
