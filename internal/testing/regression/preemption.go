package regression

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/scheduler"
)

// KindPreemption compares a failed scheduling cycle and DefaultPreemption
// (the default profile's PostFilter) through scheduler.Scheduler.
const KindPreemption = "preemption"

func init() { evaluators[KindPreemption] = decodeEval(EvalPreemption) }

// PreemptionInput is a cluster (nodes, the pods bound to them, pending
// pods nominated to nodes, PodDisruptionBudgets and PriorityClasses), the
// pod to schedule and DefaultPreemption's arguments. The profile is the
// default one. Pods without spec.priority get it from their
// PriorityClass as the Priority admission plugin gives it.
type PreemptionInput struct {
	Nodes []*api.Node `json:"nodes"`
	Pods  []*api.Pod  `json:"pods,omitempty"`
	// Nominated are pending pods with status.nominatedNodeName: the
	// cycle's filters count those of at least the pod's priority on
	// their node (kube-scheduler's RunFilterPluginsWithNominatedPods),
	// in this order.
	Nominated       []*api.Pod                 `json:"nominated,omitempty"`
	PDBs            []*api.PodDisruptionBudget `json:"pdbs,omitempty"`
	PriorityClasses []api.PriorityClass        `json:"priorityClasses,omitempty"`
	Pod             *api.Pod                   `json:"pod"`
	// Args are DefaultPreemption's; nil is the defaults. The answer is
	// only deterministic when the dry run tries every potential node
	// (upstream walks them in map order from a random offset), so a
	// candidate count below the number of potential nodes is an error.
	Args *config.DefaultPreemptionArgs `json:"args,omitempty"`
}

// PreemptionCandidateAnswer is one node where preemption makes room.
type PreemptionCandidateAnswer struct {
	// Victims are "namespace/name", most important first.
	Victims          []string `json:"victims"`
	NumPDBViolations int      `json:"numPDBViolations,omitempty"`
}

// PreemptionAnswer is what the cycle and DefaultPreemption decide. When
// several candidates tie under all of upstream's rules (upstream then
// takes one in map order, schedkit one at random from its seed), the
// answer names the first of them by name: Nominated, its Victims and
// the Message as if it were picked.
type PreemptionAnswer struct {
	// Err is an error building the cluster or the scheduler, or an
	// input the answer is not deterministic for.
	Err string `json:"err,omitempty"`
	// Fits is set when some node passes Filter: nothing is preempted.
	// Node is then the pod's nominated node when the pod passes the
	// filters there (the cycle tries it first and looks no further),
	// else "" (the nodes are not scored).
	Fits bool   `json:"fits,omitempty"`
	Node string `json:"node,omitempty"`
	// Code and Message are the PostFilter status ("preemption: ...").
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Nominated is the first of Tied; "" when no node can help.
	Nominated        string   `json:"nominated,omitempty"`
	Tied             []string `json:"tied,omitempty"`
	Victims          []string `json:"victims,omitempty"`
	NumPDBViolations int      `json:"numPDBViolations,omitempty"`
	// Candidates are every node where preemption makes room.
	Candidates map[string]PreemptionCandidateAnswer `json:"candidates,omitempty"`
}

// ResolvePreemptionPriorities gives the input's pods without
// spec.priority the priority (and preemption policy) of their
// PriorityClass, as schedkit's admission does, on copies.
func ResolvePreemptionPriorities(in *PreemptionInput) error {
	resolve := func(pods []*api.Pod) ([]*api.Pod, error) {
		out := make([]*api.Pod, len(pods))
		for i, p := range pods {
			out[i] = p
			if p.Spec.Priority != nil {
				continue
			}
			// A shallow copy: admission replaces the spec's pointers, it
			// does not write through them.
			q := *p
			if err := admission.ResolveStoredPriority(&q, in.PriorityClasses); err != nil {
				return nil, err
			}
			out[i] = &q
		}
		return out, nil
	}
	var err error
	if in.Pods, err = resolve(in.Pods); err != nil {
		return err
	}
	if in.Nominated, err = resolve(in.Nominated); err != nil {
		return err
	}
	one, err := resolve([]*api.Pod{in.Pod})
	if err != nil {
		return err
	}
	in.Pod = one[0]
	return nil
}

