package preemption

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Handle is what DefaultPreemption needs from the scheduler running it,
// beyond framework.Handle. Package scheduler's handle implements it; a
// plugin built with a plain framework.Handle fails its PostFilter with an
// error.
type Handle interface {
	framework.Handle
	// ProfileFor returns the profile that schedules pod: the dry runs run
	// its PreFilter extensions and filters.
	ProfileFor(pod *api.Pod) (*framework.Profile, bool)
	// NominatedPodsForNode returns the pods nominated to the node
	// (status.nominatedNodeName), which the dry runs' filters count when
	// they have at least the preemptor's priority.
	NominatedPodsForNode(node string) []*cluster.PodInfo
	// RandInt31n returns a number in [0, n) from the scheduler's seeded
	// source; n > 0.
	RandInt31n(n int32) int32
}

// Candidate is a node where preemption would make room, and the pods it
// would evict there.
type Candidate struct {
	// Node is the node's name.
	Node string
	// Victims are the pods to evict, most important first.
	Victims []*api.Pod
	// NumPDBViolations is how many victims' evictions violate a
	// PodDisruptionBudget.
	NumPDBViolations int
}

// DryRunNode is the dry run's verdict on one node: the victims it would
// evict there, or why the node cannot help.
type DryRunNode struct {
	// Node is the node's name.
	Node string
	// Victims, most important first, and NumPDBViolations are what
	// SelectVictimsOnNode found; empty when Status is not Success.
	Victims          []*api.Pod
	NumPDBViolations int
	// Status is Success when the node can help, else why it cannot:
	// NoVictimsFound (UnschedulableAndUnresolvable), the filters' status
	// with every lower-priority pod removed, or an error.
	Status *framework.Status
	// Candidate is set when the node is among Outcome.Candidates: a
	// node that can help is left out when the candidate list of its kind
	// (violating a PodDisruptionBudget or not) was already full.
	Candidate bool
}

// Outcome is what a preemption attempt found, for Explain and what-if
// questions; PostFilter reduces it to a result and a status.
type Outcome struct {
	// Status is the attempt's status, without the "preemption: " prefix
	// PostFilter adds: Success with the nominated node, Unschedulable
	// when the pod is not eligible or no node can help, Error on
	// failure.
	Status *framework.Status
	// Result is the PostFilter result: nil to keep the pod's nomination
	// (ineligible pods, errors), an empty NominatedNodeName to clear it
	// (no node can help), else the node and the victims.
	Result *framework.PostFilterResult
	// Offset is where the dry run started in the potential nodes, and
	// NumCandidates the candidates it looked for; both 0 when it did not
	// run.
	Offset, NumCandidates int32
	// NumPotential is how many nodes the filters found Unschedulable:
	// the nodes the dry run may try, from Offset on (in snapshot order,
	// wrapping around).
	NumPotential int
	// DryRun is each node the dry run tried, in the order it tried them
	// (the first len(DryRun) potential nodes from Offset on): the others
	// were not reached, as enough candidates were found first. Preempt
	// fills it in; PostFilter does not.
	DryRun []DryRunNode
	// Candidates are the nodes where preemption would help: those
	// violating no PodDisruptionBudget first, then the others, each in
	// dry-run order.
	Candidates []Candidate
	// NodeStatuses holds, for every node dry-run that cannot help, why.
	NodeStatuses *framework.NodeToStatus
	// Chosen is the candidate picked, nil when none.
	Chosen *Candidate

	record bool // fill in DryRun
}

// Attempt is one preemption attempt of pod, as upstream's
// DefaultPreemption runs it after the filters failed. h must be a Handle.
// state is the failed cycle's state: it is cloned, not modified. m holds
// the filters' status of each node. pct and abs are the arguments
// MinCandidateNodesPercentage and MinCandidateNodesAbsolute. With record
// set, Outcome.DryRun lists every node the dry run tried. With the same
// random source, record changes nothing else.
func Attempt(ctx context.Context, h framework.Handle, pct, abs int32, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader, record bool) *Outcome {
	return AttemptWith(ctx, nil, h, pct, abs, state, pod, m, record)
}

// Memory is what successive attempts reuse: the lists of the nodes and
// of the potential nodes and the dry run's working memory (its node
// copy, its lists of pods).
// Nothing an Outcome holds lives in it. The zero value is ready; it is
// not safe for concurrent use.
type Memory struct {
	// nodes lists the nodes of the view of the last attempt, updated
	// where the next view changed (a new view's Nodes lists every node).
	nodes     cluster.NodeList
	potential []*cluster.NodeInfo
	sc        scratch
	fit       fitter
	// memo keeps the nodes' verdicts from attempt to attempt; off
	// leaves it unused (an attempt in fresh memory, the tests' plain
	// reference).
	memo verdicts
	off  bool
}

