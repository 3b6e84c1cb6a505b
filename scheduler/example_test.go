package scheduler_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

func node(name, cpu string, labels map[string]string) *api.Node {
	alloc := api.ResourceList{
		api.ResourceCPU:    quantity.MustParse(cpu),
		api.ResourceMemory: quantity.MustParse("16Gi"),
		api.ResourcePods:   quantity.MustParse("110"),
	}
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Status:     api.NodeStatus{Capacity: alloc, Allocatable: alloc},
	}
}

func pod(name, cpu string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name:      "app",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}},
		}}},
	}
}

// Scheduling pods onto a 3-node cluster with kube-scheduler's default
// profile.
func ExampleScheduler_Schedule() {
	cordoned := node("node-a", "8", nil)
	cordoned.Spec.Unschedulable = true
	snap, err := cluster.NewSnapshot([]*api.Node{cordoned, node("node-b", "1", nil), node("node-c", "8", nil)}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap, scheduler.WithSeed(1))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	web := pod("web", "2")
	res, err := s.Schedule(ctx, web)
	if err != nil {
		panic(err)
	}
	fmt.Println("web ->", res.Node)
	if err := s.Assume(web, res.Node); err != nil {
		panic(err)
	}

	_, err = s.Schedule(ctx, pod("batch", "7"))
	var fitErr *scheduler.FitError
	if errors.As(err, &fitErr) {
		fmt.Println("batch:", fitErr)
	}
	// Output:
	// web -> node-c
	// batch: 0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.
}

// preferSpot is a Score plugin favouring spot nodes.
type preferSpot struct{}

func (preferSpot) Name() string { return "PreferSpot" }

func (preferSpot) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	if ni.Node().Labels["lifecycle"] == "spot" {
		return framework.MaxNodeScore, nil
	}
	return 0, nil
}

func (preferSpot) ScoreExtensions() framework.ScoreExtensions { return nil }

// A custom plugin in a few lines: register it and add it, weighted, to
// the default profile.
func ExampleWithPlugin() {
	snap, err := cluster.NewSnapshot([]*api.Node{
		node("node-a", "8", nil),
		node("node-b", "8", map[string]string{"lifecycle": "spot"}),
		node("node-c", "8", nil),
	}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap,
		scheduler.WithPlugin("PreferSpot", func(any, framework.Handle) (framework.Plugin, error) { return preferSpot{}, nil }),
		scheduler.WithProfiles(framework.ProfileConfig{
			Plugins: []framework.PluginRef{{Name: "PreferSpot", Weight: 5}},
		}),
	)
	if err != nil {
		panic(err)
	}
	ex, err := s.Explain(context.Background(), pod("web", "1"))
	if err != nil {
		panic(err)
	}
	fmt.Println("web ->", ex.Node)
	for _, n := range ex.Nodes {
		for _, ps := range n.Scores {
			if ps.Plugin == "PreferSpot" {
				fmt.Printf("  %s: PreferSpot %d\n", n.Name, ps.Weighted)
			}
		}
	}
	// Output:
	// web -> node-b
	//   node-a: PreferSpot 0
	//   node-b: PreferSpot 500
	//   node-c: PreferSpot 0
}

