package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

func drainCmd() *command {
	return &command{
		name:  "drain",
		args:  " NODE...",
		short: "where a drained node's pods would go, and which evictions PDBs block",
		long: `Does what "kubectl drain --ignore-daemonsets" does to the named nodes, then
schedules what the controllers recreate: the nodes are cordoned; DaemonSet
and mirror pods stay; pods without a controller are not evicted (kubectl
drain refuses them without --force); each other pod is evicted unless a
PodDisruptionBudget blocks it (status.disruptionsAllowed, or, for a budget
without status, what the disruption controller would compute from the bound
pods it selects), and its replacement is scheduled with the cluster's other
pending pods. Prints each pod's outcome. Exit 1 when an eviction is blocked
or a replacement stays Pending.
`,
		example: `  schedkit drain -f examples/manifests node-b1
  schedkit drain -f dump.json node-7 node-8 -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			tieFlags(fs, o)
		},
		run: runDrain,
	}
}

// drainedPod is one pod of a drained node.
type drainedPod struct {
	Pod     string `json:"pod"`
	From    string `json:"from"`
	Outcome string `json:"outcome"` // moved, pending, blocked, stays
	Node    string `json:"node"`
	Message string `json:"message"`
}

// drainSummary counts the outcomes.
type drainSummary struct {
	Moved   int `json:"moved"`
	Pending int `json:"pending"`
	Blocked int `json:"blocked"`
	Stays   int `json:"stays"`
}

// budget is a PDB with the disruptions it still allows.
type budget struct {
	pdb     *api.PodDisruptionBudget
	sel     affinity.Selector
	allowed int32
}

func controllerOf(p *api.Pod) *api.OwnerReference {
	for i, ref := range p.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			return &p.OwnerReferences[i]
		}
	}
	return nil
}

// allowedDisruptions is status.disruptionsAllowed for a budget the
// disruption controller has seen, else what it would compute: healthy
// (bound, not terminal) selected pods minus the desired healthy count.
func allowedDisruptions(pdb *api.PodDisruptionBudget, sel affinity.Selector, bound []*api.Pod) int32 {
	if pdb.Status.ObservedGeneration > 0 || pdb.Status.ExpectedPods > 0 {
		return pdb.Status.DisruptionsAllowed
	}
	var expected int32
	for _, p := range bound {
		if p.Namespace == pdb.Namespace && sel.Matches(p.Labels) {
			expected++
		}
	}
	var desired int32
	switch {
	case pdb.Spec.MinAvailable != nil:
		desired = scaled(*pdb.Spec.MinAvailable, expected, true)
	case pdb.Spec.MaxUnavailable != nil:
		desired = expected - scaled(*pdb.Spec.MaxUnavailable, expected, true)
	default:
		return 0
	}
	if d := expected - desired; d > 0 {
		return d
	}
	return 0
}

// scaled is an int or a percentage of total, rounded up as the disruption
// controller rounds.
func scaled(v api.IntOrString, total int32, up bool) int32 {
	if !v.IsString {
		return v.IntVal
	}
	pct, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0
	}
	f := float64(pct) * float64(total) / 100
	if up {
		return int32(math.Ceil(f))
	}
	return int32(math.Floor(f))
}

func runDrain(e *env, o *options, args []string) (int, error) {
	if len(args) == 0 {
		return 0, &usageError{msg: "no node named (schedkit drain -f PATH NODE...)"}
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
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
	for _, n := range args {
		if _, ok := c.Snapshot.Get(n); !ok {
			return 0, &usageError{msg: fmt.Sprintf("node %q is not among the manifests' nodes", n)}
		}
	}
	var bound []*api.Pod
	for _, ni := range c.Snapshot.Nodes() {
		for _, pi := range ni.Pods {
			bound = append(bound, pi.Pod)
		}
	}
	var budgets []*budget
	for _, pdb := range c.Objects.PodDisruptionBudgets {
		sel, err := affinity.CompileLabelSelector(pdb.Spec.Selector)
		if err != nil || pdb.Spec.Selector == nil {
			sel = affinity.Nothing()
		}
		budgets = append(budgets, &budget{pdb: pdb, sel: sel, allowed: allowedDisruptions(pdb, sel, bound)})
	}
	s, err := newSched(c.Snapshot, config, opts)
	if err != nil {
		return 0, err
	}
	var results []drainedPod
	var replacements []*api.Pod
	at := map[string]int{}
	for _, n := range args {
		ni, _ := c.Snapshot.Get(n)
		node := *ni.Node()
		node.Spec.Unschedulable = true
		pods := slices.Clone(ni.Pods)
		if err := s.UpdateNode(&node); err != nil {
			return 0, err
		}
		for _, pi := range pods {
			p := pi.Pod
			dp := drainedPod{Pod: podName(p), From: n}
			ctl := controllerOf(p)
			_, mirror := p.Annotations["kubernetes.io/config.mirror"]
			switch {
			case mirror:
				dp.Outcome, dp.Node, dp.Message = "stays", n, "mirror pod (kubectl drain skips it)"
			case ctl != nil && ctl.Kind == "DaemonSet":
				dp.Outcome, dp.Node, dp.Message = "stays", n, "DaemonSet pod (--ignore-daemonsets)"
			case ctl == nil:
				dp.Outcome, dp.Node, dp.Message = "blocked", n, "no controller: kubectl drain refuses it without --force (it would be deleted, not recreated)"
			}
			if dp.Outcome == "" {
				var match []*budget
				for _, b := range budgets {
					if b.pdb.Namespace == p.Namespace && b.sel.Matches(p.Labels) {
						match = append(match, b)
					}
				}
				switch {
				case len(match) > 1:
					dp.Outcome, dp.Node, dp.Message = "blocked", n, "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
				case len(match) == 1 && match[0].allowed <= 0:
					dp.Outcome, dp.Node, dp.Message = "blocked", n, fmt.Sprintf("Cannot evict pod as it would violate the pod's disruption budget. (PodDisruptionBudget %s/%s)", match[0].pdb.Namespace, match[0].pdb.Name)
				default:
					if len(match) == 1 {
						match[0].allowed--
					}
					if err := s.RemovePod(p); err != nil {
						return 0, err
					}
					r := resource.DeepCopyPod(p)
					r.Spec.NodeName = ""
					r.Status = api.PodStatus{}
					r.UID = "replacement/" + string(p.UID)
					replacements = append(replacements, r)
					at[podName(r)] = len(results)
				}
			}
			results = append(results, dp)
		}
	}
	placements, err := s.Simulate(context.Background(), append(replacements, c.Pending...))
	if err != nil {
		return 0, err
	}
	for _, pl := range placements {
		i, ok := at[podName(pl.Pod)]
		if !ok {
			continue
		}
		if pl.Node != "" {
			results[i].Outcome, results[i].Node = "moved", pl.Node
		} else {
			results[i].Outcome, results[i].Message = "pending", errString(pl.Err)
		}
	}
	var sum drainSummary
	for _, r := range results {
		switch r.Outcome {
		case "moved":
			sum.Moved++
		case "pending":
			sum.Pending++
		case "blocked":
			sum.Blocked++
		default:
			sum.Stays++
		}
	}
	code := exitOK
	if sum.Pending+sum.Blocked > 0 {
		code = exitUnschedulable
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range results {
			if err := d.item(&results[i]); err != nil {
				return 0, err
			}
		}
		return code, d.finish([]string{"summary"}, sum)
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
	fmt.Fprintf(w, "\n%d moved, %d pending, %d blocked, %d stay\n", sum.Moved, sum.Pending, sum.Blocked, sum.Stays)
	return code, w.Flush()
}
