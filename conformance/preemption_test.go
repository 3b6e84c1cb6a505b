package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// preemptionInput is a cluster of nodes full of pods of mixed priority,
// pending pods nominated to nodes, PodDisruptionBudgets over them, and a
// pod that may have to preempt.
type preemptionInput struct {
	Nodes     []*api.Node
	Pods      []*api.Pod
	Nominated []*api.Pod
	PDBs      []*api.PodDisruptionBudget
	Pod       *api.Pod
	Seed      uint64
	// PriorityClasses, when drawn (preemptionCaseGen), give the priority
	// of the pods drawn without spec.priority.
	PriorityClasses []api.PriorityClass
}

func pInt32(v int32) *int32 { return &v }

func preemptionGen() *rapid.Generator[*preemptionInput] { return preemptionGenWith(false) }

// preemptionClasses are the PriorityClasses preemptionCaseGen draws pods
// of: one preempts nobody, one may be the global default.
func preemptionClasses(t *rapid.T) []api.PriorityClass {
	never := api.PreemptNever
	cs := []api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "batch"}, Value: -10},
		{ObjectMeta: api.ObjectMeta{Name: "web"}, Value: 100},
		{ObjectMeta: api.ObjectMeta{Name: "critical"}, Value: 2000},
		{ObjectMeta: api.ObjectMeta{Name: "polite"}, Value: 5000, PreemptionPolicy: &never},
	}
	if rapid.Bool().Draw(t, "globalDefault") {
		cs[rapid.IntRange(0, 1).Draw(t, "defaultClass")].GlobalDefault = true
	}
	return cs
}

// withClass sometimes replaces a pod's spec.priority by a PriorityClass
// name (or nothing: the global default, else 0), for admission to give.
func withClass(t *rapid.T, p *api.Pod, classes []api.PriorityClass) {
	if len(classes) == 0 || rapid.IntRange(0, 2).Draw(t, "byClass") != 0 {
		return
	}
	p.Spec.Priority, p.Spec.PreemptionPolicy = nil, nil
	if rapid.IntRange(0, 4).Draw(t, "noClass") != 0 {
		p.Spec.PriorityClassName = rapid.SampledFrom(classes).Draw(t, "class").Name
	}
}