// Explaining a decision: every node's filter verdict and every feasible
// node's scores, plugin by plugin.
func ExampleScheduler_Explain() {
	cordoned := node("node-a", "8", nil)
	cordoned.Spec.Unschedulable = true
	snap, err := cluster.NewSnapshot([]*api.Node{cordoned, node("node-b", "1", nil), node("node-c", "8", nil)}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ex, err := s.Explain(context.Background(), pod("web", "2"))
	if err != nil {
		panic(err)
	}
	for _, n := range ex.Nodes {
		if n.Status != nil {
			fmt.Printf("%s: %s by %s: %s\n", n.Name, n.Status.Code(), n.Status.Plugin(), n.Status.Message())
			continue
		}
		fmt.Printf("%s: fits, total %d\n", n.Name, n.Total)
		for _, sc := range n.Scores {
			fmt.Printf("  %s: %d x %d\n", sc.Plugin, sc.Normalized, sc.Weight)
		}
	}
	fmt.Println("skipped at PreScore:", ex.SkippedScores)
	fmt.Println("pick:", ex.Node, "scored for the report only:", ex.ScoredForReport)
	// Output:
	// node-a: UnschedulableAndUnresolvable by NodeUnschedulable: node(s) were unschedulable
	// node-b: UnschedulableAndUnresolvable by NodeResourcesFit: Insufficient cpu
	// node-c: fits, total 454
	//   TaintToleration: 100 x 3
	//   NodeResourcesFit: 86 x 1
	//   VolumeBinding: 0 x 1
	//   NodeResourcesBalancedAllocation: 68 x 1
	//   ImageLocality: 0 x 1
	// skipped at PreScore: [DynamicResources InterPodAffinity NodeAffinity PodTopologySpread]
	// pick: node-c scored for the report only: true
}

// Explaining a pod that fits only by preempting: Explain runs
// DefaultPreemption as a dry run and reports the nominated node, the
// victims, and each node's verdict; nothing is evicted.
func ExampleScheduler_Explain_preemption() {
	prio := func(p *api.Pod, v int32, nodeName string) *api.Pod {
		p.Spec.Priority, p.Spec.NodeName = &v, nodeName
		return p
	}
	running := []*api.Pod{
		prio(pod("batch-1", "1"), 0, "node-a"),
		prio(pod("batch-2", "1"), 0, "node-a"),
		prio(pod("db", "2"), 5000, "node-b"),
	}
	snap, err := cluster.NewSnapshot([]*api.Node{node("node-a", "2", nil), node("node-b", "2", nil)}, running)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ex, err := s.Explain(context.Background(), prio(pod("urgent", "1"), 1000, ""))
	if err != nil {
		panic(err)
	}
	fmt.Println(ex.Err)
	pe := ex.Preemption
	fmt.Println("nominated:", pe.NominatedNode, "victims:", len(pe.Victims), pe.Victims[0].Name)
	for _, n := range ex.Nodes {
		np := n.Preemption
		switch np.Verdict {
		case scheduler.PreemptionCandidate:
			fmt.Printf("%s: %s, chosen %v, evicting %s\n", n.Name, np.Verdict, np.Chosen, np.Victims[0].Name)
		default:
			fmt.Printf("%s: %s: %s\n", n.Name, np.Verdict, np.Status.Message())
		}
	}
	_, on, _ := s.Snapshot().Pod("default", "batch-2")
	fmt.Println("batch-2 still on", on)
	// Output:
	// 0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node node-a, preempting 1 victims
	// nominated: node-a victims: 1 batch-2
	// node-a: Candidate, chosen true, evicting batch-2
	// node-b: CannotHelp: No preemption victims found for incoming pod
	// batch-2 still on node-a
}

// A gang of three pods that needs a node more than the cluster has is
// placed not at all with GenericWorkload on.
func ExampleWithFeatureGates() {
	snap, _ := cluster.NewSnapshot([]*api.Node{node("node-a", "2", nil), node("node-b", "2", nil)}, nil)
	_ = snap.AddObject(&api.PodGroup{ObjectMeta: api.ObjectMeta{Name: "train", Namespace: "default"},
		Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: 3}}}})
	s, _ := scheduler.New(snap, scheduler.WithFeatureGates(features.MustParse("GenericWorkload=true")))
	var pods []*api.Pod
	for _, name := range []string{"w0", "w1", "w2"} {
		p := pod(name, "2")
		group := "train"
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &group}
		pods = append(pods, p)
	}
	placements, _ := s.Simulate(context.Background(), pods)
	for _, pl := range placements {
		fmt.Printf("%s %s: %v\n", pl.Pod.Name, pl.Outcome(), pl.Err)
	}
	// Output:
	// w0 unschedulable: pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor
	// w1 unschedulable: pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor
	// w2 unschedulable: 0/2 nodes are available: 2 Insufficient cpu.
}
