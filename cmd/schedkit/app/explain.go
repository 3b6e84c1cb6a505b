package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

func explainCmd() *command {
	return &command{
		name:  "explain",
		short: "every node's verdict, every score and the pick for each pending pod",
		long: `For each pending pod, in queue order (each seeing the placements before it;
with --independent each judged alone against the cluster as read), its
outcome: placed on a node, preempting (placed once victims are evicted
from the nominated node), unschedulable (the fit error as "kubectl
describe pod" shows it) or gated, and unverified when a plugin it needs
is not in this build. Then the feasible nodes: each score plugin's
normalised score (before weight; short headers such as Fit×1, Bal×1,
Taint×3 named in full on the legend line) and the weighted total, the
tied best nodes and the chosen one; then the rejected nodes with
kube-scheduler's reasons and, for a pod that fits nowhere, each node's
preemption verdict (PREEMPTION: Candidate, Candidate (chosen),
CandidateDropped, CannotHelp, Unresolvable, NotTried, NotEligible,
Failed; its REASONS then say which pods preemption would evict there, or
why it cannot help). Tables fit 120 columns (long reasons wrap); -o wide
spells codes out and adds each feasible node's requested cpu and memory
now and if the pod were placed there. For a pod with ResourceClaims, the
chosen node's devices ("devices on NODE: entry/request: driver/pool/device")
and, -o wide, a DEVICES column for every feasible node; a node another
plugin rejects also names DynamicResources' own reason. Every node is scored (no
sampling) unless --config says otherwise. The last line counts the
outcomes: "6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated".
With --why-not, a pod that fits nowhere also gets why nodes fail ("cpu
exhausted on 2 nodes, taint dedicated=gpu:NoSchedule on 4 nodes") and,
per node, the smallest single change that makes it feasible, each
verified by re-running the cycle's filters with the change applied.
JSON and the HTML report also say, for each scored pod, which score
plugin decided the winner (leave-one-out, and the nearest weight that
changes it).
`,
		example: `  schedkit explain -f examples/manifests
  schedkit explain -f examples/manifests --pod deployment/shop/web -ojson
  schedkit explain -f examples/manifests -n shop --pod worker -o wide
  schedkit explain -f examples/manifests --pod shop/db-0
  schedkit explain -f examples/manifests --pod shop/checkout --why-not
  schedkit explain -f examples/manifests --config examples/manifests/config/most-allocated.yaml --top 3 --html report.html
  schedkit explain -f examples/manifests --validate=warn
  (a live cluster: kubectl get nodes,pods,pdb,priorityclasses,limitranges -A -o json | schedkit explain -f -)
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			outputFlag(fs, o, "table", "wide", "json", "yaml")
			fs.BoolVar(&o.independent, "independent", false, "judge each pod alone against the cluster as read (no earlier placement is assumed)")
			fs.BoolVar(&o.whyNot, "why-not", false, "for a pod that fits nowhere, the smallest change per node that makes it feasible (lower a request, tolerate a taint, drop a host port, label or uncordon the node, evict pods), each verified by re-running the cycle with it, and why nodes fail")
			fs.StringVar(&o.pod, "pod", "", "explain only this pod (`NAMESPACE/NAME`, or NAME with -n): a pending pod (the pods before it in the queue are still placed), a bound pod (where it is bound, and what if it were pending now, on the cluster without it) or a workload (KIND/NAMESPACE/NAME such as deployment/shop/web, or NAMESPACE/NAME naming no pod: its pending pods)")
			namespaceFlags(fs, o)
			fs.IntVar(&o.top, "top", 0, "show only the `N` best nodes per pod (feasible by total, then rejected); 0 shows all")
			fs.StringVar(&o.html, "html", "", "also write a self-contained HTML report to `FILE`")
			strictFlag(fs, o)
			tieFlags(fs, o)
			gatesFlag(fs, o)
		},
		run: runExplain,
	}
}

// podResult is one pod of explain's JSON: kube-scheduler's plugin names,
// reasons as lists, scores and total for feasible nodes only.
type podResult struct {
	Pod string `json:"pod"`
	// Outcome is scheduler.Outcome's word: placed, preempting,
	// unschedulable or gated.
	Outcome      scheduler.Outcome     `json:"outcome"`
	Node         string                `json:"node"`
	Message      string                `json:"message"`
	Nodes        map[string]nodeResult `json:"nodes"`
	Tied         []string              `json:"tied"`
	Preemption   preemptionResult      `json:"preemption"`
	NotEvaluated []string              `json:"notEvaluated"`
	Unverified   []string              `json:"unverified"`
	// BoundTo is, for a bound pod --pod names, its node: the pod is
	// then explained as if it were pending now, on the cluster without
	// it.
	BoundTo string `json:"boundTo,omitempty"`
	// Notes are information about the answer (nodes not shown, nodes
	// not evaluated, no scoring with one feasible node).
	Notes []string `json:"notes"`
	// LeaveOneOut is, for a pod placed after scoring, each score
	// plugin's winner without it and the nearest weight that flips the
	// winner (scheduler.Explanation.LeaveOneOut).
	LeaveOneOut []scheduler.PluginInfluence `json:"leaveOneOut,omitempty"`
	// WhyNot is, with --why-not for a pod that fits nowhere, the
	// smallest verified change per node (scheduler.WhyNot).
	WhyNot *whyNotResult `json:"whyNot,omitempty"`
}

// whyNotResult is scheduler.WhyNot as explain's JSON has it: the
// summary line, the cheapest change, one per node, the reasons.
type whyNotResult struct {
	Summary string                  `json:"summary"`
	Best    *scheduler.Suggestion   `json:"best"`
	Nodes   []scheduler.Suggestion  `json:"nodes"`
	Reasons []scheduler.ReasonCount `json:"reasons"`
	// NotVerified counts the changes left untried past the bound on
	// verifications that re-run PreFilter on a changed cluster.
	NotVerified int `json:"notVerified,omitempty"`
}

// nodeResult is one node's verdict for a pod.
type nodeResult struct {
	Code    string           `json:"code"`
	Plugin  string           `json:"plugin"`
	Reasons []string         `json:"reasons"`
	Scores  map[string]int64 `json:"scores,omitempty"`
	Total   *int64           `json:"total,omitempty"`
	// Preemption is the preemption dry run's verdict on the node, for a
	// pod that fits nowhere.
	Preemption *nodePreemption `json:"preemption,omitempty"`
	// Devices is, for a pod with ResourceClaims, DynamicResources'
	// verdict on the node and the devices each claim gets there.
	Devices *nodeDevices `json:"devices,omitempty"`
}

// nodePreemption is what preemption would do on one node: the verdict
// (Candidate, CandidateDropped, CannotHelp, Unresolvable, NotTried,
// NotEligible, Failed), the victims it would evict there and, when the
// node cannot help, why.
type nodePreemption struct {
	Verdict string   `json:"verdict"`
	Chosen  bool     `json:"chosen,omitempty"`
	Victims []string `json:"victims,omitempty"`
	// PDBViolations counts the victims whose eviction violates a
	// PodDisruptionBudget.
	PDBViolations int `json:"pdbViolations,omitempty"`
	// Plugin is the filter that still rejects the node with every
	// lower-priority pod removed (CannotHelp), when one does.
	Plugin  string   `json:"plugin,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
}

// preemptionResult is the node preemption nominates and its victims.
type preemptionResult struct {
	Node    string   `json:"node"`
	Victims []string `json:"victims"`
}

// explainSummary counts the pods explained (scheduler.Summary) and the
// nodes.
type explainSummary struct {
	scheduler.Summary
	Nodes int `json:"nodes"`
}

// usage is a node's requested cpu (milli) and memory (bytes) against its
// allocatable.
type usage struct {
	CPU, Memory, AllocCPU, AllocMemory int64
}

// podRow is a podResult with what tables and the HTML report need.
type podRow struct {
	res podResult
	// order is the nodes shown, best first; hidden counts the others.
	// nodes are their verdicts, in that order: res.Nodes is left nil
	// until nodeMap fills it, for the formats that print the map.
	// scores are, in that order, each scored node's normalised scores
	// in the profile's order (nodeMap makes their Scores of them).
	order  []string
	nodes  []nodeResult
	scores [][]pluginScore
	hidden int
	// plugins are the score plugins with their weights, profile order.
	plugins []pluginScore
	// before is each shown node's usage before the placement, in order;
	// the chosen node's usage after is before plus the pod's requests
	// (add).
	before []usage
	add    usage
	// victims are the pods a preempting pod evicts from the nominated
	// node (res.Preemption).
	victims []*api.Pod
}

// nodeNamed is the verdict on the named node among those shown.
func (r *podRow) nodeNamed(name string) (*nodeResult, bool) {
	if i := slices.Index(r.order, name); i >= 0 {
		return &r.nodes[i], true
	}
	return nil, false
}

// score is the i-th shown node's normalised score of a plugin, if it
// was scored by it.
func (r *podRow) score(i int, plugin string) (int64, bool) {
	for _, ps := range r.scores[i] {
		if ps.Plugin == plugin {
			return ps.Normalized, true
		}
	}
	return 0, false
}

// nodeMap fills res.Nodes, each scored node's Scores by plugin, from
// the shown nodes: what the JSON and YAML of a pod print.
func (r *podRow) nodeMap() map[string]nodeResult {
	if r.res.Nodes != nil {
		return r.res.Nodes
	}
	m := make(map[string]nodeResult, len(r.order))
	for i, name := range r.order {
		nr := r.nodes[i]
		if nr.Total != nil {
			nr.Scores = make(map[string]int64, len(r.scores[i]))
			for _, ps := range r.scores[i] {
				nr.Scores[ps.Plugin] = ps.Normalized
			}
		}
		m[name] = nr
	}
	r.res.Nodes = m
	return m
}

// explainer runs the explanations of a cluster's pending pods.
type explainer struct {
	e *env
	o *options
	c *manifest.Cluster
	s *scheduler.Scheduler
}

func newExplainer(e *env, o *options, c *manifest.Cluster, s *scheduler.Scheduler) *explainer {
	return &explainer{e: e, o: o, c: c, s: s}
}

// printsLeaveOneOut reports whether the output shows the leave-one-out
// of the score plugins: JSON, YAML and the HTML report do, tables not.
func (x *explainer) printsLeaveOneOut() bool {
	return x.o.output == "json" || x.o.output == "yaml" || x.o.html != ""
}

// run explains the pods in order, assuming each placement unless
// --independent, and calls emit for each pod that want selects.
func (x *explainer) run(ctx context.Context, pods []*api.Pod, want func(*api.Pod) bool, emit func(*podRow) error) error {
	prog := newProgress(x.e, "explained", len(pods))
	defer prog.done()
	for i, p := range pods {
		prog.tick(i)
		if want != nil && !want(p) {
			if !x.o.independent {
				if _, err := x.place(ctx, p); err != nil {
					return err
				}
			}
			continue
		}
		ex, err := explainPodWhyNot(ctx, x.s, p, x.o.whyNot, x.printsLeaveOneOut())
		if err != nil {
			return &inputError{err}
		}
		row := x.row(ex)
		if !x.o.independent {
			if err := x.commit(p, row); err != nil {
				return err
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// whatIf explains a bound pod as if it were pending now: the cluster
// without it, the pod with spec.nodeName and its nomination cleared.
func (x *explainer) whatIf(ctx context.Context, bound *api.Pod, emit func(*podRow) error) error {
	if err := x.s.RemovePod(bound); err != nil {
		return err
	}
	p := bound.DeepCopy()
	p.Spec.NodeName, p.Status.NominatedNodeName = "", ""
	ex, err := explainPodWhyNot(ctx, x.s, p, x.o.whyNot, x.printsLeaveOneOut())
	if err != nil {
		return &inputError{err}
	}
	r := x.row(ex)
	r.res.BoundTo = bound.Spec.NodeName
	return emit(r)
}

// commit makes the cluster what the next pod sees: the pod assumed on its
// node or, when it preempts, its victims evicted and the pod assumed on the
// nominated node (where kube-scheduler places it once they are gone).
func (x *explainer) commit(p *api.Pod, r *podRow) error {
	node := r.res.Node
	if r.res.Outcome == scheduler.OutcomePreempting {
		for _, v := range r.victims {
			if err := x.s.RemovePod(v); err != nil {
				return err
			}
		}
		node = r.res.Preemption.Node
	}
	if node == "" {
		return nil
	}
	return x.s.Assume(p, node)
}

// place schedules and commits a pod that is not shown.
func (x *explainer) place(ctx context.Context, p *api.Pod) (string, error) {
	ex, err := explainPodWhyNot(ctx, x.s, p, false, false)
	if err != nil {
		return "", &inputError{err}
	}
	r := &podRow{res: podResult{Outcome: ex.Outcome, Node: ex.Node, Preemption: preemptionResult{Node: ex.Nominated}}, victims: ex.Victims}
	return ex.Node, x.commit(p, r)
}

// row turns an explanation into a podRow.
func (x *explainer) row(ex *explanation) *podRow {
	p := ex.Pod
	r := &podRow{res: podResult{
		Pod: podName(p), Outcome: ex.Outcome, Node: ex.Node, Tied: nonNil(ex.Tied),
		Preemption: preemptionResult{Node: ex.Nominated, Victims: []string{}}, NotEvaluated: nonNil(ex.NotEvaluated),
		Notes: []string{},
	}}
	var gated *scheduler.GatedError
	switch {
	case errors.As(ex.Err, &gated):
		r.res.Message = gated.Status.Message()
	case ex.Err != nil:
		r.res.Message = ex.Err.Error()
	}
	for _, v := range ex.Victims {
		r.res.Preemption.Victims = append(r.res.Preemption.Victims, podName(v))
	}
	r.victims = ex.Victims
	r.res.Unverified = nonNil(ex.Unverified)
	r.res.LeaveOneOut = ex.LeaveOneOut
	if wn := ex.WhyNot; wn != nil {
		r.res.WhyNot = &whyNotResult{Summary: wn.Summary(), Best: wn.Best, Nodes: wn.Nodes, Reasons: wn.Reasons, NotVerified: wn.NotVerified}
	}

	// Display order: feasible nodes by total, then the others.
	idx := make([]int, len(ex.Nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		na, nb := &ex.Nodes[a], &ex.Nodes[b]
		if na.Feasible != nb.Feasible {
			if na.Feasible {
				return -1
			}
			return 1
		}
		switch {
		case na.Total > nb.Total:
			return -1
		case na.Total < nb.Total:
			return 1
		}
		return 0
	})
	if n := x.o.top; n > 0 && n < len(idx) {
		r.hidden = len(idx) - n
		idx = idx[:n]
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("%d more node(s) not shown (--top %d)", r.hidden, n))
	}
	notEvaluated := 0
	view := x.s.Snapshot().View()
	r.order = make([]string, 0, len(idx))
	r.nodes = make([]nodeResult, 0, len(idx))
	r.scores = make([][]pluginScore, 0, len(idx))
	r.before = make([]usage, 0, len(idx))
	for _, i := range idx {
		nv := &ex.Nodes[i]
		r.order = append(r.order, nv.Name)
		nr := nodeResult{Code: nv.Status.Code().String(), Plugin: nv.Status.Plugin(), Reasons: nonNil(nv.Status.Reasons())}
		if np := nv.Preemption; np != nil {
			nr.Preemption = &nodePreemption{Verdict: np.Verdict.String(), Chosen: np.Chosen, PDBViolations: np.NumPDBViolations}
			for _, v := range np.Victims {
				nr.Preemption.Victims = append(nr.Preemption.Victims, podName(v))
			}
			// An unresolvable node's reasons are its filter verdict's,
			// already on the node.
			if np.Verdict != scheduler.PreemptionUnresolvable {
				nr.Preemption.Plugin, nr.Preemption.Reasons = np.Status.Plugin(), np.Status.Reasons()
			}
		}
		nr.Devices = devicesResult(nv.Devices)
		if !nv.Evaluated && nv.Status.IsSuccess() && !nv.Feasible {
			notEvaluated++
		}
		var scores []pluginScore
		if nv.Scored {
			scores = nv.Scores
			nr.Total = &nv.Total
			if r.plugins == nil {
				r.plugins = nv.Scores
			}
		}
		r.nodes = append(r.nodes, nr)
		r.scores = append(r.scores, scores)
		var u usage
		if ni, ok := view.Get(nv.Name); ok {
			u = usage{CPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, AllocCPU: ni.Allocatable.MilliCPU, AllocMemory: ni.Allocatable.Memory}
		}
		r.before = append(r.before, u)
	}
	if notEvaluated > 0 {
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("%d feasible node(s) not evaluated by the cycle (percentageOfNodesToScore sampling)", notEvaluated))
	}
	if ex.Feasible == 1 && ex.Node != "" {
		r.res.Notes = append(r.res.Notes, "one feasible node: kube-scheduler does not score then")
	}
	if k, ok := podgroup.KeyOf(p); ok && x.s.FeatureGates().GenericWorkload() {
		r.res.Notes = append(r.res.Notes, gangNote(x.s, p, k))
	}
	req := resource.SchedulerRequests(p)
	r.add = usage{CPU: req.Cpu().MilliValue(), Memory: req.Memory().Value()}
	return r
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func runExplain(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "wide", "json", "yaml"); err != nil {
		return 0, err
	}
	if o.top < 0 {
		return 0, &usageError{msg: fmt.Sprintf("--top %d: must be 0 (all) or more", o.top)}
	}
	config, opts, err := e.configOptions(o)
	if err != nil {
		return 0, err
	}
	if o.html != "" {
		// An unwritable report fails before anything runs.
		if err := checkWritable(o.html); err != nil {
			return 0, err
		}
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	sel, err := selectPods(o, c)
	if err != nil {
		return 0, err
	}
	s, err := newSched(c.Snapshot, config, append(opts, unmodelledFields(c)))
	if err != nil {
		return 0, err
	}
	if prof, ok := s.Profile(""); ok {
		e.notEvaluatedWarning(o, s, prof.NotEvaluated(), c)
		if n := antiAffinityNotice(prof.NotEvaluated(), len(c.Snapshot.HavePodsWithRequiredAntiAffinityNodes())); n != "" {
			e.warnf(o, "%s", n)
		}
	}
	var rep *htmlReport
	if o.html != "" {
		rep = newHTMLReport(c.Snapshot)
	}
	out := newRowWriter(e, o)
	x := newExplainer(e, o, c, s)
	if s.FeatureGates().GenericWorkload() {
		// GangScheduling counts a gang's pending pods in the queue.
		var members []*api.Pod
		for _, p := range c.Pending {
			if _, ok := podgroup.KeyOf(p); ok {
				members = append(members, p)
			}
		}
		if err := s.Enqueue(context.Background(), members...); err != nil {
			return 0, err
		}
	}
	var sum explainSummary
	sum.Nodes = c.Snapshot.NumNodes()
	emit := func(r *podRow) error {
		sum.Add(r.res.Outcome, len(r.res.Unverified) > 0)
		if rep != nil {
			rep.add(r)
		}
		return out.row(r)
	}
	if sel.bound != nil {
		err = x.whatIf(context.Background(), sel.bound, emit)
	} else {
		err = x.run(context.Background(), c.Pending, sel.want, emit)
	}
	if err != nil {
		return 0, err
	}
	if err := out.finish(sum); err != nil {
		return 0, err
	}
	if rep != nil {
		if err := rep.write(o.html, c.Snapshot, sum); err != nil {
			return 0, err
		}
	}
	return exitFor(o, sum.Summary), nil
}

// exitFor is the one exit rule: 1 when some pod is unschedulable or fits
// only by preempting or, with --strict, some decision is unverified or a
// warning was printed; 0 otherwise.
func exitFor(o *options, sum scheduler.Summary) int {
	if sum.Failed() > 0 || (o.strict && (sum.Unverified > 0 || o.warned)) {
		return exitUnschedulable
	}
	return exitOK
}
