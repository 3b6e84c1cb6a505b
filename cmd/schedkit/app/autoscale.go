package app

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/autoscaler"
	"github.com/schedkit/schedkit/manifest"
)

// autoscaleOptions are the flags of scale-up and scale-down.
type autoscaleOptions struct {
	templates  listFlag
	max        int
	expander   string
	priorities string

	nodes            listFlag
	threshold        float64
	ignoreDaemonSets bool
	ignoreMirrorPods bool
	skipSystemPods   bool
	skipLocalStorage bool
}

func scaleUpCmd() *command {
	return &command{
		name:  "scale-up",
		short: "the fewest new nodes of which node groups would place the pending pods",
		long: `What cluster-autoscaler's scale-up would add for the pending pods, with every
placement kube-scheduler's (autoscaler.PlanScaleUp): each Node of the
--node-template files is a node group, named by its metadata.name, whose
new nodes copy it (template-node-for-GROUP-N). Pods pending on the cluster
as read (a pod that fits only by preempting counts as pending, as
cluster-autoscaler counts it) that a node of no group would place are
listed with each group's reason. Then, step by step, each group offers the
nodes it needs for the pods still pending, the --expander picks one
(least-waste: the least idle cpu and memory share; most-pods; priority:
the --priorities file, cluster-autoscaler-priority-expander's data.priorities,
priority to regular expressions of group names), and last every node is
left out in turn: each new node printed names the pods that stay pending
without it. Ties go to the first group given (cluster-autoscaler picks
at random). Exit 1 when a pod stays pending.
`,
		example: `  schedkit scale-up -f examples/manifests --node-template examples/manifests/nodegroups/templates.yaml
  schedkit scale-up -f examples/manifests --node-template examples/manifests/nodegroups/templates.yaml --expander priority --priorities examples/manifests/nodegroups/priorities.yaml -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			gatesFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			fs.Var(&o.autoscale.templates, "node-template", "node group template `FILE` (Node manifests, one group each; repeatable, comma lists)")
			fs.IntVar(&o.autoscale.max, "max", 100, "the most new nodes")
			fs.StringVar(&o.autoscale.expander, "expander", "least-waste", "how to choose the group to grow: least-waste, most-pods or priority")
			fs.StringVar(&o.autoscale.priorities, "priorities", "", "the priority expander's `FILE`: priority → regular expressions of group names (YAML)")
		},
		run: runScaleUp,
	}
}

func scaleDownCmd() *command {
	return &command{
		name:  "scale-down",
		short: "which nodes could be removed, in order, with every pod placed elsewhere",
		long: `What cluster-autoscaler's scale-down simulation would remove, with every
placement kube-scheduler's (autoscaler.PlanScaleDown): each node whose
utilisation (the higher of its pods' cpu and memory requests over its
allocatable) is below --utilization-threshold is tried in turn, the least
utilised first (or the --node order), on the cluster its removals before
left. A node stays when a pod blocks it by cluster-autoscaler's drain
rules, with its texts: no controller, its controller missing from the
input, emptyDir or hostPath volumes (--skip-nodes-with-local-storage),
cluster-autoscaler.kubernetes.io/safe-to-evict "false", a kube-system pod
no PodDisruptionBudget covers (--skip-nodes-with-system-pods); safe-to-evict
"true" lifts the first three; DaemonSet and mirror pods go with the node.
It stays too when its pods' evictions exceed a budget's remaining
disruptions, or a pod's replacement finds no other node (without
preempting). The pending pods that fit are placed first, as
cluster-autoscaler's filter-out-schedulable step places them. Prints the
nodes removed with where each pod goes, and each node kept with the pod
and reason that keep it. With --feature-gates GenericWorkload=true, the
replacements of a PodGroup's pods join their group and are placed as one
unit or not at all: a node stays when a gang's replacements cannot be
placed together.
`,
		example: `  schedkit scale-down -f examples/manifests
  schedkit scale-down -f examples/manifests --utilization-threshold 0.7 --node node-b2 --node node-a2 -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			gatesFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			fs.Var(&o.autoscale.nodes, "node", "a candidate `NODE`, tried in the order given (repeatable, comma lists; default every node)")
			fs.Float64Var(&o.autoscale.threshold, "utilization-threshold", 0.5, "nodes below this utilisation are candidates (--scale-down-utilization-threshold)")
			fs.BoolVar(&o.autoscale.ignoreDaemonSets, "ignore-daemonsets-utilization", false, "leave DaemonSet pods out of the utilisation")
			fs.BoolVar(&o.autoscale.ignoreMirrorPods, "ignore-mirror-pods-utilization", false, "leave mirror pods out of the utilisation")
			fs.BoolVar(&o.autoscale.skipSystemPods, "skip-nodes-with-system-pods", true, "keep nodes with kube-system pods no budget covers")
			fs.BoolVar(&o.autoscale.skipLocalStorage, "skip-nodes-with-local-storage", true, "keep nodes with pods with emptyDir or hostPath volumes")
		},
		run: runScaleDown,
	}
}

