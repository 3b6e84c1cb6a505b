package app

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"text/tabwriter"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/scheduler"
)

func compareCmd() *command {
	return &command{
		name:  "compare",
		short: "the same cluster under two scheduler configurations",
		long: `Schedules the pending pods (queue order, each placement seen by the next)
under configuration A and under configuration B, each on its own copy of the
cluster, and prints the pods that land differently (every pod with --all):
where each lands under A and under B (a node, "NODE (preempting)",
unschedulable or gated), its total score there under each, each total as
a share of that profile's maximum total (weights × 100) and the delta of
the shares, then each configuration's summary line and the spread of
per-node cpu and memory utilisation (requested/allocatable) after
placement.
"--config default" (or a single --config) stands for kube-scheduler's
default profile with every node scored.

With --feature-gates GenericWorkload=true and pending pods of a PodGroup,
each configuration runs the whole queue as simulate does, a gang as one
unit, and a table gives each gang's outcome under A and under B ("gang of
8 fits on nodes ...", "waiting for N more members", "does not fit: ...").
The queue's run keeps no scores: totals and shares are then "-".
`,
		example: `  schedkit compare -f examples/manifests --config examples/manifests/config/most-allocated.yaml
  schedkit compare -f examples/manifests --config default --config examples/manifests/config/most-allocated.yaml --all -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			gatesFlag(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			strictFlag(fs, o)
			tieFlags(fs, o)
			fs.BoolVar(&o.all, "all", false, "list every pending pod, not only those that land differently")
		},
		run: runCompare,
	}
}

// comparedPod is a pod under both configurations: its outcome, node,
// preemption and total under each, each total also as a share (percent)
// of its profile's maximum total, and the delta of the shares.
type comparedPod struct {
	Pod         string            `json:"pod"`
	OutcomeA    scheduler.Outcome `json:"outcomeA"`
	OutcomeB    scheduler.Outcome `json:"outcomeB"`
	NodeA       string            `json:"nodeA"`
	NodeB       string            `json:"nodeB"`
	PreemptionA *preemptionResult `json:"preemptionA,omitempty"`
	PreemptionB *preemptionResult `json:"preemptionB,omitempty"`
	TotalA      int64             `json:"totalA"`
	TotalB      int64             `json:"totalB"`
	ShareA      float64           `json:"shareA"`
	ShareB      float64           `json:"shareB"`
	// Delta is ShareB - ShareA, in percentage points.
	Delta float64 `json:"delta"`
	// Moved: the pod lands differently (another node or outcome).
	Moved bool `json:"moved"`
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

// compareSummary is compare's tail: the pods that land differently and
// each configuration's outcomes and spread, and with GenericWorkload on
// each gang's outcome under both.
type compareSummary struct {
	ConfigA, ConfigB string            `json:"-"`
	Moved            int               `json:"moved"`
	A                scheduler.Summary `json:"summaryA"`
	B                scheduler.Summary `json:"summaryB"`
	SpreadA          spread            `json:"spreadA"`
	SpreadB          spread            `json:"spreadB"`
	Gangs            []comparedGang    `json:"gangs,omitempty"`
}

// comparedGang is one PodGroup's outcome under A and under B.
type comparedGang struct {
	PodGroup string                 `json:"podGroup"`
	A        *scheduler.GangSummary `json:"gangA"`
	B        *scheduler.GangSummary `json:"gangB"`
	Moved    bool                   `json:"moved"`
}

// placement is one configuration's run: each pod's outcome, the spread,
// the summary, and the gangs when the queue ran them as units.
type placement struct {
	pods   map[string]outcome
	spread spread
	sum    scheduler.Summary
	gangs  []scheduler.GangSummary
	queue  bool // the outcomes are the queue's run: no scores
}

// simulateUnder runs the whole queue under s, as simulate does: with
// GenericWorkload on, a gang's pods are scheduled as one unit.
func simulateUnder(ctx context.Context, s *scheduler.Scheduler, pending []*api.Pod) (placement, error) {
	pls, err := s.Simulate(ctx, pending)
	if err != nil {
		return placement{}, err
	}
	out := placement{pods: map[string]outcome{}, gangs: s.Gangs(pls), queue: true}
	for i := range pls {
		pl := &pls[i]
		oc := outcome{outcome: pl.Outcome(), node: pl.Node}
		if n := len(pl.Preemptions); n > 0 && oc.outcome == scheduler.OutcomePreempting {
			last := pl.Preemptions[n-1]
			pre := preemptionResult{Node: last.Node, Victims: []string{}}
			for _, v := range last.Victims {
				pre.Victims = append(pre.Victims, podName(v))
			}
			oc.pre = &pre
		}
		out.sum.Add(oc.outcome, len(pl.Decision.Unverified) > 0)
		out.pods[podName(pl.Pod)] = oc
	}
	out.spread = spreadOf(s)
	return out, nil
}

// hasGangs reports whether any pending pod names a PodGroup.
func hasGangs(pending []*api.Pod) bool {
	for _, p := range pending {
		if _, ok := podgroup.KeyOf(p); ok {
			return true
		}
	}
	return false
}

// compareGangs pairs the gangs of A and B by PodGroup, in A's order then
// B's.
func compareGangs(a, b []scheduler.GangSummary) []comparedGang {
	var out []comparedGang
	idx := map[string]int{}
	for i := range a {
		idx[a[i].PodGroup] = len(out)
		out = append(out, comparedGang{PodGroup: a[i].PodGroup, A: &a[i]})
	}
	for i := range b {
		if j, ok := idx[b[i].PodGroup]; ok {
			out[j].B = &b[i]
			continue
		}
		out = append(out, comparedGang{PodGroup: b[i].PodGroup, B: &b[i]})
	}
	for i := range out {
		g := &out[i]
		g.Moved = g.A == nil || g.B == nil || g.A.Message != g.B.Message
	}
	return out
}

// outcome is a pod's result under one configuration.
type outcome struct {
	outcome scheduler.Outcome
	node    string
	pre     *preemptionResult
	total   int64
	// share is total as a percent of the profile's maximum total (every
	// score plugin's weight times 100).
	share float64
}

// where is the node column of an outcome: the node, "NODE (preempting)",
// or the outcome's word.
func (oc outcome) where() string {
	switch oc.outcome {
	case scheduler.OutcomePlaced:
		return oc.node
	case scheduler.OutcomePreempting:
		return oc.pre.Node + " (preempting)"
	}
	return oc.outcome.String()
}

// placeUnder schedules the pending pods under one configuration on a copy
// of the cluster: pod by pod as explain does, or with GenericWorkload on
// and a gang pending, the whole queue as simulate does.
func (e *env) placeUnder(c *manifest.Cluster, o *options, config string) (placement, error) {
	if config == "default" {
		config = ""
	}
	cl, err := manifest.NewCluster(c.Objects, nil, loadOptions(e, o))
	if err != nil {
		return placement{}, &inputError{err}
	}
	s, err := e.newScheduler(cl, o, config)
	if err != nil {
		return placement{}, err
	}
	if s.FeatureGates().GenericWorkload() && hasGangs(cl.Pending) {
		return simulateUnder(context.Background(), s, cl.Pending)
	}
	var sum scheduler.Summary
	out := map[string]outcome{}
	x := newExplainer(e, &options{}, cl, s)
	err = x.run(context.Background(), cl.Pending, nil, func(r *podRow) error {
		oc := outcome{outcome: r.res.Outcome, node: r.res.Node}
		if oc.outcome == scheduler.OutcomePreempting {
			pre := r.res.Preemption
			oc.pre = &pre
		}
		if nr, ok := r.nodeNamed(r.res.Node); ok && nr.Total != nil {
			oc.total = *nr.Total
			var max int64
			for _, ps := range r.plugins {
				max += ps.Weight * 100
			}
			if max > 0 {
				oc.share = math.Round(1000*float64(oc.total)/float64(max)) / 10
			}
		}
		sum.Add(oc.outcome, len(r.res.Unverified) > 0)
		out[r.res.Pod] = oc
		return nil
	})
	if err != nil {
		return placement{}, err
	}
	return placement{pods: out, spread: spreadOf(s), sum: sum}, nil
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
	runA, err := e.placeUnder(c, o, a)
	if err != nil {
		return 0, err
	}
	runB, err := e.placeUnder(c, o, b)
	if err != nil {
		return 0, err
	}
	ra, sa, ua, rb, sb, ub := runA.pods, runA.spread, runA.sum, runB.pods, runB.spread, runB.sum
	sum := compareSummary{ConfigA: a, ConfigB: b, A: ua, B: ub, SpreadA: sa, SpreadB: sb}
	if runA.gangs != nil || runB.gangs != nil {
		sum.Gangs = compareGangs(runA.gangs, runB.gangs)
	}
	var pods []comparedPod
	for _, p := range c.Pending {
		name := podName(p)
		pa, pb := ra[name], rb[name]
		cp := comparedPod{Pod: name, OutcomeA: pa.outcome, OutcomeB: pb.outcome, NodeA: pa.node, NodeB: pb.node,
			PreemptionA: pa.pre, PreemptionB: pb.pre, TotalA: pa.total, TotalB: pb.total,
			ShareA: pa.share, ShareB: pb.share, Delta: math.Round(10*(pb.share-pa.share)) / 10,
			Moved: pa.where() != pb.where()}
		if cp.Moved {
			sum.Moved++
		}
		if cp.Moved || o.all {
			pods = append(pods, cp)
		}
	}
	code := exitOK
	if ua.Failed()+ub.Failed() > 0 || (o.strict && ua.Unverified+ub.Unverified > 0) {
		code = exitUnschedulable
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range pods {
			if err := d.item(&pods[i]); err != nil {
				return 0, err
			}
		}
		return code, d.finish([]string{"summary"}, sum)
	}
	w := bufio.NewWriter(e.stdout)
	fmt.Fprintf(w, "A: %s\nB: %s\n\n", a, b)
	if len(pods) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "POD\tA\tB\tTOTAL A\tTOTAL B\tSHARE A\tSHARE B\tDELTA\tCHANGE")
		for _, p := range pods {
			pa, pb := ra[p.Pod], rb[p.Pod]
			change := "same"
			if p.Moved {
				change = "moved"
			}
			// A total is a placed pod's: "-" for the others.
			total := func(oc outcome) (string, string) {
				if oc.outcome != scheduler.OutcomePlaced || runA.queue {
					return "-", "-"
				}
				return fmt.Sprint(oc.total), fmt.Sprintf("%.1f%%", oc.share)
			}
			ta, sa := total(pa)
			tb, sb := total(pb)
			delta := "-"
			if ta != "-" && tb != "-" {
				delta = fmt.Sprintf("%+.1f", p.Delta)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Pod, pa.where(), pb.where(), ta, tb, sa, sb, delta, change)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	if len(sum.Gangs) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "POD GROUP\tCONFIG\tGANG")
		for _, g := range sum.Gangs {
			msg := func(gs *scheduler.GangSummary) string {
				if gs == nil {
					return "-"
				}
				return gs.Message
			}
			change := ""
			if g.Moved {
				change = " (differs)"
			}
			fmt.Fprintf(tw, "%s\tA\t%s\n\tB\t%s%s\n", g.PodGroup, msg(g.A), msg(g.B), change)
		}
		tw.Flush()
		fmt.Fprintln(w, "with GenericWorkload on, each configuration ran the whole queue as simulate does, a gang as one unit: no totals")
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d pod(s) land differently", sum.Moved)
	if !o.all {
		fmt.Fprintf(w, " (--all lists every pod)")
	}
	fmt.Fprintf(w, "\nA: %s\nB: %s\n", ua, ub)
	fmt.Fprintln(w, "SHARE is a total as a percent of its profile's maximum total (each score plugin's weight × 100); DELTA is SHARE B - SHARE A")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONFIG\tCPU MIN%\tCPU MAX%\tCPU STDDEV\tMEM MIN%\tMEM MAX%\tMEM STDDEV")
	for _, r := range []struct {
		n string
		s spread
	}{{"A", sa}, {"B", sb}} {
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", r.n, r.s.CPUMin, r.s.CPUMax, r.s.CPUStdDev, r.s.MemMin, r.s.MemMax, r.s.MemStdDev)
	}
	tw.Flush()
	return code, w.Flush()
}
