package scheduler

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/schedulinggates"
)

// slots admits at most n pods per node; it registers the events that free
// or add room, as NodeResourcesFit does.
type slots struct{ n int }

func (slots) Name() string { return "Slots" }
func (s slots) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	if len(ni.Pods) >= s.n {
		return framework.NewStatus(framework.Unschedulable, "Too many pods")
	}
	return nil
}
func (slots) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate | framework.AssignedPodDelete
}

// needsFriend admits a pod labelled needs=x only on a node with a pod
// labelled friend=x (a stand-in for pod affinity). It does not implement
// EnqueueExtensions, so every event requeues the pods it rejected.
type needsFriend struct{}

func (needsFriend) Name() string { return "NeedsFriend" }
func (needsFriend) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	want, ok := pod.Labels["needs"]
	if !ok {
		return nil
	}
	for _, p := range ni.Pods {
		if p.Pod.Labels["friend"] == want {
			return nil
		}
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, "no friend")
}

func prioPod(name string, prio int32) *api.Pod {
	p := makePod(name)
	p.Spec.Priority = &prio
	return p
}

func nodesOf(ps []Placement) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Node
	}
	return out
}

func TestSimulatePriorityOrder(t *testing.T) {
	// One slot: the highest priority wins whatever the input order; FIFO
	// among equals.
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		pods := []*api.Pod{prioPod("low", 1), prioPod("high", 10), prioPod("mid", 5)}
		var in []*api.Pod
		for _, i := range order {
			in = append(in, pods[i])
		}
		s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{1})})
		out, err := s.Simulate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range out {
			if p.Pod.Name == "high" != (p.Node == "n1") {
				t.Errorf("order %v: %s went to %q", order, in[i].Name, p.Node)
			}
			if p.Pod.Name != "high" {
				var fe *FitError
				if !errors.As(p.Err, &fe) || p.Err.Error() != "0/1 nodes are available: 1 Too many pods." {
					t.Errorf("%s: err %v", p.Pod.Name, p.Err)
				}
			}
		}
	}
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{1})})
	out, _ := s.Simulate(context.Background(), []*api.Pod{prioPod("a", 1), prioPod("b", 1)})
	if !slices.Equal(nodesOf(out), []string{"n1", ""}) {
		t.Errorf("FIFO among equal priorities: %v", nodesOf(out))
	}
}

func TestSimulateRetriesAfterPlacement(t *testing.T) {
	needy := prioPod("needy", 10)
	needy.Labels = map[string]string{"needs": "x"}
	friend := prioPod("friend", 1)
	friend.Labels = map[string]string{"friend": "x"}
	s := testScheduler(t, makeNodes("n1", "n2"), nil, []weighted{w(needsFriend{}), w(slots{5})})
	out, err := s.Simulate(context.Background(), []*api.Pod{needy, friend})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Err != nil || out[0].Node != out[1].Node || out[0].Attempts != 2 || out[1].Attempts != 1 {
		t.Errorf("placements %+v", out)
	}
}

func TestSimulateParkedUntilEvent(t *testing.T) {
	// A pod rejected by Slots is not retried after another placement
	// (Slots does not register AssignedPodAdd).
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{1})})
	out, _ := s.Simulate(context.Background(), []*api.Pod{prioPod("a", 2), prioPod("b", 1), prioPod("c", 0)})
	for _, p := range out[1:] {
		if p.Attempts != 1 {
			t.Errorf("%s attempted %d times", p.Pod.Name, p.Attempts)
		}
	}
}

