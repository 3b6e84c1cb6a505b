package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"text/tabwriter"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

func compareCmd() *command {
	return &command{
		name:  "compare",
		short: "the same cluster under two scheduler configurations",
		long: `Schedules the pending pods (queue order, each placement seen by the next)
under configuration A and under configuration B, each on its own copy of the
cluster, and prints the pods that land differently, each pod's total score
on its node under each (and the delta), and the spread of per-node cpu and
memory utilisation (requested/allocatable) after placement under each.
"--config default" (or a single --config) stands for kube-scheduler's
default profile with every node scored.
`,
		example: `  schedkit compare -f examples/manifests --config examples/manifests/config/most-allocated.yaml
  schedkit compare -f dump/ --config old.yaml --config new.yaml -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			tieFlags(fs, o)
		},
		run: runCompare,
	}
}

// comparedPod is a pod under both configurations.
type comparedPod struct {
	Pod    string `json:"pod"`
	NodeA  string `json:"nodeA"`
	NodeB  string `json:"nodeB"`
	TotalA int64  `json:"totalA"`
	TotalB int64  `json:"totalB"`
	Delta  int64  `json:"delta"`
	Moved  bool   `json:"moved"`
}

// spread is the per-node utilisation after placement, in percent.
type spread struct {
	CPUMin    float64 `json:"cpuMin"`
	CPUMax    float64 `json:"cpuMax"`
	CPUStdDev float64 `json:"cpuStdDev"`
	MemMin    float64 `json:"memoryMin"`
	MemMax    float64 `json:"memoryMax"`
	MemStdDev float64 `json:"memoryStdDev"`
}

// compareSummary is compare's tail.
type compareSummary struct {
	ConfigA, ConfigB string `json:"-"`
	Moved            int    `json:"moved"`
	UnschedulableA   int    `json:"unschedulableA"`
	UnschedulableB   int    `json:"unschedulableB"`
	SpreadA          spread `json:"spreadA"`
	SpreadB          spread `json:"spreadB"`
}

type outcome struct {
	node  string
	total int64
}

// placeUnder schedules the pending pods under one configuration on a copy
// of the cluster.
func (e *env) placeUnder(c *manifest.Cluster, o *options, config string) (map[string]outcome, spread, int, error) {
	if config == "default" {
		config = ""
	}
	cl, err := manifest.NewCluster(c.Objects, nil, loadOptions(e, o))
	if err != nil {
		return nil, spread{}, 0, &inputError{err}
	}
	s, err := e.newScheduler(cl, o, config)
	if err != nil {
		return nil, spread{}, 0, err
	}
	out := map[string]outcome{}
	unsched := 0
	x := newExplainer(e, &options{}, cl, s)
	err = x.run(context.Background(), cl.Pending, nil, func(r *podRow) error {
		oc := outcome{node: r.res.Node}
		if nr, ok := r.res.Nodes[r.res.Node]; ok && nr.Total != nil {
			oc.total = *nr.Total
		}
		if r.unschedulable {
			unsched++
		}
		out[r.res.Pod] = oc
		return nil
	})
	if err != nil {
		return nil, spread{}, 0, err
	}
	return out, spreadOf(s), unsched, nil
}

func spreadOf(s *scheduler.Scheduler) spread {
	var cpu, mem []float64
	for _, ni := range s.Snapshot().Nodes() {
		if a := ni.Allocatable.MilliCPU; a > 0 {
			cpu = append(cpu, 100*float64(ni.Requested.MilliCPU)/float64(a))
		}
		if a := ni.Allocatable.Memory; a > 0 {
			mem = append(mem, 100*float64(ni.Requested.Memory)/float64(a))
		}
	}
	var sp spread
	sp.CPUMin, sp.CPUMax, sp.CPUStdDev = stats(cpu)
	sp.MemMin, sp.MemMax, sp.MemStdDev = stats(mem)
	return sp
}

func stats(v []float64) (lo, hi, sd float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	lo, hi = v[0], v[0]
	var sum float64
	for _, x := range v {
		lo, hi, sum = math.Min(lo, x), math.Max(hi, x), sum+x
	}
	mean := sum / float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	r := func(f float64) float64 { return math.Round(f*10) / 10 }
	return r(lo), r(hi), r(math.Sqrt(sd / float64(len(v))))
}

func runCompare(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	var a, b string
	switch len(o.configs) {
	case 1:
		a, b = o.configs[0], "default"
	case 2:
		a, b = o.configs[0], o.configs[1]
	default:
		return 0, &usageError{msg: fmt.Sprintf("compare takes one or two --config (got %d)", len(o.configs))}
	}
	// Read both configurations before the manifests: a bad file fails
	// fast.
	for _, cf := range []string{a, b} {
		if cf != "default" {
			if _, err := e.schedulerOptions(&options{ties: "upstream"}, cf); err != nil {
				return 0, err
			}
		}
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	ra, sa, ua, err := e.placeUnder(c, o, a)
	if err != nil {
		return 0, err
	}
	rb, sb, ub, err := e.placeUnder(c, o, b)
	if err != nil {
		return 0, err
	}
	sum := compareSummary{ConfigA: a, ConfigB: b, UnschedulableA: ua, UnschedulableB: ub, SpreadA: sa, SpreadB: sb}
	var pods []comparedPod
	for _, p := range c.Pending {
		name := podName(p)
		pa, pb := ra[name], rb[name]
		cp := comparedPod{Pod: name, NodeA: pa.node, NodeB: pb.node, TotalA: pa.total, TotalB: pb.total, Delta: pb.total - pa.total, Moved: pa.node != pb.node}
		if cp.Moved {
			sum.Moved++
		}
		pods = append(pods, cp)
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range pods {
			if err := d.item(&pods[i]); err != nil {
				return 0, err
			}
		}
		return exitOK, d.finish([]string{"summary"}, sum)
	}
	w := bufio.NewWriter(e.stdout)
	fmt.Fprintf(w, "A: %s\nB: %s\n\n", a, b)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tNODE A\tNODE B\tTOTAL A\tTOTAL B\tDELTA\t")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, p := range pods {
		mark := ""
		if p.Moved {
			mark = "moved"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%+d\t%s\n", p.Pod, dash(p.NodeA), dash(p.NodeB), p.TotalA, p.TotalB, p.Delta, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d pod(s) land differently; unschedulable: %d under A, %d under B\n", sum.Moved, ua, ub)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\tCPU MIN%\tCPU MAX%\tCPU STDDEV\tMEM MIN%\tMEM MAX%\tMEM STDDEV")
	for _, r := range []struct {
		n string
		s spread
	}{{"A", sa}, {"B", sb}} {
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", r.n, r.s.CPUMin, r.s.CPUMax, r.s.CPUStdDev, r.s.MemMin, r.s.MemMax, r.s.MemStdDev)
	}
	tw.Flush()
	return exitOK, w.Flush()
}