func preemptionGenWith(classes bool) *rapid.Generator[*preemptionInput] {
	return rapid.Custom(func(t *rapid.T) *preemptionInput {
		in := &preemptionInput{Seed: rapid.Uint64().Draw(t, "seed")}
		if classes {
			in.PriorityClasses = preemptionClasses(t)
		}
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		priorities := []int32{-100, 0, 0, 100, 1000, 2000}
		apps := []string{"a", "b", "c"}
		nn := rapid.IntRange(1, 6).Draw(t, "nodes")
		for i := range nn {
			cpu := int64(rapid.IntRange(1, 4).Draw(t, "cpu")) * 1000
			maxPods := rapid.IntRange(2, 8).Draw(t, "maxPods")
			n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i), Labels: map[string]string{
				"kubernetes.io/hostname": fmt.Sprintf("node-%d", i), "topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%2)}}}
			n.Status.Allocatable = api.ResourceList{
				api.ResourceCPU:    quantity.NewMilliQuantity(cpu, quantity.DecimalSI),
				api.ResourceMemory: quantity.MustParse("8Gi"),
				api.ResourcePods:   quantity.NewQuantity(int64(maxPods), quantity.DecimalSI),
			}
			n.Status.Capacity = n.Status.Allocatable
			switch rapid.IntRange(0, 9).Draw(t, "nodeKind") {
			case 0:
				n.Spec.Unschedulable = true
			case 1:
				n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
			}
			in.Nodes = append(in.Nodes, n)
			free := cpu
			portUsed := false
			for j := range rapid.IntRange(0, maxPods).Draw(t, "pods") {
				m := int64(rapid.IntRange(1, 8).Draw(t, "milli")) * 125
				if m > free {
					break
				}
				free -= m
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p-%d-%d", i, j), Namespace: "default", UID: fmt.Sprintf("uid-%d-%d", i, j)}}
				p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
				if rapid.IntRange(0, 5).Draw(t, "noLabels") == 0 {
					p.Labels = nil
				}
				p.Spec.NodeName = n.Name
				p.Spec.Priority = pInt32(rapid.SampledFrom(priorities).Draw(t, "priority"))
				p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
					api.ResourceCPU: quantity.NewMilliQuantity(m, quantity.DecimalSI), api.ResourceMemory: quantity.MustParse("256Mi")}}}}
				// At most one pod per node binds the port: schedkit's
				// HostPortInfo counts binders where upstream's set forgets
				// a port when one of two binders leaves (see cluster).
				if !portUsed && rapid.IntRange(0, 4).Draw(t, "hostPort") == 0 {
					portUsed = true
					p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
				}
				st := api.NewTime(base.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "start")) * time.Minute))
				p.Status.StartTime = &st
				p.Status.Phase = api.PodRunning
				withClass(t, p, in.PriorityClasses)
				in.Pods = append(in.Pods, p)
			}
		}
		for k := range rapid.IntRange(0, 3).Draw(t, "pdbs") {
			b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pdb-%d", k), Namespace: "default"}}
			switch rapid.IntRange(0, 7).Draw(t, "selector") {
			case 0:
				b.Spec.Selector = &api.LabelSelector{}
			default:
				b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "pdbApp")}}
			}
			b.Status.DisruptionsAllowed = int32(rapid.IntRange(0, 2).Draw(t, "allowed"))
			if len(in.Pods) > 0 && rapid.IntRange(0, 3).Draw(t, "disrupted") == 0 {
				b.Status.DisruptedPods = map[string]api.Time{rapid.SampledFrom(in.Pods).Draw(t, "disruptedPod").Name: api.NewTime(base)}
			}
			in.PDBs = append(in.PDBs, b)
		}
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "incoming", Namespace: "default", UID: "uid-incoming"}}
		p.Spec.Priority = pInt32(rapid.SampledFrom([]int32{0, 100, 1000, 2000, 2000, 5000}).Draw(t, "incomingPriority"))
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU:    quantity.NewMilliQuantity(int64(rapid.IntRange(4, 32).Draw(t, "incomingMilli"))*125, quantity.DecimalSI),
			api.ResourceMemory: quantity.MustParse("256Mi")}}}}
		if rapid.IntRange(0, 4).Draw(t, "incomingHostPort") == 0 {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
		}
		// A topology spread constraint over pods of one app: preemption
		// then goes through PodTopologySpread's PreFilter extensions.
		if rapid.IntRange(0, 2).Draw(t, "spread") == 0 {
			app := rapid.SampledFrom(apps).Draw(t, "spreadApp")
			p.Labels = map[string]string{"app": app}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
				MaxSkew:           int32(rapid.IntRange(1, 2).Draw(t, "maxSkew")),
				TopologyKey:       rapid.SampledFrom([]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}).Draw(t, "topologyKey"),
				WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": app}},
			}}
		}
		if rapid.IntRange(0, 9).Draw(t, "never") == 0 {
			never := api.PreemptNever
			p.Spec.PreemptionPolicy = &never
		}
		if rapid.IntRange(0, 5).Draw(t, "nominated") == 0 {
			node := rapid.SampledFrom(in.Nodes).Draw(t, "nominatedNode").Name
			p.Status.NominatedNodeName = node
			for _, q := range in.Pods {
				if q.Spec.NodeName == node && rapid.IntRange(0, 2).Draw(t, "terminating") == 0 {
					dt := api.NewTime(base)
					q.DeletionTimestamp = &dt
					q.Status.Conditions = []api.PodCondition{{Type: "DisruptionTarget", Status: api.ConditionTrue, Reason: "PreemptionByScheduler"}}
					break
				}
			}
		}
		// Pending pods nominated to nodes, of lower, equal or higher
		// priority than the incoming pod: the filters (the failed
		// cycle's and the dry runs') count those of at least its
		// priority on their node.
		for k := range rapid.IntRange(0, 3).Draw(t, "numNominated") {
			q := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("nominated-%d", k), Namespace: "default", UID: fmt.Sprintf("uid-nominated-%d", k)}}
			q.Spec.Priority = pInt32(*p.Spec.Priority + rapid.SampledFrom([]int32{-100, 0, 0, 100}).Draw(t, "nominatedPriority"))
			q.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
				api.ResourceCPU:    quantity.NewMilliQuantity(int64(rapid.IntRange(1, 8).Draw(t, "nominatedMilli"))*125, quantity.DecimalSI),
				api.ResourceMemory: quantity.MustParse("256Mi")}}}}
			if rapid.IntRange(0, 2).Draw(t, "nominatedLabels") == 0 {
				q.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "nominatedApp")}
			}
			if rapid.IntRange(0, 5).Draw(t, "nominatedHostPort") == 0 {
				q.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
			}
			q.Status.NominatedNodeName = rapid.SampledFrom(in.Nodes).Draw(t, "nominatedTo").Name
			q.Status.Phase = api.PodPending
			withClass(t, q, in.PriorityClasses)
			in.Nominated = append(in.Nominated, q)
		}
		withClass(t, p, in.PriorityClasses)
		in.Pod = p
		return in
	})
}

