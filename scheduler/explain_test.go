package scheduler

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/schedulinggates"
	"github.com/schedkit/schedkit/quantity"
)

// Explain decides what Schedule decides, with every node and plugin,
// and leaves the scheduler as Schedule does; a gated pod's Explain
// changes nothing. Every node of the snapshot is in the report once;
// the evaluated ones are the cycle's; every feasible node has each active
// score plugin's scores, summing to its total; the tied set holds the
// pick and only nodes at the best total; a gated pod is explained as if
// admitted.
func TestPropertyExplainMatchesSchedule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		numNodes := rapid.IntRange(1, 300).Draw(rt, "nodes")
		names := make([]string, numNodes)
		codes := map[string]framework.Code{}
		scores := map[string]int64{}
		for i := range names {
			names[i] = fmt.Sprintf("n%03d", i)
			codes[names[i]] = rapid.SampledFrom([]framework.Code{framework.Success, framework.Success, framework.Unschedulable, framework.UnschedulableAndUnresolvable}).Draw(rt, "code")
			scores[names[i]] = int64(rapid.IntRange(0, 3).Draw(rt, "score"))
		}
		plugins := []weighted{w(tableFilter{code: codes}), {maxTableScore{tableScore{"A", scores}}, 2}, w(tableScore{"B", map[string]int64{}}), w(schedulinggates.SchedulingGates{})}
		if rapid.Bool().Draw(rt, "withRange") {
			plugins = append(plugins, weighted{rangeScore{skip: rapid.Bool().Draw(rt, "skip"), scores: scores}, 3})
		}
		percentage := rapid.SampledFrom([]int32{0, 10, 50, 100}).Draw(rt, "percentage")
		tieBreak := rapid.SampledFrom([]TieBreak{TieBreakUpstream, TieBreakRandom}).Draw(rt, "tieBreak")
		mk := func() *Scheduler {
			return testScheduler(rt, makeNodes(names...), nil, plugins, WithPercentageOfNodesToScore(percentage), WithTieBreak(tieBreak), WithSeed(7))
		}
		explained, plain := mk(), mk()
		defer explained.Close()
		defer plain.Close()
		ctx := context.Background()
		for c := range rapid.IntRange(1, 3).Draw(rt, "cycles") {
			pod := makePod(fmt.Sprint("p", c))
			gated := rapid.Bool().Draw(rt, "gated")
			asked := pod
			if gated {
				asked = makePod(pod.Name)
				asked.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "g"}}
			}
			ex, err := explained.Explain(ctx, asked)
			if err != nil {
				rt.Fatal(err)
			}
			if gated != (ex.PreEnqueue != nil) {
				rt.Fatalf("gated %v, PreEnqueue %v", gated, ex.PreEnqueue)
			}
			// Explain is the cycle Schedule runs; a gated pod's Explain
			// changes nothing, and the Schedule after it decides the same.
			got, gotErr := ex.Decision, ex.Err
			if gated {
				got, gotErr = explained.Schedule(ctx, pod)
			}
			want, wantErr := plain.Schedule(ctx, pod)
			if got.Node != want.Node || errString(gotErr) != errString(wantErr) || explained.nextStartNodeIndex != plain.nextStartNodeIndex || *explained.pcg != *plain.pcg {
				rt.Fatalf("Explain: %q %v, Schedule: %q %v", got.Node, gotErr, want.Node, wantErr)
			}
			if ex.Node != got.Node || errString(ex.Err) != errString(gotErr) {
				rt.Fatalf("Explain picks %q (%v), Schedule %q (%v)", ex.Node, ex.Err, got.Node, gotErr)
			}
			if ex.EvaluatedNodes != got.EvaluatedNodes || ex.FeasibleNodes != got.FeasibleNodes {
				rt.Fatalf("Explain counts %d/%d, Schedule %d/%d", ex.EvaluatedNodes, ex.FeasibleNodes, got.EvaluatedNodes, got.FeasibleNodes)
			}
			if len(ex.Nodes) != numNodes {
				rt.Fatalf("%d nodes explained, want %d", len(ex.Nodes), numNodes)
			}
			seen := map[string]bool{}
			evaluated, feasible := 0, 0
			var best int64 = -1
			for _, n := range ex.Nodes {
				if seen[n.Name] {
					rt.Fatalf("node %s twice", n.Name)
				}
				seen[n.Name] = true
				if (n.Status == nil) != (codes[n.Name] == framework.Success) {
					rt.Fatalf("node %s: status %v for code %v", n.Name, n.Status, codes[n.Name])
				}
				if n.Status != nil && n.Status.Plugin() != "TableFilter" {
					rt.Fatalf("node %s: plugin %q", n.Name, n.Status.Plugin())
				}
				if n.Evaluated {
					evaluated++
				}
				if !n.Feasible {
					if len(n.Scores) != 0 {
						rt.Fatalf("infeasible node %s has scores", n.Name)
					}
					continue
				}
				feasible++
				var total int64
				for _, sc := range n.Scores {
					if sc.Weighted != sc.Normalized*sc.Weight || sc.Normalized < 0 || sc.Normalized > 100 {
						rt.Fatalf("node %s: %+v", n.Name, sc)
					}
					total += sc.Weighted
				}
				if total != n.Total || len(n.Scores) < 2 {
					rt.Fatalf("node %s: total %d, scores %+v", n.Name, n.Total, n.Scores)
				}
				best = max(best, n.Total)
			}
			var fe *FitError
			if errors.As(gotErr, &fe) {
				if feasible != 0 || ex.Node != "" {
					rt.Fatalf("no node fits, but %d feasible, pick %q", feasible, ex.Node)
				}
				continue
			}
			if feasible != got.FeasibleNodes || evaluated != got.EvaluatedNodes {
				rt.Fatalf("explained %d feasible, %d evaluated; Schedule %d, %d", feasible, evaluated, got.FeasibleNodes, got.EvaluatedNodes)
			}
			if ex.ScoredForReport != (feasible == 1) {
				rt.Fatalf("ScoredForReport %v with %d feasible", ex.ScoredForReport, feasible)
			}
			inTied := false
			for _, name := range ex.Tied {
				inTied = inTied || name == ex.Node
				for _, n := range ex.Nodes {
					if n.Name == name && n.Total != best {
						rt.Fatalf("tied node %s has %d, best %d", name, n.Total, best)
					}
				}
			}
			if !inTied {
				rt.Fatalf("pick %s not in tied %v", ex.Node, ex.Tied)
			}
			if err := explained.Assume(pod, got.Node); err != nil {
				rt.Fatal(err)
			}
			if err := plain.Assume(pod, want.Node); err != nil {
				rt.Fatal(err)
			}
		}
	})
}

