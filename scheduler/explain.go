package scheduler

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// Explanation is one cycle's Decision about a pod and why, with every
// node and every plugin: what a user debugging a Pending pod, or
// comparing nodes, needs. Explain fills it in for any pod, whatever the
// number of feasible nodes.
type Explanation struct {
	// Decision is the cycle's decision, the one Schedule returns for the
	// pod at this point. For a pod that fits no node, NominatedNode and
	// PostFilterResult are those of the PostFilter plugins' run, which
	// nominates and evicts nothing. For a gated pod it is what a cycle
	// would decide once the pod is admitted.
	Decision
	// Pod is the pod explained.
	Pod *api.Pod
	// PreEnqueue is the PreEnqueue verdict: nil when the pod is admitted
	// to the queue, else the status of the plugin holding it back (such
	// as SchedulingGates). A gated pod is still explained.
	PreEnqueue *framework.Status
	// PreFilter is the PreFilter verdict: nil when PreFilter passed,
	// else its rejection (which every node then carries) or error.
	PreFilter *framework.Status
	// PreFilterNodes are the nodes the PreFilter results left, sorted;
	// nil when they do not narrow the nodes. PreFilterPlugins are the
	// plugins whose results narrowed them.
	PreFilterNodes   []string
	PreFilterPlugins []string
	// SkippedFilters and SkippedScores are the plugins whose PreFilter
	// or PreScore returned Skip for the pod: their Filter or Score did
	// not run (sorted).
	SkippedFilters, SkippedScores []string
	// PriorNomination is the node the pod was nominated to before the
	// cycle (status.nominatedNodeName), which the cycle tries first; ""
	// if none. Decision.NominatedNode is this cycle's nomination.
	PriorNomination string
	// Nodes has every node of the snapshot: first the nodes the cycle
	// filtered, in the order it filtered them (from its rotating start
	// index), then the others in snapshot order.
	Nodes []NodeExplanation
	// ScoredForReport is set when one node was feasible: kube-scheduler
	// scores nothing then, and the node's scores here are computed for
	// this report only (the decision does not depend on them).
	ScoredForReport bool
	// Tied are the feasible nodes with the highest total score, in
	// filtering order; Decision.Node is one of them.
	Tied []string
	// Err is the cycle's error, the one Schedule returns: a *FitError
	// when no node fits, with the message kube-scheduler prints (the
	// PostFilter plugins' message included), or a plugin's error.
	Err error
	// Preemption is, for a pod that fits no node, what the PostFilter
	// plugins (DefaultPreemption) do, run as a dry run: the nominated
	// node, the victims and the status. It is nil when the pod fits,
	// the cycle failed otherwise, or the profile has no PostFilter
	// plugin. The per-node verdicts are in Nodes[i].Preemption.
	Preemption *PreemptionExplanation
	// WhyNot is, for a pod that fits no node, the smallest verified
	// change per node and why nodes fail; ExplainWhyNot fills it in,
	// Explain leaves it nil.
	WhyNot *WhyNot
}

// NodeExplanation is one node's part of an Explanation.
type NodeExplanation struct {
	// Name of the node.
	Name string
	// Evaluated is set for the nodes the cycle filtered. Nodes it did not
	// (the sampling target was met first, PreFilter left them out, or the
	// cycle stopped at an error) are filtered for this report, or carry
	// the status PreFilter gives them.
	Evaluated bool
	// Status is nil when the node passes Filter, else the first failing
	// Filter plugin's status (Code, Plugin and Reasons, kube-scheduler's
	// texts), or the status PreFilter gives the node.
	Status *framework.Status
	// Feasible is set for the nodes the cycle found feasible: the nodes
	// competing for the pod.
	Feasible bool
	// Scores are, for a feasible node, each Score plugin's scores, in the
	// profile's order; Total is their weighted sum.
	Scores []PluginScore
	Total  int64
	// Preemption is the preemption dry run's verdict on the node: the
	// victims DefaultPreemption would evict there, or why the node
	// cannot help. nil unless Explanation.Preemption is a dry run of
	// DefaultPreemption.
	Preemption *NodePreemption
	// Devices is, for a pod with ResourceClaims, DynamicResources'
	// verdict on the node and the devices each claim gets there; nil
	// when the pod has no claims or the profile does not run
	// DynamicResources.
	Devices *NodeDevices
}

// PluginScore is one Score plugin's score of a node.
type PluginScore struct {
	// Plugin is the plugin's name.
	Plugin string
	// Raw is Score's result; Normalized the score after NormalizeScore,
	// in [0, 100]; Weight the plugin's weight and Weighted
	// Normalized*Weight, the node's share of the total.
	Raw, Normalized, Weight, Weighted int64
}