// AttemptWith is Attempt in mem's memory (nil: fresh memory). A plugin
// keeps one Memory for its attempts, so that a stream of preempting
// pods does not allocate and collect a list of the nodes per pod.
func AttemptWith(ctx context.Context, mem *Memory, h framework.Handle, pct, abs int32, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader, record bool) *Outcome {
	if mem == nil {
		mem = &Memory{off: true}
	}
	o := &Outcome{record: record}
	ph, ok := h.(Handle)
	if !ok {
		o.Status = framework.AsStatus(errors.New("DefaultPreemption: the framework handle gives no profile, nominated pods or random source (want a preemption.Handle)"))
		return o
	}
	prof, ok := ph.ProfileFor(pod)
	if !ok {
		o.Status = framework.AsStatus(fmt.Errorf("DefaultPreemption: no profile for scheduler name %q", pod.Spec.SchedulerName))
		return o
	}
	snap := h.Snapshot()
	view := snap.View()

	// 1) Eligibility.
	var nominatedNode *cluster.NodeInfo
	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		nominatedNode, _ = view.Get(nnn)
	}
	if ok, msg := PodEligibleToPreemptOthers(pod, m.Get(pod.Status.NominatedNodeName), nominatedNode); !ok {
		o.Status = framework.NewStatus(framework.Unschedulable, msg)
		return o
	}

	// 2) Candidates.
	var allNodes []*cluster.NodeInfo
	if mem.off {
		allNodes = view.Nodes()
	} else {
		allNodes = mem.nodes.Update(view)
	}
	if len(allNodes) == 0 {
		o.Status = framework.AsStatus(errors.New("no nodes available"))
		return o
	}
	potential, own := nodesForStatusCode(mem.potential[:0], view, allNodes, m, framework.Unschedulable)
	if own {
		mem.potential = potential
		defer clear(potential) // the nodes are not kept alive
	}
	o.NumPotential = len(potential)
	var errs []error
	if len(potential) == 0 {
		o.NodeStatuses = framework.NewDefaultNodeToStatus()
	} else {
		pdbs := compilePDBs(snap.Objects())
		o.Offset = ph.RandInt31n(int32(len(potential)))
		o.NumCandidates = CalculateNumCandidates(int32(len(potential)), pct, abs)
		errs = dryRun(ctx, mem, prof, ph, state, pod, view, potential, pdbs, o)
	}
	if len(errs) > 0 && len(o.Candidates) == 0 {
		o.Status = framework.AsStatus(aggregate(errs))
		return o
	}
	if len(o.Candidates) == 0 {
		fe := &framework.FitError{Pod: pod, NumAllNodes: len(allNodes), Diagnosis: framework.Diagnosis{NodeToStatus: o.NodeStatuses}}
		fe.Diagnosis.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		o.Result = &framework.PostFilterResult{}
		o.Status = framework.NewStatus(framework.Unschedulable, fe.Error())
		return o
	}

	// 4) The best candidate (no extenders: step 3 is upstream's).
	best := mem.sc.pickOne(o.Candidates, mem.sc.candScores, func(n int) int { return int(ph.RandInt31n(int32(n))) })
	o.Chosen = best
	o.Result = &framework.PostFilterResult{NominatedNodeName: best.Node, Victims: best.Victims, NumPDBViolations: best.NumPDBViolations}
	o.Status = framework.NewStatus(framework.Success, fmt.Sprintf("found a potential placement for pod on node %v, preempting %d victims", best.Node, len(best.Victims)))
	return o
}

// CalculateNumCandidates is how many candidates a dry run over numNodes
// potential nodes looks for: numNodes*pct/100, at least abs, at most
// numNodes (upstream's calculateNumCandidates, in int32 arithmetic).
func CalculateNumCandidates(numNodes, pct, abs int32) int32 {
	n := numNodes * pct / 100
	if n < abs {
		n = abs
	}
	if n > numNodes {
		n = numNodes
	}
	return n
}

// nodesForStatusCode is upstream's NodeToStatus.NodesForStatusCode: the
// nodes whose status has the code, in snapshot order (upstream lists the
// explicit nodes in map order when the absent nodes lack the code).
// A NodeToStatus of view's nodes is read by slot, without looking names
// up; when every node has the code, the list is all itself (own false:
// the caller must not change it), else it is built in out (own true).
func nodesForStatusCode(out []*cluster.NodeInfo, view *cluster.View, all []*cluster.NodeInfo, m framework.NodeToStatusReader, code framework.Code) (_ []*cluster.NodeInfo, own bool) {
	nts, _ := m.(*framework.NodeToStatus)
	if nts != nil {
		if n, ok := nts.CountCode(view, code); ok && (n == 0 || n == len(all)) {
			if n == 0 {
				return nil, false
			}
			return all, false
		}
		if nts.AbsentNodesStatus().Code() != code && nts.Len() == 0 {
			return nil, false
		}
	}
	// One block for the worst case: growing the list node by node costs
	// more.
	if cap(out) < len(all) {
		out = make([]*cluster.NodeInfo, 0, len(all))
	}
	if nts != nil {
		for _, ni := range all {
			if nts.GetNode(view, ni).Code() == code {
				out = append(out, ni)
			}
		}
		return out, true
	}
	for _, ni := range all {
		if m.Get(ni.Node().Name).Code() == code {
			out = append(out, ni)
		}
	}
	return out, true
}

