package app

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/schedkit/schedkit/scheduler"
)

func drainCmd() *command {
	return &command{
		name:  "drain",
		args:  " NODE...",
		short: "where a drained node's pods would go, and which evictions PDBs block",
		long: `Does what "kubectl drain" does to the named nodes, with its flags, then
schedules what the controllers recreate (scheduler.Drain): the nodes are
cordoned; kubectl's filters judge each pod, with kubectl's texts: a
DaemonSet pod refuses the drain of its node unless --ignore-daemonsets, a
pod with an emptyDir volume unless --delete-emptydir-data, a pod without
a controller unless --force; mirror pods stay. On a node nothing refuses,
each pod is evicted unless a PodDisruptionBudget blocks it (its
status.disruptionsAllowed, or, for a budget without status, what the
disruption controller would compute), or deleted with --disable-eviction.
Replacements are scheduled with the cluster's other pending pods. Prints
each pod's outcome; kubectl's warnings and errors go to stderr. Exit 1
when a node is not drained, an eviction is blocked or a replacement stays
Pending, or one fits only by preempting. With --feature-gates
GenericWorkload=true, the replacements of a PodGroup's pods join their
group as new pods do in kube-scheduler: one PodGroup cycle over them,
the members still scheduled counting toward minCount, all placed or none;
a table gives each group's outcome.
`,
		example: `  schedkit drain -f examples/manifests --ignore-daemonsets node-b1
  schedkit drain -f examples/manifests --ignore-daemonsets --delete-emptydir-data node-b1 node-c1 -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			gatesFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			strictFlag(fs, o)
			tieFlags(fs, o)
			fs.BoolVar(&o.drain.IgnoreDaemonSets, "ignore-daemonsets", false, "ignore DaemonSet-managed pods (kubectl drain's flag)")
			fs.BoolVar(&o.drain.DeleteEmptyDirData, "delete-emptydir-data", false, "evict pods with emptyDir volumes, whose data is lost (kubectl drain's flag)")
			fs.BoolVar(&o.drain.Force, "force", false, "evict pods without a controller too; nothing recreates them (kubectl drain's flag)")
			fs.BoolVar(&o.drain.DisableEviction, "disable-eviction", false, "delete pods instead of evicting them, bypassing PodDisruptionBudgets (kubectl drain's flag)")
			fs.StringVar(&o.drain.PodSelector, "pod-selector", "", "drain only the pods this label selector selects (kubectl drain's flag)")
		},
		run: runDrain,
	}
}

// drainedPod is one pod of a drained node.
type drainedPod struct {
	Pod     string `json:"pod"`
	From    string `json:"from"`
	Outcome string `json:"outcome"` // moved, pending, gone, blocked, refused, stays
	Node    string `json:"node"`
	Message string `json:"message"`
	// Scheduled is the outcome of the replacement's scheduling (placed,
	// preempting, unschedulable, gated), for a pod a controller
	// recreates.
	Scheduled *scheduler.Outcome `json:"scheduled,omitempty"`
}

// drainSummary counts the outcomes.
type drainSummary struct {
	Moved   int `json:"moved"`
	Pending int `json:"pending"`
	Gone    int `json:"gone"`
	Blocked int `json:"blocked"`
	Refused int `json:"refused"`
	Stays   int `json:"stays"`
}

// drainRow formats one pod of scheduler.Drain's report.
func drainRow(p *scheduler.DrainedPod) drainedPod {
	r := drainedPod{Pod: podName(p.Pod), From: p.From, Node: p.From, Message: p.Message}
	switch p.Outcome {
	case scheduler.DrainEvicted, scheduler.DrainDeleted:
		if p.Replaced {
			oc := p.Placement.Outcome()
			r.Scheduled = &oc
			if oc == scheduler.OutcomePreempting {
				r.Message = join("replacement preempting", r.Message)
			}
		}
		switch {
		case !p.Replaced:
			r.Outcome, r.Node = "gone", ""
			if r.Message == "" {
				r.Message = "not recreated"
			}
		case p.Placement.Node != "":
			r.Outcome, r.Node = "moved", p.Placement.Node
		default:
			r.Outcome, r.Node, r.Message = "pending", "", errString(p.Placement.Err)
		}
		if p.Outcome == scheduler.DrainDeleted {
			r.Message = join("deleted (--disable-eviction)", r.Message)
		}
	case scheduler.DrainBlocked:
		r.Outcome = "blocked"
	case scheduler.DrainRefused:
		r.Outcome = "refused"
	case scheduler.DrainNotDrained:
		r.Outcome, r.Message = "stays", "node not drained: kubectl refuses another of its pods"
	default:
		r.Outcome = "stays"
		if r.Message == "" {
			r.Message = "mirror pod (kubectl drain skips it)"
		}
	}
	return r
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

func runDrain(e *env, o *options, args []string) (int, error) {
	if len(args) == 0 {
		return 0, &usageError{msg: "no node named (schedkit drain -f PATH NODE...)"}
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	config, opts, err := e.configOptions(o)
	if err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	if err := knownNodes(c, args); err != nil {
		return 0, err
	}
	s, err := newSched(c.Snapshot, config, opts)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	now := o.now.t
	if now.IsZero() {
		now = time.Now()
	}
	dopt := o.drain
	dopt.Pending = c.Pending
	rep, err := s.Drain(context.Background(), args, now, dopt)
	if err != nil {
		return 0, &usageError{msg: err.Error()}
	}
	for _, w := range rep.Warnings {
		// kubectl's own text; --strict counts it as any warning.
		o.warned = true
		fmt.Fprintln(e.stderr, "Warning: "+w)
	}
	for _, de := range rep.Errors {
		fmt.Fprintf(e.stderr, "error: unable to drain node %q due to error: %s, continuing command...\n", de.Node, de.Error())
	}
	code, err := writeDrain(e, o, rep)
	if err != nil {
		return 0, err
	}
	return code, nil
}

// writeDrain prints the report as a table or a document and returns the
// exit code: 1 when a node is not drained, an eviction is blocked or a
// replacement stays Pending.
func writeDrain(e *env, o *options, rep *scheduler.DrainReport) (int, error) {
	results := make([]drainedPod, len(rep.Pods))
	var sum drainSummary
	for i := range rep.Pods {
		results[i] = drainRow(&rep.Pods[i])
		switch results[i].Outcome {
		case "moved":
			sum.Moved++
		case "pending":
			sum.Pending++
		case "gone":
			sum.Gone++
		case "blocked":
			sum.Blocked++
		case "refused":
			sum.Refused++
		default:
			sum.Stays++
		}
	}
	sched := rep.Summary()
	code := exitFor(o, sched)
	if sum.Blocked > 0 || len(rep.Errors) > 0 {
		code = exitUnschedulable
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range results {
			if err := d.item(&results[i]); err != nil {
				return 0, err
			}
		}
		keys, values := []string{"summary", "scheduled"}, []any{sum, sched}
		if rep.Gangs != nil {
			keys, values = append(keys, "gangs"), append(values, rep.Gangs)
		}
		return code, d.finish(keys, values...)
	}
	w := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tFROM\tOUTCOME\tNODE\tMESSAGE")
	for _, r := range results {
		node := r.Node
		if node == "" {
			node = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Pod, r.From, r.Outcome, node, r.Message)
	}
	tw.Flush()
	if len(rep.Gangs) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "POD GROUP\tMIN COUNT\tPODS\tPLACED\tGANG")
		for _, g := range rep.Gangs {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", g.PodGroup, g.MinCount, g.Pods, g.Placed, g.Message)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\n%d moved, %d pending, %d blocked, %d stay", sum.Moved, sum.Pending, sum.Blocked, sum.Stays)
	if sum.Gone > 0 {
		fmt.Fprintf(w, ", %d gone", sum.Gone)
	}
	if sum.Refused > 0 {
		fmt.Fprintf(w, ", %d refused", sum.Refused)
	}
	fmt.Fprintf(w, "\nscheduled (replacements and pending pods): %s\n", sched)
	return code, w.Flush()
}
