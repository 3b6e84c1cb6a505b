package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/scheduler"
)

// KubernetesVersion is the Kubernetes release whose scheduler schedkit
// models.
const KubernetesVersion = "v1.37.2"

func versionCmd() *command {
	return &command{
		name:    "version",
		short:   "schedkit's version and the Kubernetes version it models",
		long:    "Prints schedkit's module version and the kube-scheduler release whose behaviour it reproduces.\n",
		example: "  schedkit version\n",
		flags:   func(*flag.FlagSet, *options) {},
		run: func(e *env, o *options, args []string) (int, error) {
			if err := noArgs(args); err != nil {
				return 0, err
			}
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintf(e.stdout, "schedkit %s\nmodels kube-scheduler %s (default profile and feature gates of that release)\n", v, KubernetesVersion)
			return exitOK, nil
		},
	}
}

func simulateCmd() *command {
	return &command{
		name:  "simulate",
		short: "run the whole scheduling queue and show the final placement",
		long: `Runs kube-scheduler's queue over the pending pods: queue order (priority, then
arrival), scheduling gates, each placement seen by the next decision, and
pods parked as unschedulable retried when a placement may help them. Prints
each pod's outcome (placed, preempting: placed after evicting victims,
unschedulable, gated), the summary line ("6 pod(s): 5 placed, 1
preempting, 0 unschedulable, 0 gated") and the final placement per node.
With --feature-gates GenericWorkload=true, the pods of a PodGroup
(spec.schedulingGroup) are scheduled as kube-scheduler's PodGroup cycle
schedules them, a gang all or nothing, and a table of the groups says
"gang of 8 fits on nodes ...", "waiting for N more members" or why the
gang does not fit.
`,
		example: `  schedkit simulate -f examples/manifests
  schedkit simulate -f examples/manifests/cluster.yaml,examples/manifests/running.yaml,examples/manifests/pending.yaml,examples/manifests/policy.yaml -o json --strict
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			strictFlag(fs, o)
			tieFlags(fs, o)
			gatesFlag(fs, o)
		},
		run: runSimulate,
	}
}

// simPod is one pod of simulate's JSON.
type simPod struct {
	Pod        string            `json:"pod"`
	Outcome    scheduler.Outcome `json:"outcome"`
	Priority   int32             `json:"priority"`
	Node       string            `json:"node"`
	Nominated  string            `json:"nominatedNode"`
	Attempts   int               `json:"attempts"`
	Message    string            `json:"message"`
	Victims    []string          `json:"victims"`
	Unverified []string          `json:"unverified"`
}

// simNode is a node's final placement.
type simNode struct {
	Pods   []string `json:"pods"`
	CPU    string   `json:"cpuRequested"`
	Memory string   `json:"memoryRequested"`
}

func runSimulate(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
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
	s, err := newSched(c.Snapshot, config, append(opts, unmodelledFields(c)))
	if err != nil {
		return 0, err
	}
	placements, err := s.Simulate(context.Background(), c.Pending)
	if err != nil {
		return 0, err
	}
	var sum scheduler.Summary
	pods := make([]simPod, 0, len(placements))
	newOn := map[string][]string{}
	for _, pl := range placements {
		sp := simPod{Pod: podName(pl.Pod), Priority: priority(pl.Pod), Node: pl.Node, Attempts: pl.Attempts,
			Nominated: pl.Decision.NominatedNode}
		sp.Victims = []string{}
		for _, pr := range pl.Preemptions {
			for _, v := range pr.Victims {
				sp.Victims = append(sp.Victims, podName(v))
			}
			sp.Nominated = pr.Node
		}
		sp.Outcome = pl.Outcome()
		var gated *scheduler.GatedError
		switch {
		case pl.Node != "":
			if len(sp.Victims) > 0 {
				sp.Message = fmt.Sprintf("placed after preempting %s on %s", strings.Join(sp.Victims, ", "), sp.Nominated)
			}
			newOn[pl.Node] = append(newOn[pl.Node], sp.Pod)
		case errors.As(pl.Err, &gated):
			sp.Message = gated.Status.Message()
		default:
			sp.Message = errString(pl.Err)
		}
		sp.Unverified = nonNil(pl.Decision.Unverified)
		sum.Add(sp.Outcome, len(sp.Unverified) > 0)
		pods = append(pods, sp)
	}
	gangs := s.Gangs(placements)
	nodes := map[string]simNode{}
	var names []string
	for _, ni := range s.Snapshot().Nodes() {
		name := ni.Node().Name
		names = append(names, name)
		nodes[name] = simNode{Pods: nonNil(newOn[name]), CPU: fmtCPU(ni.Requested.MilliCPU) + "/" + fmtCPU(ni.Allocatable.MilliCPU),
			Memory: fmtMem(ni.Requested.Memory) + "/" + fmtMem(ni.Allocatable.Memory)}
	}
	sort.Strings(names)
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range pods {
			if err := d.item(&pods[i]); err != nil {
				return 0, err
			}
		}
		keys, values := []string{"nodes", "summary"}, []any{nodes, sum}
		if gangs != nil {
			keys, values = append(keys, "gangs"), append(values, gangs)
		}
		if err := d.finish(keys, values...); err != nil {
			return 0, err
		}
	} else {
		w := bufio.NewWriter(e.stdout)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "POD\tPRIORITY\tOUTCOME\tNODE\tATTEMPTS\tREASON")
		for _, sp := range pods {
			node := sp.Node
			if node == "" {
				node = "-"
			}
			reason := sp.Message
			for _, u := range sp.Unverified {
				reason = strings.TrimPrefix(reason+"; unverified: "+u, "; ")
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%s\n", sp.Pod, sp.Priority, sp.Outcome, node, sp.Attempts, reason)
		}
		tw.Flush()
		if len(gangs) > 0 {
			fmt.Fprintln(w)
			tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "POD GROUP\tMIN COUNT\tPODS\tPLACED\tSCHEDULED\tGANG")
			for _, g := range gangs {
				cond := "-"
				if c := g.Condition; c != nil {
					cond = fmt.Sprintf("%s (%s)", c.Status, c.Reason)
				}
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", g.PodGroup, g.MinCount, g.Pods, g.Placed, cond, g.Message)
			}
			tw.Flush()
		}
		fmt.Fprintf(w, "\n%s", sum)
		fmt.Fprintf(w, "\n\n")
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NODE\tCPU REQUESTED\tMEMORY REQUESTED\tNEW PODS")
		for _, n := range names {
			sn := nodes[n]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n, sn.CPU, sn.Memory, strings.Join(sn.Pods, ", "))
		}
		tw.Flush()
		if err := w.Flush(); err != nil {
			return 0, err
		}
	}
	return exitFor(o, sum), nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