// candidateList keeps at most cap candidates, as upstream's, with what
// PickOneNodeForPreemption compares of each.
type candidateList struct {
	items  []Candidate
	scores []candidateScore
	cap    int
}

// add keeps c, of score s, if there is room and reports whether it did.
func (l *candidateList) add(c Candidate, s *candidateScore) bool {
	if len(l.items) < l.cap {
		if l.items == nil {
			l.items = make([]Candidate, 0, l.cap)
		}
		l.items = append(l.items, c)
		l.scores = append(l.scores, *s)
		return true
	}
	return false
}

// dryRun is upstream's DryRunPreemption with one worker: the potential
// nodes from the offset on, until some candidate violates no budget and
// there are numCandidates in all.
func dryRun(ctx context.Context, mem *Memory, prof *framework.Profile, ph Handle, state *framework.CycleState, pod *api.Pod, view *cluster.View, potential []*cluster.NodeInfo, pdbs []pdbInfo, o *Outcome) []error {
	sc := &mem.sc
	num := int(o.NumCandidates)
	nonViolating := candidateList{cap: num, scores: sc.scores[:0]}
	violating := candidateList{cap: num, scores: sc.violatingScores[:0]}
	defer func() { sc.scores, sc.violatingScores = nonViolating.scores, violating.scores }()
	// The nodes that cannot help are view's: recorded by slot.
	o.NodeStatuses = framework.NewNodeToStatusFor(view, unresolvable)
	var errs []error
	// The victims returned are carved from the slab: a new one each
	// dry run, as the candidates keep theirs, with room for a few
	// victims a candidate.
	sc.slab, sc.slabSize = nil, 4*num
	f := &mem.fit
	f.reset(prof, state)
	var memo *verdicts
	if !mem.off {
		memo = mem.memo.prepare(prof, f, view.Objects(), pod)
	}
	prio := framework.PodPriority(pod)
	var score candidateScore
	for i := range potential {
		if ctx.Err() != nil {
			break
		}
		ni := potential[(int(o.Offset)+i)%len(potential)]
		v := memo.get(ni)
		var name string
		if v != nil {
			name = v.name
		} else {
			name = ni.Node().Name
		}
		nominated := ph.NominatedPodsForNode(name)
		var victims []*api.Pod
		var violations int
		var st *framework.Status
		if v != nil && len(nominated) == 0 {
			memo.hits++
			violations, st, score = v.violations, v.st, v.score
			if len(v.victims) != 0 {
				victims = sc.pods(len(v.victims))
				copy(victims, v.victims)
			}
		} else {
			// A node without a pod of lower priority needs no copy: it
			// has no victims. The statuses are immutable, so its nodes
			// share one.
			st = noVictims
			if hasLowerPriority(ni, prio) {
				victims, violations, st = sc.selectVictims(ctx, f, f.stateFor(state), pod, sc.copyNode(ni), nominated, pdbs)
			}
			if len(victims) != 0 && len(victims) == len(sc.victims) {
				score = scoreOfVictims(sc.victims, violations)
			} else {
				score = scoreOf(victims, violations)
			}
			memo.put(ni, name, nominated, victims, violations, st, &score)
		}
		if st.IsSuccess() && len(victims) != 0 {
			c := Candidate{Node: name, Victims: victims, NumPDBViolations: violations}
			list := &nonViolating
			if violations != 0 {
				list = &violating
			}
			kept := list.add(c, &score)
			if o.record {
				o.DryRun = append(o.DryRun, DryRunNode{Node: name, Victims: victims, NumPDBViolations: violations, Status: st, Candidate: kept})
			}
			if len(nonViolating.items) > 0 && len(nonViolating.items)+len(violating.items) >= num {
				break
			}
			continue
		}
		if st.IsSuccess() {
			st = framework.AsStatus(fmt.Errorf("expected at least one victim pod on node %q", name))
		}
		if st.Code() == framework.Error {
			errs = append(errs, st.AsError())
		}
		o.NodeStatuses.SetNode(ni, st)
		if o.record {
			o.DryRun = append(o.DryRun, DryRunNode{Node: name, Status: st})
		}
	}
	// Upstream stops the workers when its context is cancelled and
	// reports nothing for it.
	o.Candidates = append(nonViolating.items, violating.items...)
	sc.candScores = append(append(sc.candScores[:0], nonViolating.scores...), violating.scores...)
	return errs
}

// aggregate prints errors as apimachinery's aggregate error: one alone,
// several as "[a, b]" without repeated messages.
func aggregate(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	seen := map[string]bool{}
	var msgs []string
	for _, e := range errs {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return errors.New(msgs[0])
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}
