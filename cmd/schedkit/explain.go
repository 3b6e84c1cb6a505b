package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

func explainCmd() *command {
	return &command{
		name:  "explain",
		short: "every node's verdict, every score and the pick for each pending pod",
		long: `For each pending pod, in queue order (each seeing the placements before it;
with --independent each judged alone against the cluster as read): every
node's filter verdict with kube-scheduler's reasons, each score plugin's
normalised score (before weight) and the weighted total for every feasible
node, the tied best nodes and the chosen one, or the fit error as
"kubectl describe pod" shows it and what preemption would do: the
nominated node and its victims, and every node's verdict (the table's
PREEMPTION column: Candidate, Candidate (chosen), CandidateDropped,
CannotHelp, Unresolvable, NotTried, NotEligible, Failed; its REASONS
then say which pods preemption would evict there, or why it cannot
help). Every node is scored (no sampling) unless --config says
otherwise. -o wide adds requested cpu/memory per node before and after
the placement. A pod that uses a feature whose plugin schedkit
lacks is marked "unverified" on its row.
`,
		example: `  schedkit explain -f examples/manifests
  kubectl get nodes,pods,pdb,priorityclasses,limitranges -A -o json | schedkit explain -f - --pod shop/web -o json
  schedkit explain -f dump/ -R --config kube-scheduler.yaml --top 5 --html report.html
  schedkit explain -f old-manifests/ --validate=warn --admission-config admission.yaml
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			outputFlag(fs, o, "table", "wide", "json", "yaml")
			fs.BoolVar(&o.independent, "independent", false, "judge each pod alone against the cluster as read (no earlier placement is assumed)")
			fs.StringVar(&o.pod, "pod", "", "explain only this pending pod (`NAMESPACE/NAME`; the pods before it in the queue are still placed)")
			fs.IntVar(&o.top, "top", 0, "show only the `N` best nodes per pod (feasible by total, then rejected); 0 shows all")
			fs.StringVar(&o.html, "html", "", "also write a self-contained HTML report to `FILE`")
			strictFlag(fs, o)
			tieFlags(fs, o)
		},
		run: runExplain,
	}
}

// podResult is one pod of explain's JSON: kube-scheduler's plugin names,
// reasons as lists, scores and total for feasible nodes only.
type podResult struct {
	Pod          string                `json:"pod"`
	Node         string                `json:"node"`
	Message      string                `json:"message"`
	Nodes        map[string]nodeResult `json:"nodes"`
	Tied         []string              `json:"tied"`
	Preemption   preemptionResult      `json:"preemption"`
	NotEvaluated []string              `json:"notEvaluated"`
	Unverified   []string              `json:"unverified"`
	Warnings     []string              `json:"warnings"`
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

// explainSummary counts the pods explained.
type explainSummary struct {
	Pods          int `json:"pods"`
	Placed        int `json:"placed"`
	Unschedulable int `json:"unschedulable"`
	Preempting    int `json:"preempting"`
	Gated         int `json:"gated"`
	Unverified    int `json:"unverified"`
	Nodes         int `json:"nodes"`
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
	order  []string
	hidden int
	// plugins are the score plugins with their weights, profile order.
	plugins []pluginScore
	// before is each shown node's usage before the placement; the chosen
	// node's usage after is before plus the pod's requests (add).
	before map[string]usage
	add    usage
	// unschedulable: the pod fits no node or the cycle failed.
	unschedulable, gated bool
	// preempting: the pod fits only by evicting victims from the
	// nominated node (res.Preemption).
	preempting bool
	victims    []*api.Pod
}

// explainer runs the explanations of a cluster's pending pods.
type explainer struct {
	e *env
	o *options
	c *manifest.Cluster
	s *scheduler.Scheduler
	// unmodelled maps "ns/name" to the fields schedkit read without
	// modelling.
	unmodelled map[string][]string
}

func newExplainer(e *env, o *options, c *manifest.Cluster, s *scheduler.Scheduler) *explainer {
	x := &explainer{e: e, o: o, c: c, s: s, unmodelled: map[string][]string{}}
	for _, p := range c.Objects.Pods {
		if f := c.Objects.UnmodelledFields(p); f != nil {
			x.unmodelled[podName(p)] = f
		}
	}
	return x
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
		ex, err := explainPod(ctx, x.s, p)
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

// commit makes the cluster what the next pod sees: the pod assumed on its
// node or, when it preempts, its victims evicted and the pod assumed on the
// nominated node (where kube-scheduler places it once they are gone).
func (x *explainer) commit(p *api.Pod, r *podRow) error {
	node := r.res.Node
	if r.preempting {
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
	ex, err := explainPod(ctx, x.s, p)
	if err != nil {
		return "", &inputError{err}
	}
	r := &podRow{res: podResult{Node: ex.Node, Preemption: preemptionResult{Node: ex.Nominated}}, victims: ex.Victims,
		preempting: ex.Node == "" && ex.Nominated != ""}
	return ex.Node, x.commit(p, r)
}

// row turns an explanation into a podRow.
func (x *explainer) row(ex *explanation) *podRow {
	p := ex.Pod
	r := &podRow{res: podResult{
		Pod: podName(p), Node: ex.Node, Nodes: map[string]nodeResult{}, Tied: nonNil(ex.Tied),
		Preemption: preemptionResult{Node: ex.Nominated, Victims: []string{}}, NotEvaluated: nonNil(ex.NotEvaluated),
		Warnings: []string{},
	}, before: map[string]usage{}}
	var gated *scheduler.GatedError
	switch {
	case errors.As(ex.Err, &gated):
		r.gated = true
		r.res.Message = gated.Status.Message()
	case ex.Err != nil:
		r.unschedulable = true
		r.res.Message = ex.Err.Error()
	}
	for _, v := range ex.Victims {
		r.res.Preemption.Victims = append(r.res.Preemption.Victims, podName(v))
	}
	r.preempting = ex.Node == "" && ex.Nominated != ""
	r.victims = ex.Victims
	r.res.Unverified = nonNil(unverifiedMarks(p, ex.NotEvaluated, x.unmodelled[podName(p)], r.unschedulable))

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
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%d more node(s) not shown (--top %d)", r.hidden, n))
	}
	notEvaluated := 0
	view := x.s.Snapshot().View()
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
		if !nv.Evaluated && nv.Status.IsSuccess() && !nv.Feasible {
			notEvaluated++
		}
		if nv.Scored {
			nr.Scores = map[string]int64{}
			for _, ps := range nv.Scores {
				nr.Scores[ps.Plugin] = ps.Normalized
			}
			t := nv.Total
			nr.Total = &t
			if r.plugins == nil {
				r.plugins = nv.Scores
			}
		}
		r.res.Nodes[nv.Name] = nr
		if ni, ok := view.Get(nv.Name); ok {
			r.before[nv.Name] = usage{CPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, AllocCPU: ni.Allocatable.MilliCPU, AllocMemory: ni.Allocatable.Memory}
		}
	}
	if notEvaluated > 0 {
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%d feasible node(s) not evaluated by the cycle (percentageOfNodesToScore sampling)", notEvaluated))
	}
	if ex.Feasible == 1 && ex.Node != "" {
		r.res.Warnings = append(r.res.Warnings, "one feasible node: kube-scheduler does not score then")
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

// selectPod returns the filter of --pod, or an error if no pending pod
// has that name.
func selectPod(o *options, pending []*api.Pod) (func(*api.Pod) bool, error) {
	if o.pod == "" {
		return nil, nil
	}
	want := o.pod
	if !strings.Contains(want, "/") {
		want = "default/" + want
	}
	if !slices.ContainsFunc(pending, func(p *api.Pod) bool { return podName(p) == want }) {
		return nil, &usageError{msg: fmt.Sprintf("--pod %s: no pending pod of that name among the manifests (%d pending)", o.pod, len(pending))}
	}
	return func(p *api.Pod) bool { return podName(p) == want }, nil
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
	config, err := oneConfig(o)
	if err != nil {
		return 0, err
	}
	opts, err := e.schedulerOptions(o, config)
	if err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	want, err := selectPod(o, c.Pending)
	if err != nil {
		return 0, err
	}
	s, err := newSched(c.Snapshot, config, opts)
	if err != nil {
		return 0, err
	}
	if prof, ok := s.Profile(""); ok {
		if ne := prof.NotEvaluated(); len(ne) > 0 {
			fmt.Fprintf(e.stderr, "notice: plugins of the profile not in this build (not evaluated; pods that use them are marked unverified): %s\n", strings.Join(ne, ", "))
		}
		if n := antiAffinityNotice(prof.NotEvaluated(), len(c.Snapshot.HavePodsWithRequiredAntiAffinityNodes())); n != "" {
			fmt.Fprintln(e.stderr, n)
		}
	}
	var rep *htmlReport
	if o.html != "" {
		rep = newHTMLReport(c.Snapshot)
	}
	out := newRowWriter(e, o)
	x := newExplainer(e, o, c, s)
	var sum explainSummary
	sum.Nodes = c.Snapshot.NumNodes()
	err = x.run(context.Background(), c.Pending, want, func(r *podRow) error {
		sum.Pods++
		switch {
		case r.gated:
			sum.Gated++
		case r.preempting:
			sum.Preempting++
		case r.unschedulable:
			sum.Unschedulable++
		default:
			sum.Placed++
		}
		if len(r.res.Unverified) > 0 {
			sum.Unverified++
		}
		if rep != nil {
			rep.add(r)
		}
		return out.row(r)
	})
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
	return exitFor(o, sum.Unschedulable+sum.Preempting, sum.Unverified), nil
}

// exitFor is 1 when some pod is unschedulable or, with --strict, some
// decision unverified; 0 otherwise.
func exitFor(o *options, unschedulable, unverified int) int {
	if unschedulable > 0 || (o.strict && unverified > 0) {
		return exitUnschedulable
	}
	return exitOK
}
