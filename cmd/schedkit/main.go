// Command schedkit schedules the pending pods of a cluster described by
// Kubernetes manifests and explains each decision, with kube-scheduler's
// default profile.
//
// Usage:
//
//	schedkit simulate -f cluster.yaml [-f more.yaml] [-percentage 0] [-ties upstream|random] [-seed 1] [-explain] [-json]
//
// Nodes and the pods bound to them (spec.nodeName set) form the cluster;
// pods without spec.nodeName are admitted as the API server would
// (defaulting, LimitRanges, priority classes, default tolerations,
// ResourceQuotas with the usage of the stored pods, services and claims)
// and scheduled in queue order (priority, then arrival), each placement
// seen by the next decision; a pod admission rejects is reported as
// rejected at admission and not scheduled.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "schedkit:", err)
		os.Exit(1)
	}
}

const usage = `usage: schedkit simulate -f FILE [-f FILE ...] [-percentage P] [-ties upstream|random] [-seed N] [-explain] [-json]

Schedules the pending pods of the manifests (YAML or JSON; "-" is stdin)
with kube-scheduler v1.37's default profile and prints where each landed
and why.`

type fileList []string

func (f *fileList) String() string     { return strings.Join(*f, ",") }
func (f *fileList) Set(s string) error { *f = append(*f, s); return nil }

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "simulate" {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var files fileList
	fs.Var(&files, "f", "manifest file (repeatable; - for stdin)")
	ties := fs.String("ties", "upstream", "how ties between equally scored nodes are broken: upstream (kube-scheduler v1.37's deterministic order) or random (seeded)")
	seed := fs.Uint64("seed", 1, "seed for -ties random")
	pct := fs.Int("percentage", 0, "percentageOfNodesToScore (0 = kube-scheduler's adaptive default, 100 = all nodes)")
	explain := fs.Bool("explain", false, "print every plugin's score of the best nodes for each placement")
	asJSON := fs.Bool("json", false, "print placements as JSON")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%v\n%s", err, usage)
	}
	if len(files) == 0 {
		return errors.New("simulate: no manifests given (-f)\n" + usage)
	}
	if *pct < 0 || *pct > 100 {
		return fmt.Errorf("simulate: -percentage %d: must be between 0 and 100", *pct)
	}
	var tb scheduler.TieBreak
	switch *ties {
	case "upstream":
		tb = scheduler.TieBreakUpstream
	case "random":
		tb = scheduler.TieBreakRandom
	default:
		return fmt.Errorf("simulate: -ties %q: want upstream or random", *ties)
	}
	objs, err := readManifests(files, stdin)
	if err != nil {
		return err
	}
	return simulate(objs, tb, *seed, int32(*pct), *explain, *asJSON, stdout)
}