func TestQueueEvents(t *testing.T) {
	ctx := context.Background()
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{1}), w(schedulinggates.SchedulingGates{})})
	gated := prioPod("gated", 0)
	gated.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "wait"}}
	if err := s.Enqueue(ctx, prioPod("a", 0), prioPod("b", 0), gated); err != nil {
		t.Fatal(err)
	}
	placed, err := s.RunQueue(ctx)
	if err != nil || len(placed) != 1 || placed[0].Pod.Name != "a" || placed[0].Node != "n1" {
		t.Fatalf("placed %+v err %v", placed, err)
	}
	pending := s.Pending()
	if len(pending) != 2 {
		t.Fatalf("pending %+v", pending)
	}
	var ge *GatedError
	if !errors.As(pending[1].Err, &ge) {
		t.Errorf("gated pod: %v", pending[1].Err)
	}
	// An unrelated change does not requeue b.
	if err := s.AddPod(func() *api.Pod { p := makePod("other"); p.Spec.NodeName = "elsewhere"; return p }()); err != nil {
		t.Fatal(err)
	}
	if placed, _ := s.RunQueue(ctx); len(placed) != 0 {
		t.Errorf("placed after AssignedPodAdd: %+v", placed)
	}
	// A new node does.
	n2 := makeNodes("n2")[0]
	if err := s.AddNode(n2); err != nil {
		t.Fatal(err)
	}
	placed, _ = s.RunQueue(ctx)
	if len(placed) != 1 || placed[0].Pod.Name != "b" || placed[0].Node != "n2" || placed[0].Attempts != 2 {
		t.Fatalf("placed %+v", placed)
	}
	// Removing the gates admits the gated pod once there is room.
	ungated := prioPod("gated", 0)
	if err := s.Enqueue(ctx, ungated); err != nil {
		t.Fatal(err)
	}
	if placed, _ = s.RunQueue(ctx); len(placed) != 0 {
		t.Fatalf("placed %+v", placed)
	}
	if err := s.RemovePod(placed0(t, s, "a")); err != nil {
		t.Fatal(err)
	}
	placed, _ = s.RunQueue(ctx)
	if len(placed) != 1 || placed[0].Pod.Name != "gated" || placed[0].Node != "n1" {
		t.Fatalf("placed %+v", placed)
	}
	if len(s.Pending()) != 0 {
		t.Errorf("pending %+v", s.Pending())
	}
}

func placed0(t *testing.T, s *Scheduler, name string) *api.Pod {
	pi, _, ok := s.Snapshot().Pod("default", name)
	if !ok {
		t.Fatalf("pod %s not in the snapshot", name)
	}
	return pi.Pod
}

// postFilter nominates a node and reports a message.
type postFilter struct{}

func (postFilter) Name() string { return "FakePostFilter" }
func (postFilter) PostFilter(context.Context, *framework.CycleState, *api.Pod, framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	return &framework.PostFilterResult{NominatedNodeName: "n1"}, framework.NewStatus(framework.Unschedulable, "preemption: nothing to evict")
}

func TestPostFilter(t *testing.T) {
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(falseFilter{}), w(postFilter{})})
	res, err := s.Schedule(context.Background(), makePod("p"))
	if err == nil || err.Error() != "0/1 nodes are available: 1 Nodes failed the fake plugin. preemption: nothing to evict" {
		t.Errorf("err = %v", err)
	}
	if res.NominatedNode != "n1" {
		t.Errorf("nominated %q", res.NominatedNode)
	}
	// In a simulation the pod keeps its nomination.
	out, _ := s.Simulate(context.Background(), []*api.Pod{makePod("q")})
	if out[0].Pod.Status.NominatedNodeName != "n1" || out[0].Attempts != 1 {
		t.Errorf("placement %+v", out[0])
	}
}

func TestSimulateInputErrors(t *testing.T) {
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{1})})
	if _, err := s.Simulate(context.Background(), []*api.Pod{makePod("a"), makePod("a")}); err == nil {
		t.Error("duplicate pods accepted")
	}
	if _, err := s.Simulate(context.Background(), []*api.Pod{nil}); err == nil {
		t.Error("nil pod accepted")
	}
	p := makePod("x")
	p.Spec.SchedulerName = "nope"
	out, err := s.Simulate(context.Background(), []*api.Pod{p})
	if err != nil || out[0].Err == nil || out[0].Err.Error() != `profile not found for scheduler name "nope"` {
		t.Errorf("out %+v err %v", out, err)
	}
}

func TestSimulateSkipsDeletingPods(t *testing.T) {
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(slots{5})})
	p := makePod("gone")
	p.DeletionTimestamp = &api.Time{}
	out, err := s.Simulate(context.Background(), []*api.Pod{p, makePod("ok")})
	if err != nil || out[0].Node != "" || out[0].Err == nil || out[0].Err.Error() != "skip schedule deleting pod: default/gone" || out[1].Node != "n1" {
		t.Errorf("out %+v err %v", out, err)
	}
}
