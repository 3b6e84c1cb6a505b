package scheduler

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

func podNames(pods []*api.Pod) string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return strings.Join(out, ",")
}

func taintedCPUNode(name, cpu string) *api.Node {
	n := cpuNode(name, cpu)
	n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
	return n
}

// terminating marks a pod as being deleted by the scheduler's preemption.
func terminating(p *api.Pod) *api.Pod {
	t := api.NewTime(time.Unix(100, 0))
	p.DeletionTimestamp = &t
	p.Status.Conditions = []api.PodCondition{{Type: "DisruptionTarget", Status: api.ConditionTrue, Reason: "PreemptionByScheduler"}}
	return p
}

// verdicts formats each node's preemption verdict as "node=Verdict[victims]".
func verdicts(ex *Explanation) string {
	var out []string
	for _, n := range ex.Nodes {
		if n.Preemption == nil {
			out = append(out, n.Name+"=nil")
			continue
		}
		s := n.Name + "=" + n.Preemption.Verdict.String()
		if len(n.Preemption.Victims) > 0 {
			s += "[" + podNames(n.Preemption.Victims) + "]"
		}
		if n.Preemption.Chosen {
			s += "*"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// Explain runs DefaultPreemption as a dry run for a pod that fits no
// node: the outcome is what Schedule's PostFilter returns, the message
// the FitError's, and each node carries its verdict. The scheduler is
// left as it was: a Schedule after Explain decides what it would have.
func TestExplainPreemption(t *testing.T) {
	never := api.PreemptNever
	one, zero := int32(1), int32(0)
	tests := []struct {
		name     string
		nodes    []*api.Node
		pods     []*api.Pod
		pod      func() *api.Pod
		args     *config.DefaultPreemptionArgs
		node     string // nominated
		victims  string
		msg      string // the FitError's message
		verdicts string // by node, in the Explanation's order
	}{
		{
			// upstream: TestPostFilter "pod with higher priority can be made schedulable"
			name:     "higher priority preempts",
			nodes:    []*api.Node{cpuNode("n1", "1")},
			pods:     []*api.Pod{boundPrioPod("p1", 0, "1", "n1", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 100, "1", "", 0) },
			node:     "n1",
			victims:  "p1",
			msg:      "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting 1 victims",
			verdicts: "n1=Candidate[p1]*",
		},
		{
			// upstream: TestPostFilter "pod with tied priority is still unschedulable"
			name:     "tied priority",
			nodes:    []*api.Node{cpuNode("n1", "1")},
			pods:     []*api.Pod{boundPrioPod("p1", 5, "1", "n1", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 5, "1", "", 0) },
			msg:      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
			verdicts: "n1=CannotHelp",
		},
		{
			// upstream: TestPostFilter "pod can be made schedulable on one node"
			// (statuses from the filters instead of given ones)
			name:     "one node can help",
			nodes:    []*api.Node{cpuNode("n1", "1"), cpuNode("n2", "1")},
			pods:     []*api.Pod{boundPrioPod("p1", 1000, "1", "n1", 1), boundPrioPod("p2", 0, "1", "n2", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 100, "1", "", 0) },
			node:     "n2",
			victims:  "p2",
			msg:      "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node n2, preempting 1 victims",
			verdicts: "n1=CannotHelp n2=Candidate[p2]*",
		},
		{
			// upstream: TestPostFilter "no candidate nodes found with mixed reason,
			// 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource"
			name:  "unresolvable nodes are not tried",
			nodes: []*api.Node{cpuNode("n1", "2"), cpuNode("n2", "2"), taintedCPUNode("n3", "8"), taintedCPUNode("n4", "8")},
			pods: []*api.Pod{boundPrioPod("p1", 0, "1", "n1", 1), boundPrioPod("h1", 1000, "1", "n1", 1),
				boundPrioPod("p2", 0, "1", "n2", 1), boundPrioPod("h2", 1000, "1", "n2", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 100, "2", "", 0) },
			msg:      "0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s). preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.",
			verdicts: "n1=CannotHelp n2=CannotHelp n3=Unresolvable n4=Unresolvable",
		},
		{
			// upstream: TestPodEligibleToPreemptOthers "Pod with 'PreemptNever'
			// preemption policy": not eligible, every node says so
			name:  "preemptionPolicy Never",
			nodes: []*api.Node{cpuNode("n1", "1"), cpuNode("n2", "1")},
			pods:  []*api.Pod{boundPrioPod("p1", 0, "1", "n1", 1), boundPrioPod("p2", 0, "1", "n2", 1)},
			pod: func() *api.Pod {
				p := boundPrioPod("p", 100, "1", "", 0)
				p.Spec.PreemptionPolicy = &never
				return p
			},
			msg:      "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.",
			verdicts: "n1=NotEligible n2=NotEligible",
		},
		{
			// upstream: TestPodEligibleToPreemptOthers "preemption victim pod
			// terminating, as indicated by the dedicated DisruptionTarget
			// condition": the pod waits for its victim to go.
			name:  "terminating victim on the nominated node",
			nodes: []*api.Node{cpuNode("n1", "1"), cpuNode("n2", "1")},
			pods:  []*api.Pod{terminating(boundPrioPod("p1", 0, "1", "n1", 1)), boundPrioPod("p2", 0, "1", "n2", 1)},
			pod: func() *api.Pod {
				p := boundPrioPod("p", 100, "1", "", 0)
				p.Status.NominatedNodeName = "n1"
				return p
			},
			msg:      "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.",
			verdicts: "n1=NotEligible n2=NotEligible",
		},
		{
			// The candidate count: with minCandidateNodesAbsolute 1 the dry
			// run stops at the first node that can help, from the offset
			// drawn from the seed (n3 here); the others are not tried.
			name:     "enough candidates",
			nodes:    []*api.Node{cpuNode("n1", "1"), cpuNode("n2", "1"), cpuNode("n3", "1")},
			pods:     []*api.Pod{boundPrioPod("p1", 0, "1", "n1", 1), boundPrioPod("p2", 0, "1", "n2", 1), boundPrioPod("p3", 0, "1", "n3", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 100, "1", "", 0) },
			args:     &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &zero, MinCandidateNodesAbsolute: &one},
			node:     "n3",
			victims:  "p3",
			msg:      "0/3 nodes are available: 3 Insufficient cpu. preemption: found a potential placement for pod on node n3, preempting 1 victims",
			verdicts: "n1=NotTried n2=NotTried n3=Candidate[p3]*",
		},
		{
			// Victims in upstream's order and reprieves: of four priority-0
			// pods the two started first are kept. n2 is smaller than the
			// request: NodeResourcesFit finds it UnschedulableAndUnresolvable.
			name:     "reprieve",
			nodes:    []*api.Node{cpuNode("n1", "4"), cpuNode("n2", "1")},
			pods:     []*api.Pod{boundPrioPod("a", 0, "1", "n1", 4), boundPrioPod("b", 0, "1", "n1", 3), boundPrioPod("c", 0, "1", "n1", 2), boundPrioPod("d", 0, "1", "n1", 1)},
			pod:      func() *api.Pod { return boundPrioPod("p", 100, "2", "", 0) },
			node:     "n1",
			victims:  "b,a",
			msg:      "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting 2 victims",
			verdicts: "n1=Candidate[b,a]* n2=Unresolvable",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mk := func() *Scheduler {
				snap, err := cluster.NewSnapshot(tc.nodes, tc.pods)
				if err != nil {
					t.Fatal(err)
				}
				var opts []Option
				if tc.args != nil {
					opts = append(opts, WithProfiles(framework.ProfileConfig{PluginArgs: map[string]any{config.DefaultPreemptionName: tc.args}}))
				}
				s, err := New(snap, append(opts, WithSeed(3))...)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(s.Close)
				return s
			}
			s, plain := mk(), mk()
			ctx := context.Background()
			ex, err := s.Explain(ctx, tc.pod())
			if err != nil {
				t.Fatal(err)
			}
			pe := ex.Preemption
			if pe == nil || !pe.DryRun {
				t.Fatalf("Preemption = %+v", pe)
			}
			if pe.NominatedNode != tc.node || podNames(pe.Victims) != tc.victims {
				t.Errorf("nominated %q victims %q, want %q %q", pe.NominatedNode, podNames(pe.Victims), tc.node, tc.victims)
			}
			if got := errString(ex.Err); got != tc.msg {
				t.Errorf("message\n got %s\nwant %s", got, tc.msg)
			}
			if got := verdicts(ex); got != tc.verdicts {
				t.Errorf("verdicts %s, want %s", got, tc.verdicts)
			}
			// Explain's Decision is Schedule's.
			if ex.NominatedNode != tc.node {
				t.Errorf("Explain's decision nominates %q, want %q", ex.NominatedNode, tc.node)
			}
			for i, sch := range []*Scheduler{plain} {
				res, err := sch.Schedule(ctx, tc.pod())
				if errString(err) != tc.msg || res.NominatedNode != tc.node {
					t.Errorf("Schedule %d: %q %v", i, res.NominatedNode, err)
				}
				if r := res.PostFilterResult; r != nil && podNames(r.Victims) != tc.victims {
					t.Errorf("Schedule %d: victims %s", i, podNames(r.Victims))
				}
			}
		})
	}
}

// An Unschedulable PostFilter status names the plugin, as Schedule's:
// the first PostFilter plugin that rejected, DynamicResources in the
// default profile, as upstream's RunPostFilterPlugins names it.
func TestExplainPreemptionStatusPlugin(t *testing.T) {
	snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("n1", "1")}, []*api.Pod{boundPrioPod("p1", 5, "1", "n1", 1)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ex, err := s.Explain(context.Background(), boundPrioPod("p", 5, "1", "", 0))
	if err != nil {
		t.Fatal(err)
	}
	st := ex.Preemption.Status
	if st.Code() != framework.Unschedulable || st.Plugin() != config.DynamicResourcesName {
		t.Errorf("status %v %q", st.Code(), st.Plugin())
	}
	if r := ex.Preemption.Result; r == nil || r.NominatedNodeName != "" {
		t.Errorf("result %+v: want an empty nomination (cleared)", r)
	}
	if np := ex.Nodes[0].Preemption; np.Status.Message() != "No preemption victims found for incoming pod" {
		t.Errorf("node status %v", np.Status)
	}
}

// A pod that fits, or a profile without PostFilter, has no preemption.
func TestExplainNoPreemption(t *testing.T) {
	snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("n1", "2")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ex, err := s.Explain(context.Background(), boundPrioPod("p", 5, "1", "", 0))
	if err != nil || ex.Preemption != nil || ex.Nodes[0].Preemption != nil {
		t.Fatalf("%v %+v", err, ex.Preemption)
	}
}

// Property: on random clusters of priority pods, with pending pods
// nominated to nodes and PodDisruptionBudgets, Explain's preemption
// outcome is what Schedule's PostFilter returns (node, victims, message),
// the chosen node's per-node victims are the outcome's, exactly one node
// is chosen when one is nominated, every per-node victim has a lower
// priority than the preemptor, and Explain's Decision is Schedule's:
// Explain decides what Schedule does and leaves the scheduler where
// Schedule leaves it.
func TestPropertyExplainPreemptionMatchesSchedule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		numNodes := rapid.IntRange(1, 8).Draw(rt, "nodes")
		var nodes []*api.Node
		var pods []*api.Pod
		for i := range numNodes {
			name := fmt.Sprintf("n%d", i)
			cpu := rapid.IntRange(1, 4).Draw(rt, "cpu")
			if rapid.IntRange(0, 5).Draw(rt, "tainted") == 0 {
				nodes = append(nodes, taintedCPUNode(name, fmt.Sprint(cpu)))
			} else {
				nodes = append(nodes, cpuNode(name, fmt.Sprint(cpu)))
			}
			for j := range rapid.IntRange(0, cpu).Draw(rt, "pods") {
				prio := int32(rapid.SampledFrom([]int{0, 10, 100, 1000}).Draw(rt, "prio"))
				pods = append(pods, boundPrioPod(fmt.Sprintf("%s-%d", name, j), prio, "1", name, int64(rapid.IntRange(0, 3).Draw(rt, "start"))))
			}
		}
		// Pending pods nominated to nodes, and PodDisruptionBudgets.
		var nominated []*api.Pod
		for k := range rapid.IntRange(0, 2).Draw(rt, "nominated") {
			q := boundPrioPod(fmt.Sprintf("nom-%d", k), int32(rapid.SampledFrom([]int{0, 100, 1000}).Draw(rt, "nomPrio")), "1", "", 0)
			q.Status.NominatedNodeName = fmt.Sprintf("n%d", rapid.IntRange(0, numNodes-1).Draw(rt, "nomNode"))
			nominated = append(nominated, q)
		}
		var pdbs []*api.PodDisruptionBudget
		for k := range rapid.IntRange(0, 2).Draw(rt, "pdbs") {
			b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("pdb-", k), Namespace: "default"}}
			b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"a", "b"}).Draw(rt, "pdbApp")}}
			b.Status.DisruptionsAllowed = int32(rapid.IntRange(0, 1).Draw(rt, "allowed"))
			pdbs = append(pdbs, b)
		}
		for _, p := range pods {
			p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"a", "b"}).Draw(rt, "app")}
		}
		abs := int32(rapid.IntRange(1, 3).Draw(rt, "abs"))
		pct := int32(0)
		cfg := framework.ProfileConfig{PluginArgs: map[string]any{config.DefaultPreemptionName: &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &pct, MinCandidateNodesAbsolute: &abs}}}
		seed := rapid.Uint64().Draw(rt, "seed")
		mk := func() *Scheduler {
			snap, err := cluster.NewSnapshot(nodes, pods)
			if err != nil {
				rt.Fatal(err)
			}
			for _, b := range pdbs {
				if err := snap.AddObject(b); err != nil {
					rt.Fatal(err)
				}
			}
			s, err := New(snap, WithSeed(seed), WithProfiles(cfg))
			if err != nil {
				rt.Fatal(err)
			}
			if err := s.Enqueue(context.Background(), nominated...); err != nil {
				rt.Fatal(err)
			}
			return s
		}
		a, b := mk(), mk()
		defer a.Close()
		defer b.Close()
		ctx := context.Background()
		for k := range rapid.IntRange(1, 3).Draw(rt, "cycles") {
			prio := int32(rapid.SampledFrom([]int{0, 10, 100, 1000}).Draw(rt, "preemptorPrio"))
			pod := boundPrioPod(fmt.Sprint("p", k), prio, fmt.Sprint(rapid.IntRange(1, 3).Draw(rt, "req")), "", 0)
			ex, err := a.Explain(ctx, pod)
			if err != nil {
				rt.Fatal(err)
			}
			want, wantErr := b.Schedule(ctx, pod)
			if errString(ex.Err) != errString(wantErr) {
				rt.Fatalf("errors: explain %v, schedule %v", ex.Err, wantErr)
			}
			if !reflect.DeepEqual(ex.Decision, want) {
				rt.Fatalf("decisions: explain %+v, schedule %+v", ex.Decision, want)
			}
			if a.nextStartNodeIndex != b.nextStartNodeIndex || *a.pcg != *b.pcg {
				rt.Fatalf("scheduler state differs after Explain and Schedule")
			}
			var fe *FitError
			if !errors.As(wantErr, &fe) {
				if ex.Preemption != nil {
					rt.Fatalf("preemption %+v for a pod that fits", ex.Preemption)
				}
				for _, s := range []*Scheduler{a, b} {
					if err := s.Assume(pod, want.Node); err != nil {
						rt.Fatal(err)
					}
				}
				continue
			}
			pe := ex.Preemption
			r := want.PostFilterResult
			if (r == nil) != (pe.Result == nil) || pe.NominatedNode != want.NominatedNode || (r != nil && podNames(r.Victims) != podNames(pe.Victims)) {
				rt.Fatalf("explain %q [%s], schedule %q %+v", pe.NominatedNode, podNames(pe.Victims), want.NominatedNode, r)
			}
			chosen := 0
			for _, n := range ex.Nodes {
				np := n.Preemption
				if np == nil {
					rt.Fatalf("node %s without verdict", n.Name)
				}
				for _, v := range np.Victims {
					if framework.PodPriority(v) >= prio {
						rt.Fatalf("node %s: victim %s of priority %d >= %d", n.Name, v.Name, framework.PodPriority(v), prio)
					}
				}
				if np.Chosen {
					chosen++
					if n.Name != pe.NominatedNode || podNames(np.Victims) != podNames(pe.Victims) || np.NumPDBViolations != pe.NumPDBViolations {
						rt.Fatalf("chosen node %s [%s], outcome %s [%s]", n.Name, podNames(np.Victims), pe.NominatedNode, podNames(pe.Victims))
					}
				}
			}
			if (chosen == 1) != (pe.NominatedNode != "") || chosen > 1 {
				rt.Fatalf("%d nodes chosen, nominated %q", chosen, pe.NominatedNode)
			}
		}
	})
}