// TestPreemption compares schedkit's DefaultPreemption (through
// scheduler.Schedule, every node sampled) with upstream's on generated
// clusters with priorities, PodDisruptionBudgets and pending pods
// nominated to nodes (in schedkit's queue, in upstream's nominator):
// whether the pod
// fits, the PostFilter message byte for byte, the nominated node (one of
// the candidates upstream ties with its own pick under all five rules:
// upstream breaks the remaining tie in map order), the victims in order
// and the PDB violations.
func TestPreemption(t *testing.T) {
	var nominated, noCandidate, total, nominatedFits atomic.Int64
	defer func() {
		t.Logf("%d cases: %d nominated, %d without a candidate, %d placed on their nominated node", total.Load(), nominated.Load(), noCandidate.Load(), nominatedFits.Load())
	}()
	rapid.Check(t, func(rt *rapid.T) {
		total.Add(1)
		in := preemptionGen().Draw(rt, "input")
		up := upstream.Preemption(in.Nodes, in.Pods, in.Nominated, in.PDBs, in.Pod)

		snap, err := cluster.NewSnapshot(in.Nodes, in.Pods)
		if err != nil {
			rt.Fatal(err)
		}
		for _, b := range in.PDBs {
			if err := snap.AddObject(b); err != nil {
				rt.Fatal(err)
			}
		}
		s, err := scheduler.New(snap, scheduler.WithPercentageOfNodesToScore(100), scheduler.WithSeed(in.Seed))
		if err != nil {
			rt.Fatal(err)
		}
		if err := s.Enqueue(context.Background(), in.Nominated...); err != nil {
			rt.Fatal(err)
		}
		res, err := s.Schedule(context.Background(), in.Pod)
		var fe *scheduler.FitError
		if up.Fits != (err == nil) {
			rt.Fatalf("fits: upstream %v, schedkit %v", up.Fits, err)
		}
		if up.Fits {
			// The nominated node is tried first: when it fits, it is the
			// pick.
			if up.Node != "" {
				nominatedFits.Add(1)
				if res.Node != up.Node {
					rt.Fatalf("nominated node %s fits upstream; schedkit placed the pod on %s", up.Node, res.Node)
				}
			}
			return
		}
		if !errors.As(err, &fe) {
			rt.Fatalf("schedkit error %v", err)
		}
		msg := fe.Diagnosis.PostFilterMsg
		r := res.PostFilterResult
		if up.Nominated == "" {
			noCandidate.Add(1)
			if msg != up.Message {
				js, _ := json.Marshal(in)
				rt.Fatalf("message:\n schedkit %q\n upstream %q\n%s", msg, up.Message, js)
			}
			if r != nil && r.NominatedNodeName != "" {
				rt.Fatalf("schedkit nominated %s; upstream none", r.NominatedNodeName)
			}
			return
		}
		nominated.Add(1)
		if r == nil || !slices.Contains(up.Tied, r.NominatedNodeName) {
			rt.Fatalf("nominated %+v, upstream one of %v (candidates %+v)", r, up.Tied, up.Candidates)
		}
		c := up.Candidates[r.NominatedNodeName]
		var victims []string
		for _, v := range r.Victims {
			victims = append(victims, v.Name)
		}
		if !slices.Equal(victims, c.Victims) || int64(r.NumPDBViolations) != c.NumPDBViolations {
			rt.Fatalf("on %s: victims %v (%d violations), upstream %v (%d)", r.NominatedNodeName, victims, r.NumPDBViolations, c.Victims, c.NumPDBViolations)
		}
		want := fmt.Sprintf("preemption: found a potential placement for pod on node %v, preempting %d victims", r.NominatedNodeName, len(c.Victims))
		if msg != want {
			rt.Fatalf("message %q, want %q", msg, want)
		}
	})
}