// Explain reports PreFilter's node restriction: NodeAffinity's PreFilter
// narrows a pod that names its node by metadata.name to that node, and
// the others carry the absent-nodes status.
func TestExplainPreFilterRestriction(t *testing.T) {
	nodes := makeNodes("n1", "n2", "n3")
	for _, n := range nodes {
		n.Status.Allocatable = api.ResourceList{api.ResourcePods: quantity.MustParse("10")}
	}
	s := testScheduler(t, nodes, nil, nil, WithProfiles(framework.ProfileConfig{}))
	defer s.Close()
	pod := makePod("p")
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n2"}}}}}}}}
	ex, err := s.Explain(context.Background(), pod)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ex.PreFilterNodes, ex.PreFilterPlugins) != "[n2] [NodeAffinity]" {
		t.Fatalf("PreFilter nodes %v plugins %v", ex.PreFilterNodes, ex.PreFilterPlugins)
	}
	for _, n := range ex.Nodes {
		switch n.Name {
		case "n2":
			if !n.Evaluated || !n.Feasible || n.Status != nil {
				t.Errorf("n2: %+v", n)
			}
		default:
			if n.Evaluated || n.Status.Message() != "node(s) didn't satisfy plugin(s) [NodeAffinity]" {
				t.Errorf("%s: evaluated %v, status %q", n.Name, n.Evaluated, n.Status.Message())
			}
		}
	}
	if ex.Node != "n2" || !ex.ScoredForReport {
		t.Errorf("pick %q, scored for report %v", ex.Node, ex.ScoredForReport)
	}
}

// Issue 24 point 12: Explain returns the context's error when it is
// cancelled, before or during the cycle, and no Explanation.
func TestExplainCancelled(t *testing.T) {
	s := testScheduler(t, makeNodes("a", "b"), nil, []weighted{w(&trueFilter{})})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ex, err := s.Explain(ctx, makePod("p"))
	if !errors.Is(err, context.Canceled) || ex != nil {
		t.Errorf("Explain after cancel = %+v, %v; want nil, context.Canceled", ex, err)
	}
	if _, err := s.Schedule(ctx, makePod("p")); !errors.Is(err, context.Canceled) {
		t.Errorf("Schedule after cancel: %v", err)
	}

	// Cancelled while the cycle filters.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	s = testScheduler(t, makeNodes("a", "b", "c"), nil, []weighted{w(cancelFilter{cancel})})
	ex, err = s.Explain(ctx, makePod("q"))
	if !errors.Is(err, context.Canceled) || ex != nil {
		t.Errorf("Explain cancelled mid-cycle = %+v, %v; want nil, context.Canceled", ex, err)
	}
}

// cancelFilter cancels the cycle's context from its first Filter call.
type cancelFilter struct{ cancel context.CancelFunc }

func (cancelFilter) Name() string { return "CancelFilter" }
func (f cancelFilter) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	f.cancel()
	return nil
}