// scaleUpDoc is scale-up's document.
type scaleUpDoc struct {
	Nodes     []scaleUpNode     `json:"nodes"`
	Steps     []autoscaler.Step `json:"steps"`
	Pods      []scaleUpPod      `json:"pods"`
	NotHelped []notHelpedPod    `json:"notHelped"`
	// Gangs is the gang-aware answer beside cluster-autoscaler's plan,
	// with GenericWorkload on.
	Gangs []autoscaler.GangHelp `json:"gangs,omitempty"`
}

type scaleUpNode struct {
	Node   string   `json:"node"`
	Group  string   `json:"group"`
	Needed []string `json:"needed"`
}

type scaleUpPod struct {
	Pod     string `json:"pod"`
	Outcome string `json:"outcome"`
	Node    string `json:"node"`
	Message string `json:"message"`
}

type notHelpedPod struct {
	Pod     string            `json:"pod"`
	Reasons map[string]string `json:"reasons"`
}

func runScaleUp(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	a := &o.autoscale
	if len(a.templates) == 0 {
		return 0, &usageError{msg: "no node group given (--node-template FILE)"}
	}
	if a.max < 1 {
		return 0, &usageError{msg: fmt.Sprintf("--max %d: must be at least 1", a.max)}
	}
	exp := autoscaler.Expander(a.expander)
	switch exp {
	case autoscaler.LeastWaste, autoscaler.MostPods, autoscaler.Priority:
	default:
		return 0, &usageError{msg: fmt.Sprintf("--expander %q: least-waste, most-pods or priority", a.expander)}
	}
	var prio map[int][]string
	switch {
	case a.priorities != "":
		b, err := os.ReadFile(a.priorities)
		if err != nil {
			return 0, &inputError{err}
		}
		if err := yaml.UnmarshalStrict(b, &prio); err != nil {
			return 0, &inputError{fmt.Errorf("--priorities %s: %w", a.priorities, err)}
		}
	case exp == autoscaler.Priority:
		return 0, &usageError{msg: "--expander priority needs --priorities FILE"}
	}
	objs, _, err := manifest.ReadFiles(manifest.Options{Recursive: o.recursive, Validate: o.validate.v}, a.templates...)
	if err != nil {
		return 0, &inputError{err}
	}
	if len(objs.Nodes) == 0 {
		return 0, &usageError{msg: fmt.Sprintf("--node-template %s: no Node in the file(s)", strings.Join(a.templates, ","))}
	}
	var groups []autoscaler.NodeGroup
	for _, n := range objs.Nodes {
		groups = append(groups, autoscaler.NodeGroup{Template: n})
	}
	config, opts, err := e.configOptions(o)
	if err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	s, err := newSched(c.Snapshot, config, opts)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	ctx := context.Background()
	up, err := autoscaler.PlanScaleUp(ctx, s, c.Pending, autoscaler.ScaleUpOptions{
		Groups: groups, Max: a.max, Expander: exp, Priorities: prio})
	if err != nil {
		return 0, &usageError{msg: err.Error()}
	}
	gangs, err := autoscaler.GangsAfterScaleUp(ctx, s, c.Pending, up)
	if err != nil {
		return 0, err
	}
	doc := scaleUpDoc{Nodes: []scaleUpNode{}, Steps: up.Steps, Pods: []scaleUpPod{}, NotHelped: []notHelpedPod{}, Gangs: gangs}
	if doc.Steps == nil {
		doc.Steps = []autoscaler.Step{}
	}
	for _, n := range up.Nodes {
		sn := scaleUpNode{Node: n.Node.Name, Group: n.Group}
		for _, p := range n.Needed {
			sn.Needed = append(sn.Needed, podName(p))
		}
		doc.Nodes = append(doc.Nodes, sn)
	}
	code := exitOK
	placed, pending := 0, 0
	for _, pl := range up.Placements {
		r := scaleUpPod{Pod: podName(pl.Pod), Outcome: "placed", Node: pl.Node}
		if pl.Node == "" {
			r.Outcome, code = "pending", exitUnschedulable
			pending++
			if pl.Err != nil {
				r.Message = pl.Err.Error()
			}
		} else {
			placed++
		}
		doc.Pods = append(doc.Pods, r)
	}
	for _, nh := range up.NotHelped {
		doc.NotHelped = append(doc.NotHelped, notHelpedPod{Pod: podName(nh.Pod), Reasons: nh.Reasons})
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "nodes")
		for i := range doc.Nodes {
			if err := d.item(&doc.Nodes[i]); err != nil {
				return 0, err
			}
		}
		keys, values := []string{"steps", "pods", "notHelped"}, []any{doc.Steps, doc.Pods, doc.NotHelped}
		if doc.Gangs != nil {
			keys, values = append(keys, "gangs"), append(values, doc.Gangs)
		}
		return code, d.finish(keys, values...)
	}
	w := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(doc.Nodes) > 0 {
		fmt.Fprintln(tw, "NEW NODE\tGROUP\tPENDING WITHOUT IT")
		for _, n := range doc.Nodes {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", n.Node, n.Group, strings.Join(n.Needed, ", "))
		}
		fmt.Fprintln(tw)
	}
	if len(doc.Steps) > 0 {
		fmt.Fprintf(tw, "STEP\tEXPANDER CHOICE\tOFFERS (group: nodes/pods, waste)\n")
		for i, st := range doc.Steps {
			var offers []string
			for _, op := range st.Options {
				offers = append(offers, fmt.Sprintf("%s: %d/%d, %.2f", op.Group, op.Nodes, op.Pods, op.Waste))
			}
			fmt.Fprintf(tw, "%d\t%s ×%d\t%s\n", i+1, st.Group, st.Nodes, strings.Join(offers, "; "))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintln(tw, "POD\tOUTCOME\tNODE\tMESSAGE")
	for _, r := range doc.Pods {
		node := r.Node
		if node == "" {
			node = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Pod, r.Outcome, node, r.Message)
	}
	if len(doc.NotHelped) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "NO GROUP HELPS\tGROUP\tREASON")
		for _, nh := range doc.NotHelped {
			for _, g := range groups {
				name := g.Template.Name
				fmt.Fprintf(tw, "%s\t%s\t%s\n", nh.Pod, name, nh.Reasons[name])
			}
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d new node(s)", len(doc.Nodes))
	counts := map[string]int{}
	for _, n := range doc.Nodes {
		counts[n.Group]++
	}
	var parts []string
	for _, g := range groups {
		if k := counts[g.Template.Name]; k > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", g.Template.Name, k))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "; %d pending pod(s): %d placed, %d still pending, %d that no group helps\n", len(doc.Pods), placed, pending-len(doc.NotHelped), len(doc.NotHelped))
	if len(doc.Gangs) > 0 {
		fmt.Fprintln(w, "\ncluster-autoscaler v1.37 counts a gang's pods one by one; with the new nodes, each gang as kube-scheduler places it:")
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "POD GROUP\tHELPED\tGANG")
		for _, g := range doc.Gangs {
			helped := "no"
			if g.Helped {
				helped = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", g.PodGroup, helped, g.Message)
		}
		tw.Flush()
	}
	return code, w.Flush()
}

// scaleDownDoc is scale-down's document.
type scaleDownDoc struct {
	Removed []removedNode `json:"removed"`
	Kept    []keptNode    `json:"kept"`
}

type removedNode struct {
	Node        string        `json:"node"`
	Utilization float64       `json:"utilization"`
	Moves       []scaleDownMv `json:"moves"`
}

type scaleDownMv struct {
	Pod string `json:"pod"`
	To  string `json:"to"`
}

type keptNode struct {
	Node        string  `json:"node"`
	Utilization float64 `json:"utilization"`
	Reason      string  `json:"reason"`
	Pod         string  `json:"pod,omitempty"`
	Message     string  `json:"message"`
}

func runScaleDown(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	a := &o.autoscale
	if a.threshold <= 0 || a.threshold > 1 {
		return 0, &usageError{msg: fmt.Sprintf("--utilization-threshold %g: must be in (0, 1]", a.threshold)}
	}
	config, opts, err := e.configOptions(o)
	if err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	if err := knownNodes(c, a.nodes); err != nil {
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
	down, err := autoscaler.PlanScaleDown(context.Background(), s, autoscaler.ScaleDownOptions{
		Nodes: slices.Clone(a.nodes), UtilizationThreshold: a.threshold, Pending: c.Pending,
		IgnoreDaemonSetsUtilization: a.ignoreDaemonSets, IgnoreMirrorPodsUtilization: a.ignoreMirrorPods,
		MoveSystemPods: !a.skipSystemPods, MoveLocalStorage: !a.skipLocalStorage, Now: now})
	if err != nil {
		return 0, &usageError{msg: err.Error()}
	}
	doc := scaleDownDoc{Removed: []removedNode{}, Kept: []keptNode{}}
	for _, r := range down.Removed {
		rn := removedNode{Node: r.Node, Utilization: r.Utilization, Moves: []scaleDownMv{}}
		for _, m := range r.Moves {
			rn.Moves = append(rn.Moves, scaleDownMv{Pod: podName(m.Pod), To: m.To})
		}
		doc.Removed = append(doc.Removed, rn)
	}
	for _, k := range down.Kept {
		kn := keptNode{Node: k.Node, Utilization: k.Utilization, Reason: string(k.Reason), Message: k.Message}
		if k.Pod != nil {
			kn.Pod = podName(k.Pod)
		}
		doc.Kept = append(doc.Kept, kn)
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "removed")
		for i := range doc.Removed {
			if err := d.item(&doc.Removed[i]); err != nil {
				return 0, err
			}
		}
		return exitOK, d.finish([]string{"kept"}, doc.Kept)
	}
	w := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(doc.Removed) > 0 {
		fmt.Fprintln(tw, "ORDER\tREMOVED NODE\tUTILIZATION\tPODS MOVE TO")
		for i, r := range doc.Removed {
			var mv []string
			for _, m := range r.Moves {
				mv = append(mv, m.Pod+" → "+m.To)
			}
			if len(mv) == 0 {
				mv = []string{"(no pod to move)"}
			}
			fmt.Fprintf(tw, "%d\t%s\t%.2f\t%s\n", i+1, r.Node, r.Utilization, strings.Join(mv, ", "))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintln(tw, "KEPT NODE\tUTILIZATION\tREASON\tPOD\tMESSAGE")
	for _, k := range doc.Kept {
		pod := k.Pod
		if pod == "" {
			pod = "-"
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\t%s\n", k.Node, k.Utilization, k.Reason, pod, k.Message)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d node(s) removable, %d kept\n", len(doc.Removed), len(doc.Kept))
	return exitOK, w.Flush()
}