// preemptionCase is a generated input as a fixture input.
func (in *preemptionInput) preemptionCase(args *config.DefaultPreemptionArgs) *regression.PreemptionInput {
	return &regression.PreemptionInput{Nodes: in.Nodes, Pods: in.Pods, Nominated: in.Nominated, PDBs: in.PDBs,
		PriorityClasses: in.PriorityClasses, Pod: in.Pod, Args: args}
}

// preemptionCaseGen draws preemption fixture inputs: the clusters of
// preemptionGen with PriorityClasses (pods of a class get their priority
// from admission) and, sometimes, DefaultPreemption arguments that still
// dry-run every potential node.
func preemptionCaseGen() *rapid.Generator[*regression.PreemptionInput] {
	return rapid.Custom(func(t *rapid.T) *regression.PreemptionInput {
		in := preemptionGenWith(true).Draw(t, "cluster")
		var args *config.DefaultPreemptionArgs
		if rapid.IntRange(0, 3).Draw(t, "withArgs") == 0 {
			pct := int32(rapid.SampledFrom([]int{0, 10, 50, 100}).Draw(t, "pct"))
			abs := int32(len(in.Nodes) + rapid.IntRange(0, 2).Draw(t, "absExtra"))
			args = &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &pct, MinCandidateNodesAbsolute: &abs}
		}
		return in.preemptionCase(args)
	})
}

// TestPreemptionFixtures is the preemption fixture kind's differential
// property: schedkit's answer (Schedule with the nominated pods queued,
// and Explain's dry run for the candidates) against upstream's (the
// Priority admission plugin, the failed cycle with the nominated pods in
// the framework's nominator, DefaultPreemption's evaluation). A failing
// case is shrunk and written under testdata/regressions/preemption.
func TestPreemptionFixtures(t *testing.T) {
	Property(t, regression.KindPreemption, preemptionCaseGen(), upFn(upstream.PreemptionCase), nil)
}

