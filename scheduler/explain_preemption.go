package scheduler

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/defaultpreemption"
	"github.com/schedkit/schedkit/preemption"
)

// PreemptionExplanation is what PostFilter (preemption) would do for a
// pod that fits no node: the profile's PostFilter plugins run as a dry
// run, from the random source and snapshot Schedule would use, and
// nothing is evicted or nominated.
type PreemptionExplanation struct {
	// Status is the PostFilter plugins' status as Schedule's cycle gets
	// it: Success with a nominated node, else the rejection; its Message
	// is the text the FitError carries after the filters' reasons
	// ("preemption: ...") and Plugin names the plugin upstream names.
	Status *framework.Status
	// Result is PostFilter's result, as Decision.PostFilterResult: nil leaves the pod's nomination as it is
	// (not eligible, error), an empty NominatedNodeName clears it.
	Result *framework.PostFilterResult
	// NominatedNode, Victims (most important first, upstream's order)
	// and NumPDBViolations are Result's, "" and empty when none.
	NominatedNode    string
	Victims          []*api.Pod
	NumPDBViolations int
	// DryRun is set when DefaultPreemption is the profile's first
	// PostFilter plugin: the per-node verdicts (NodeExplanation.Preemption)
	// are its dry run's, and Offset, NumCandidates and NumPotential its
	// parameters (where the dry run started among the potential nodes,
	// how many candidates it looked for, how many nodes it could try).
	DryRun                bool
	Offset, NumCandidates int32
	NumPotential          int
}

// PreemptionVerdict is DefaultPreemption's verdict on one node.
type PreemptionVerdict int

const (
	// PreemptionCandidate: evicting the node's Victims makes room, and
	// the node competed for the nomination (NodePreemption.Chosen says
	// whether it won).
	PreemptionCandidate PreemptionVerdict = iota + 1
	// PreemptionCandidateDropped: evicting the Victims would make room,
	// but the candidate list (of the nodes violating a
	// PodDisruptionBudget, or of the others) was full.
	PreemptionCandidateDropped
	// PreemptionCannotHelp: the dry run tried the node and Status says
	// why it cannot help (no pod of lower priority, or the pod does not
	// fit even with every lower-priority pod removed, or an error).
	PreemptionCannotHelp
	// PreemptionUnresolvable: the filters found the node
	// UnschedulableAndUnresolvable (Status), which evicting pods does not
	// change; it is not tried.
	PreemptionUnresolvable
	// PreemptionNotTried: a potential node the dry run did not reach, as
	// it had found enough candidates (minCandidateNodesPercentage,
	// minCandidateNodesAbsolute) from its random offset on.
	PreemptionNotTried
	// PreemptionNotEligible: the pod may not preempt at all (Status:
	// preemptionPolicy Never, or a victim still terminating on its
	// nominated node).
	PreemptionNotEligible
	// PreemptionFailed: the dry run stopped at an error before reaching
	// the node (Status).
	PreemptionFailed
)

var verdictNames = [...]string{"", "Candidate", "CandidateDropped", "CannotHelp", "Unresolvable", "NotTried", "NotEligible", "Failed"}

// String returns the verdict's name, such as "Candidate".
func (v PreemptionVerdict) String() string {
	if v > 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "PreemptionVerdict(?)"
}

// NodePreemption is the preemption dry run's verdict on one node.
type NodePreemption struct {
	// Verdict says whether evicting pods on the node would help.
	Verdict PreemptionVerdict
	// Victims, most important first, and NumPDBViolations are the pods
	// DefaultPreemption would evict on the node (Candidate and
	// CandidateDropped).
	Victims          []*api.Pod
	NumPDBViolations int
	// Chosen is set for the node nominated.
	Chosen bool
	// Status says why the node cannot help (CannotHelp, Unresolvable,
	// NotEligible, Failed); nil otherwise.
	Status *framework.Status
}

// explainPreemption runs the PostFilter plugins for a pod that fit no
// node, as schedule does, puts their message in fe and fills in ex's
// preemption parts. The random source ends where PostFilter left it.
func (s *Scheduler) explainPreemption(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, fe *FitError, ex *Explanation) {
	if !prof.HasPostFilterPlugins() {
		return
	}
	src := *s.pcg
	r, st := prof.RunPostFilterPlugins(ctx, state, pod, fe.Diagnosis.NodeToStatus)
	fe.Diagnosis.PostFilterMsg = st.Message()
	pe := &PreemptionExplanation{Status: st, Result: r}
	if r != nil {
		pe.NominatedNode, pe.Victims, pe.NumPDBViolations = r.NominatedNodeName, r.Victims, r.NumPDBViolations
		ex.NominatedNode, ex.PostFilterResult = r.NominatedNodeName, r
	}
	ex.Preemption = pe

	// The per-node detail: DefaultPreemption's attempt again, from the
	// same random state, when it is the plugin PostFilter ran first
	// after DynamicResources (which draws nothing random and changes
	// nothing the dry run reads).
	names := prof.ListPlugins()["PostFilter"]
	if len(names) > 0 && names[0] == config.DynamicResourcesName {
		names = names[1:]
	}
	if len(names) == 0 || names[0] != defaultpreemption.Name {
		return
	}
	pl, ok := prof.Plugin(defaultpreemption.Name)
	dp, isDP := pl.(*defaultpreemption.DefaultPreemption)
	if !ok || !isDP {
		return
	}
	after := *s.pcg
	*s.pcg = src
	o := dp.Preempt(ctx, state, pod, fe.Diagnosis.NodeToStatus)
	*s.pcg = after
	pe.DryRun, pe.Offset, pe.NumCandidates, pe.NumPotential = true, o.Offset, o.NumCandidates, o.NumPotential

	tried := make(map[string]*preemption.DryRunNode, len(o.DryRun))
	for i := range o.DryRun {
		tried[o.DryRun[i].Node] = &o.DryRun[i]
	}
	ineligible := o.NumCandidates == 0 && len(o.DryRun) == 0 && o.Result == nil && o.Status.Code() == framework.Unschedulable
	for i := range ex.Nodes {
		ne := &ex.Nodes[i]
		np := &NodePreemption{}
		ne.Preemption = np
		filterSt := fe.Diagnosis.NodeToStatus.Get(ne.Name)
		d := tried[ne.Name]
		switch {
		case ineligible:
			np.Verdict, np.Status = PreemptionNotEligible, o.Status
		case d != nil && d.Status.IsSuccess():
			np.Verdict, np.Victims, np.NumPDBViolations = PreemptionCandidateDropped, d.Victims, d.NumPDBViolations
			if d.Candidate {
				np.Verdict = PreemptionCandidate
				np.Chosen = o.Chosen != nil && o.Chosen.Node == ne.Name
			}
		case d != nil:
			np.Verdict, np.Status = PreemptionCannotHelp, d.Status
		case filterSt.Code() != framework.Unschedulable:
			np.Verdict, np.Status = PreemptionUnresolvable, filterSt
		case o.Status.Code() == framework.Error && o.NumCandidates == 0:
			np.Verdict, np.Status = PreemptionFailed, o.Status
		default:
			np.Verdict = PreemptionNotTried
		}
	}
}