// Explain runs one scheduling cycle for pod, as Schedule does, and
// reports its Decision with everything behind it, as Explanation
// describes. The cycle is the plain one (cycle.go), which the engine
// behind Schedule matches decision for decision. Explain leaves the
// scheduler where Schedule leaves it: the rotating start index moves
// past the nodes filtered and the random source past the cycle's and
// PostFilter's draws, so that a queue explained pod by pod meets the
// decisions a scheduler makes. Like Schedule it assumes, nominates and
// evicts nothing; a gated pod is explained and changes nothing.
//
// The error is for a pod no profile serves, or the context's error when
// it is cancelled; a cycle's own outcome (a *FitError, a plugin's
// error) is in Explanation.Err.
func (s *Scheduler) Explain(ctx context.Context, pod *api.Pod) (*Explanation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pod, err := s.admit(pod)
	if err != nil {
		return nil, err
	}
	prof, err := s.profileFor(pod)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Pod: pod}
	ex.PreEnqueue = prof.RunPreEnqueuePlugins(ctx, pod)

	// A gated pod's cycle is a what-if: the random source is restored.
	advance := ex.PreEnqueue.IsSuccess()
	src := *s.pcg
	if !advance {
		defer func() { *s.pcg = src }()
	}
	state := framework.NewCycleState()
	rec := &cycleRecord{scoredForReport: true}
	res, next, cerr := s.plainCycle(ctx, prof, state, pod, s.nextStartNodeIndex, rec)
	if advance {
		s.nextStartNodeIndex = next
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ex.Decision, ex.Err = res, cerr
	ex.PreFilter, ex.PreFilterPlugins = rec.preFilter, rec.narrowedBy
	if !rec.preFilterResult.AllNodes() {
		ex.PreFilterNodes = slices.Sorted(maps.Keys(rec.preFilterResult.NodeNames))
	}
	ex.PriorNomination = rec.nominated
	ex.SkippedFilters = slices.Sorted(maps.Keys(state.SkipFilterPlugins))
	ex.SkippedScores = slices.Sorted(maps.Keys(state.SkipScorePlugins))
	ex.ScoredForReport = len(rec.feasible) == 1 && len(rec.scores) == 1

	// Per node, by its position in the view: its scores (1 + the index
	// into rec.scores, 0 for none), whether it was feasible, whether it
	// is in ex.Nodes yet. Slices, not maps: a cluster's every node is
	// looked up once or twice per pod.
	view := s.snapshot.View()
	all := view.Nodes()
	scoreAt := make([]int32, len(all))
	feasibleAt := make([]bool, len(all))
	seen := make([]bool, len(all))
	nPlugin := 0
	for i := range rec.scores {
		if j, ok := view.Index(rec.scores[i].Name); ok {
			scoreAt[j] = int32(i) + 1
		}
		nPlugin += len(rec.scores[i].RawScores)
	}
	for _, ni := range rec.feasible {
		if j, ok := view.Index(ni.Node().Name); ok {
			feasibleAt[j] = true
		}
	}
	for _, i := range rec.tied {
		ex.Tied = append(ex.Tied, rec.feasible[i].Node().Name)
	}

	// The nodes the cycle filtered, in its order, then the others. One
	// array holds every node's scores (each node's slice is capped).
	ex.Nodes = make([]NodeExplanation, 0, len(all))
	scoreArr := make([]PluginScore, 0, nPlugin)
	add := func(j int, evaluated bool, st *framework.Status) {
		name := all[j].Node().Name
		seen[j] = true
		ne := NodeExplanation{Name: name, Evaluated: evaluated, Status: st, Feasible: feasibleAt[j]}
		if k := scoreAt[j]; k > 0 && ne.Feasible {
			sc := &rec.scores[k-1]
			ne.Total = sc.TotalScore
			start := len(scoreArr)
			for j := range sc.RawScores {
				p := sc.RawScores[j].Name
				ps := PluginScore{Plugin: p, Raw: sc.RawScores[j].Score, Weight: prof.ScoreWeight(p)}
				if j < len(sc.NormalizedScores) {
					ps.Normalized, ps.Weighted = sc.NormalizedScores[j].Score, sc.Scores[j].Score
				}
				scoreArr = append(scoreArr, ps)
			}
			ne.Scores = scoreArr[start:len(scoreArr):len(scoreArr)]
		}
		ex.Nodes = append(ex.Nodes, ne)
	}
	if n := rec.nominated; n != "" {
		if j, ok := view.Index(n); ok {
			add(j, true, nominatedStatus(rec, n, feasibleAt[j]))
		}
	}
	for _, ni := range rec.filtered {
		if j, ok := view.Index(ni.Node().Name); ok && !seen[j] {
			add(j, true, rec.statuses[ni.Node().Name])
		}
	}
	absent := framework.NewStatus(framework.UnschedulableAndUnresolvable,
		"node(s) didn't satisfy plugin(s) "+bracket(rec.narrowedBy))
	for j, ni := range all {
		if seen[j] {
			continue
		}
		name := ni.Node().Name
		switch {
		case rec.preFilter != nil:
			add(j, false, rec.preFilter)
		case !rec.preFilterResult.AllNodes() && !inSet(rec.preFilterResult.NodeNames, name):
			add(j, false, absent)
		default:
			add(j, false, prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, s.nominated[name]))
		}
	}
	explainDevices(ctx, prof, state, pod, ex, view.Get)
	var fe *FitError
	if errors.As(cerr, &fe) {
		s.explainPreemption(ctx, prof, state, pod, fe, ex)
	}
	ex.Unverified = s.unverified(prof, pod, ex.Outcome() == OutcomeUnschedulable)
	return ex, nil
}

// nominatedStatus is the nominated node's verdict: nil if it fit,
// else the status recorded for it.
func nominatedStatus(rec *cycleRecord, name string, fit bool) *framework.Status {
	if fit {
		return nil
	}
	return rec.statuses[name]
}

func inSet(set map[string]struct{}, name string) bool {
	_, ok := set[name]
	return ok
}

// bracket formats names as kube-scheduler's %v of a []string.
func bracket(names []string) string {
	out := "["
	for i, n := range names {
		if i > 0 {
			out += " "
		}
		out += n
	}
	return out + "]"
}