// preemptionSeeds are the hand-picked preemption fixtures.
func preemptionSeeds() []seed {
	mk := func(name, cpu string, pods ...*api.Pod) (*api.Node, []*api.Pod) {
		n := node(name, rl("cpu", cpu, "memory", "8Gi", "pods", "10"), nil)
		for _, p := range pods {
			p.Spec.NodeName = name
		}
		return n, pods
	}
	started := func(p *api.Pod, minute int) *api.Pod {
		st := api.NewTime(time.Date(2025, 1, 1, 0, minute, 0, 0, time.UTC))
		p.Status.StartTime, p.Status.Phase = &st, api.PodRunning
		return p
	}
	prio := func(p *api.Pod, v int32) *api.Pod { p.Spec.Priority = &v; return p }
	cpuPod := func(name, cpu string) *api.Pod {
		p := boundPod(name, "", ctr("c", rl("cpu", cpu, "memory", "256Mi"), nil))
		return p
	}
	classes := []api.PriorityClass{{ObjectMeta: api.ObjectMeta{Name: "low"}, Value: -10, GlobalDefault: true}, {ObjectMeta: api.ObjectMeta{Name: "urgent"}, Value: 1000}}

	// Two nodes; the preemptor (class urgent) evicts the later-started
	// pod of the default class on node-a; node-b's pod outranks it.
	na, pa := mk("node-a", "2", started(cpuPod("a1", "1"), 1), started(cpuPod("a2", "1"), 2))
	nb, pb := mk("node-b", "2", started(prio(cpuPod("b1", "2"), 5000), 1))
	incoming := cpuPod("incoming", "1")
	incoming.Spec.PriorityClassName = "urgent"
	basic := &regression.PreemptionInput{Nodes: []*api.Node{na, nb}, Pods: append(pa, pb...), PriorityClasses: classes, Pod: incoming}

	// A pod nominated to node-a with the preemptor's priority holds the
	// room the preemptor would make there: it must evict both pods.
	na2, pa2 := mk("node-a", "2", started(cpuPod("a1", "1"), 1), started(cpuPod("a2", "1"), 2))
	nom := prio(cpuPod("waiting", "1"), 1000)
	nom.Status.NominatedNodeName = "node-a"
	incoming2 := prio(cpuPod("incoming", "1"), 1000)
	nominated := &regression.PreemptionInput{Nodes: []*api.Node{na2}, Pods: pa2, Nominated: []*api.Pod{nom}, PriorityClasses: classes, Pod: incoming2}

	// A lower-priority nominated pod is not counted: one victim is enough.
	na3, pa3 := mk("node-a", "2", started(cpuPod("a1", "1"), 1), started(cpuPod("a2", "1"), 2))
	low := prio(cpuPod("waiting", "1"), 0)
	low.Status.NominatedNodeName = "node-a"
	lowerNominated := &regression.PreemptionInput{Nodes: []*api.Node{na3}, Pods: pa3, Nominated: []*api.Pod{low}, PriorityClasses: classes, Pod: prio(cpuPod("incoming", "1"), 1000)}

	// A PodDisruptionBudget with no disruption left: its pod is
	// reprieved first, and node-b (no violation) wins over node-a.
	nc, pc := mk("node-a", "1", started(cpuPod("guarded", "1"), 1))
	nd, pd := mk("node-b", "1", started(prio(cpuPod("free", "1"), 500), 1))
	pc[0].Labels = map[string]string{"app": "db"}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}}}
	withPDB := &regression.PreemptionInput{Nodes: []*api.Node{nc, nd}, Pods: append(pc, pd...), PDBs: []*api.PodDisruptionBudget{pdb}, PriorityClasses: classes, Pod: prio(cpuPod("incoming", "1"), 1000)}

	// No node can help: every pod outranks the preemptor.
	ne, pe := mk("node-a", "1", started(prio(cpuPod("boss", "1"), 5000), 1))
	nobody := &regression.PreemptionInput{Nodes: []*api.Node{ne}, Pods: pe, PriorityClasses: classes, Pod: prio(cpuPod("incoming", "1"), 1000)}

	// The nominated node is tried first: the pod fits on both nodes, the
	// scores would pick the empty node-b, but it goes to node-a.
	nf, pf := mk("node-a", "4", started(cpuPod("a1", "2"), 1))
	ng := node("node-b", rl("cpu", "4", "memory", "8Gi", "pods", "10"), nil)
	back := prio(cpuPod("incoming", "1"), 1000)
	back.Status.NominatedNodeName = "node-a"
	nominatedFirst := &regression.PreemptionInput{Nodes: []*api.Node{nf, ng}, Pods: pf, Pod: back}

	return []seed{
		{Kind: regression.KindPreemption, Name: "nominated-node-first", Note: "the pod's nominated node is tried first and taken when it fits", Input: nominatedFirst},
		{Kind: regression.KindPreemption, Name: "class-priorities", Note: "priorities from PriorityClasses (a global default): the later-started victim on the only node that can help", Input: basic},
		{Kind: regression.KindPreemption, Name: "nominated-equal-priority", Note: "a pod nominated to the node with the preemptor's priority is counted: both pods are victims", Input: nominated},
		{Kind: regression.KindPreemption, Name: "nominated-lower-priority", Note: "a lower-priority nominated pod is not counted: one victim", Input: lowerNominated},
		{Kind: regression.KindPreemption, Name: "pdb-violation", Note: "the node whose victim violates no PodDisruptionBudget wins", Input: withPDB},
		{Kind: regression.KindPreemption, Name: "no-victims", Note: "no node has a lower-priority pod: upstream's 0/N message", Input: nobody},
	}
}