// EvalPreemption is schedkit's answer: Schedule (the engine) for the
// pod with the nominated pods queued, and Explain's dry run of
// DefaultPreemption for the candidates; the two must agree.
func EvalPreemption(in *PreemptionInput) PreemptionAnswer {
	var a PreemptionAnswer
	if in.Pod == nil {
		a.Err = "no pod"
		return a
	}
	if err := ResolvePreemptionPriorities(in); err != nil {
		a.Err = err.Error()
		return a
	}
	snap, err := cluster.NewSnapshot(in.Nodes, in.Pods)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	for _, b := range in.PDBs {
		if err := snap.AddObject(b); err != nil {
			a.Err = err.Error()
			return a
		}
	}
	var cfg framework.ProfileConfig
	if in.Args != nil {
		cfg.PluginArgs = map[string]any{config.DefaultPreemptionName: in.Args}
	}
	// Explain and Schedule each run the cycle on a scheduler of their own:
	// both move the random source on.
	ctx := context.Background()
	var scheds [2]*scheduler.Scheduler
	for i := range scheds {
		s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithPercentageOfNodesToScore(100), scheduler.WithParallelism(1))
		if err != nil {
			a.Err = err.Error()
			return a
		}
		defer s.Close()
		if err := s.Enqueue(ctx, in.Nominated...); err != nil {
			a.Err = err.Error()
			return a
		}
		scheds[i] = s
	}
	ex, err := scheds[0].Explain(ctx, in.Pod)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	res, serr := scheds[1].Schedule(ctx, in.Pod)
	if fmt.Sprint(serr) != fmt.Sprint(ex.Err) {
		a.Err = fmt.Sprintf("Explain's error %v, Schedule's %v", ex.Err, serr)
		return a
	}
	var fe *scheduler.FitError
	switch {
	case serr == nil:
		a.Fits = true
		if nnn := in.Pod.Status.NominatedNodeName; nnn != "" && res.Node == nnn {
			a.Node = nnn
		}
		return a
	case !errors.As(serr, &fe):
		a.Err = serr.Error()
		return a
	}
	pe := ex.Preemption
	if pe == nil || !pe.DryRun {
		a.Err = "no preemption dry run"
		return a
	}
	if int(pe.NumCandidates) < pe.NumPotential {
		a.Err = fmt.Sprintf("%d candidates looked for among %d potential nodes: the answer depends on the offset", pe.NumCandidates, pe.NumPotential)
		return a
	}
	a.Code, a.Message = pe.Status.Code().String(), pe.Status.Message()
	if fe.Diagnosis.PostFilterMsg != a.Message {
		a.Err = fmt.Sprintf("FitError's PostFilter message %q, status %q", fe.Diagnosis.PostFilterMsg, a.Message)
		return a
	}
	var cands []preemption.Candidate
	for _, n := range ex.Nodes {
		if np := n.Preemption; np != nil && np.Verdict == scheduler.PreemptionCandidate {
			cands = append(cands, preemption.Candidate{Node: n.Name, Victims: np.Victims, NumPDBViolations: np.NumPDBViolations})
		}
	}
	if len(cands) == 0 {
		if res.NominatedNode != "" {
			a.Err = "nominated " + res.NominatedNode + " without a candidate"
		}
		return a
	}
	a.Candidates = map[string]PreemptionCandidateAnswer{}
	for _, c := range cands {
		a.Candidates[c.Node] = PreemptionCandidateAnswer{Victims: podKeys(c.Victims), NumPDBViolations: c.NumPDBViolations}
	}
	a.Tied = TiedCandidates(cands)
	a.Nominated = a.Tied[0]
	best := a.Candidates[a.Nominated]
	a.Victims, a.NumPDBViolations = best.Victims, best.NumPDBViolations
	a.Message = PreemptionMessage(a.Nominated, len(best.Victims))
	// Schedule's pick is one of the tied, with its message.
	if !slices.Contains(a.Tied, res.NominatedNode) || fe.Diagnosis.PostFilterMsg != PreemptionMessage(res.NominatedNode, len(best.Victims)) {
		a.Err = fmt.Sprintf("Schedule nominated %q (%s), not one of %v", res.NominatedNode, fe.Diagnosis.PostFilterMsg, a.Tied)
	}
	return a
}

// PreemptionMessage is the PostFilter message of a nomination.
func PreemptionMessage(node string, victims int) string {
	return fmt.Sprintf("preemption: found a potential placement for pod on node %v, preempting %d victims", node, victims)
}

// TiedCandidates returns, sorted, the candidates that
// preemption.PickOneNodeForPreemption may pick: those equal under all of
// its rules.
func TiedCandidates(cands []preemption.Candidate) []string {
	n := 1
	first := preemption.PickOneNodeForPreemption(cands, func(k int) int { n = k; return 0 })
	tied := []string{first.Node}
	for k := 1; k < n; k++ {
		tied = append(tied, preemption.PickOneNodeForPreemption(cands, func(int) int { return k }).Node)
	}
	sort.Strings(tied)
	return tied
}

func podKeys(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		ns := p.Namespace
		if ns == "" {
			ns = "default"
		}
		out[i] = ns + "/" + p.Name
	}
	return out
}