func simulate(objs *objects, tb scheduler.TieBreak, seed uint64, pct int32, explain, asJSON bool, out io.Writer) error {
	var bound, pending []*api.Pod
	// The stored objects are what the namespaces' quotas count (their
	// status, when a quota has none, is computed from them).
	now := time.Now()
	existing := admission.NamespaceObjects{Services: objs.Services, Claims: objs.Claims, Now: now}
	var created []*api.Pod
	for _, p := range objs.Pods {
		if p.Spec.NodeName != "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			existing.Pods = append(existing.Pods, p)
		}
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		if p.Spec.NodeName != "" {
			a, err := admission.AdmitStored(p, admission.Objects{PriorityClasses: objs.PriorityClasses})
			if err != nil {
				return err
			}
			bound = append(bound, a)
			continue
		}
		created = append(created, p)
	}
	// Pending pods are created in manifest order through the API
	// server's admission chain; one that LimitRanger, Priority or its
	// namespace's quotas reject is reported as rejected at admission.
	chain := admission.NewChain(admission.Objects{PriorityClasses: objs.PriorityClasses, LimitRanges: objs.LimitRanges,
		ResourceQuotas: admission.FillQuotaStatus(objs.ResourceQuotas, existing)}, now)
	var rejected []scheduler.Placement
	for _, p := range created {
		a, err := chain.AdmitPod(p)
		if err != nil {
			rejected = append(rejected, scheduler.Placement{Pod: p, Err: &rejectedError{err}})
			continue
		}
		pending = append(pending, a)
	}
	snap, err := cluster.NewSnapshot(objs.Nodes, bound)
	if err != nil {
		return err
	}
	opts := []scheduler.Option{scheduler.WithTieBreak(tb), scheduler.WithSeed(seed), scheduler.WithPercentageOfNodesToScore(pct), scheduler.WithDiagnosis(explain || asJSON)}
	s, err := scheduler.New(snap, opts...)
	if err != nil {
		return err
	}
	placements, err := s.Simulate(context.Background(), pending)
	if err != nil {
		return err
	}
	placements = append(placements, rejected...)
	if asJSON {
		return writeJSON(out, placements)
	}
	fmt.Fprintf(out, "cluster: %d nodes, %d bound pods; scheduling %d pending pods\n", len(objs.Nodes), len(bound), len(pending))
	if tb == scheduler.TieBreakRandom {
		fmt.Fprintf(out, "ties broken at random, seed %d\n", seed)
	}
	if len(objs.Skipped) > 0 {
		var kinds []string
		for k, n := range objs.Skipped {
			kinds = append(kinds, fmt.Sprintf("%s×%d", k, n))
		}
		sort.Strings(kinds)
		fmt.Fprintf(out, "ignored kinds: %s\n", strings.Join(kinds, ", "))
	}
	if len(placements) > 0 {
		if nn := placements[0].Result.NotEvaluated; len(nn) > 0 {
			fmt.Fprintf(out, "plugins of the default profile not in this build (not evaluated): %s\n", strings.Join(nn, ", "))
		}
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tPRIORITY\tNODE\tFEASIBLE\tREASON")
	for _, pl := range placements {
		node, reason := pl.Node, ""
		feasible, evaluated := pl.Result.FeasibleNodes, pl.Result.EvaluatedNodes
		if node == "" {
			node = "-"
			if pl.Err != nil {
				reason = pl.Err.Error()
			}
			var fit *scheduler.FitError
			if errors.As(pl.Err, &fit) {
				feasible, evaluated = 0, fit.NumAllNodes
			}
			var rej *rejectedError
			if errors.As(pl.Err, &rej) {
				feasible, evaluated = 0, 0
			}
		}
		fmt.Fprintf(tw, "%s/%s\t%d\t%s\t%d/%d\t%s\n", pl.Pod.Namespace, pl.Pod.Name, priority(pl.Pod), node, feasible, evaluated, reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if explain {
		for _, pl := range placements {
			if pl.Node == "" || len(pl.Result.Scores) == 0 {
				continue
			}
			fmt.Fprintf(out, "\n%s/%s → %s\n", pl.Pod.Namespace, pl.Pod.Name, pl.Node)
			explainScores(out, pl.Result)
		}
	}
	return nil
}

// rejectedError marks a pending pod the API server's admission rejected:
// it never reaches the scheduler.
type rejectedError struct{ err error }

func (e *rejectedError) Error() string { return "rejected at admission: " + e.err.Error() }
func (e *rejectedError) Unwrap() error { return e.err }

func priority(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// explainScores prints the weighted score of each plugin for the best
// nodes, highest total first.
func explainScores(out io.Writer, r scheduler.Result) {
	scores := append(r.Scores[:0:0], r.Scores...)
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].TotalScore > scores[j].TotalScore })
	if len(scores) > 5 {
		scores = scores[:5]
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	header := []string{"  NODE", "TOTAL"}
	for _, ps := range scores[0].Scores {
		header = append(header, ps.Name)
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, ns := range scores {
		row := []string{"  " + ns.Name, fmt.Sprint(ns.TotalScore)}
		for _, ps := range ns.Scores {
			row = append(row, fmt.Sprint(ps.Score))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

type jsonPlacement struct {
	Pod          string   `json:"pod"`
	Node         string   `json:"node,omitempty"`
	Error        string   `json:"error,omitempty"`
	Feasible     int      `json:"feasibleNodes"`
	Evaluated    int      `json:"evaluatedNodes"`
	NotEvaluated []string `json:"notEvaluatedPlugins,omitempty"`
	Rejected     bool     `json:"rejectedAtAdmission,omitempty"`
	Scores       any      `json:"scores,omitempty"`
}

func writeJSON(out io.Writer, placements []scheduler.Placement) error {
	res := make([]jsonPlacement, 0, len(placements))
	for _, pl := range placements {
		jp := jsonPlacement{Pod: pl.Pod.Namespace + "/" + pl.Pod.Name, Node: pl.Node, Feasible: pl.Result.FeasibleNodes,
			Evaluated: pl.Result.EvaluatedNodes, NotEvaluated: pl.Result.NotEvaluated}
		if pl.Err != nil {
			jp.Error = pl.Err.Error()
			var rej *rejectedError
			jp.Rejected = errors.As(pl.Err, &rej)
		}
		if len(pl.Result.Scores) > 0 {
			jp.Scores = pl.Result.Scores
		}
		res = append(res, jp)
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
