package scheduler

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
	"github.com/schedkit/schedkit/podgroup"
)

// fakeGangOps is upstream's fakePodGroupPlugin (a filter status per pod)
// and fakePlacementFeasiblePlugin (a status per call, success past the
// list) for podGroupAlgorithm.
type fakeGangOps struct {
	total    int
	feasible []framework.Code
	filter   map[string]framework.Code
	reverted []string
}

func (f *fakeGangOps) feasibleStatus(p gangscheduling.Progress) *framework.Status {
	i := f.total - p.Remaining
	if i < len(f.feasible) && f.feasible[i] != framework.Success {
		return framework.NewStatus(f.feasible[i], "injected placementFeasible status")
	}
	return nil
}

func (f *fakeGangOps) try(_ context.Context, e *entry) (Decision, *framework.Status, func(), error) {
	name := e.qpi.Pod.Name
	switch code := f.filter[name]; code {
	case framework.Success:
		return Decision{Node: "node1"}, nil, func() { f.reverted = append(f.reverted, name) }, nil
	case framework.Error:
		err := errors.New("injected filter error")
		return Decision{}, framework.AsStatus(err), nil, err
	default:
		err := &FitError{Pod: e.qpi.Pod, NumAllNodes: 1}
		return Decision{}, framework.NewStatus(framework.Unschedulable).WithError(err), nil, err
	}
}

// TestPodGroupSchedulingAlgorithm ports upstream's
// TestPodGroupSchedulingAlgorithm (TopologyAwareWorkloadScheduling and
// CompositePodGroup off): the group's code and each tried pod's code.
func TestPodGroupSchedulingAlgorithm(t *testing.T) {
	S, U, UU, W, E := framework.Success, framework.Unschedulable, framework.UnschedulableAndUnresolvable, framework.Wait, framework.Error
	all := func(codes ...framework.Code) map[string]framework.Code {
		return map[string]framework.Code{"p1": codes[0], "p2": codes[1], "p3": codes[2]}
	}
	tests := []struct {
		name      string
		filter    map[string]framework.Code
		feasible  []framework.Code
		wantGroup framework.Code
		wantPods  map[string]framework.Code // the pods tried
	}{
		{"All pods feasible", all(S, S, S), nil, S, all(S, S, S)},
		{"All pods feasible, podGroup already meeting quorum before any pod is evaluated", all(S, S, S), []framework.Code{S, S, S, S}, S, all(S, S, S)},
		{"All pods feasible, podGroup schedulable with 3 schedulable pods", all(S, S, S), []framework.Code{W, W, W, S}, S, all(S, S, S)},
		{"All pods feasible, podGroup waiting", all(S, S, S), []framework.Code{W, W, W, W}, U, all(S, S, S)},
		{"All pods feasible, podGroup unschedulable", all(S, S, S), []framework.Code{W, U}, U, map[string]framework.Code{"p1": S}},
		{"All pods feasible, podGroup unschedulable with 2 pods", all(S, S, S), []framework.Code{W, W, U}, U, map[string]framework.Code{"p1": S, "p2": S}},
		{"PodGroup schedulable with 2 schedulable pods", all(U, S, S), []framework.Code{W, W, W, S}, S, all(U, S, S)},
		{"All pods unschedulable", all(UU, U, U), []framework.Code{W, S, S, S}, U, all(U, U, U)},
		{"Any filter returned Error", all(S, E, S), nil, E, map[string]framework.Code{"p1": S, "p2": E}},
		{"Any placementFeasible returned Error", all(S, S, S), []framework.Code{W, S, E}, E, map[string]framework.Code{"p1": S, "p2": S}},
		{"First placementFeasible call returned Unschedulable", all(S, S, S), []framework.Code{U}, U, map[string]framework.Code{}},
		{"First placementFeasible call returned Error", all(S, S, S), []framework.Code{E}, E, map[string]framework.Code{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var members []*entry
			for _, n := range []string{"p1", "p2", "p3"} {
				members = append(members, &entry{qpi: framework.QueuedPodInfo{Pod: gangPod(n, "1", "pg")}})
			}
			ops := &fakeGangOps{total: 3, feasible: tt.feasible, filter: tt.filter}
			out := podGroupAlgorithm(context.Background(), opsAdapter{ops}, members, 0)
			if out.status.Code() != tt.wantGroup {
				t.Errorf("group %v, want %v", out.status.Code(), tt.wantGroup)
			}
			if len(out.pods) != len(tt.wantPods) {
				t.Errorf("%d pods tried, want %d", len(out.pods), len(tt.wantPods))
			}
			for _, r := range out.pods {
				want, ok := tt.wantPods[r.e.qpi.Pod.Name]
				if !ok {
					t.Errorf("unexpected result for %s", r.e.qpi.Pod.Name)
				} else if r.status.Code() != want {
					t.Errorf("%s: %v, want %v", r.e.qpi.Pod.Name, r.status.Code(), want)
				}
				if r.status.IsSuccess() != (r.res.Node == "node1") {
					t.Errorf("%s: node %q with %v", r.e.qpi.Pod.Name, r.res.Node, r.status.Code())
				}
			}
			// A group that does not succeed leaves nothing assumed.
			if !out.status.IsSuccess() {
				succeeded := 0
				for _, r := range out.pods {
					if r.status.IsSuccess() {
						succeeded++
					}
				}
				if len(ops.reverted) != succeeded {
					t.Errorf("reverted %v, %d were assumed", ops.reverted, succeeded)
				}
			}
		})
	}
}

// opsAdapter makes a fakeGangOps a gangOps.
type opsAdapter struct{ f *fakeGangOps }

func (a opsAdapter) feasible(p gangscheduling.Progress) *framework.Status {
	return a.f.feasibleStatus(p)
}
func (a opsAdapter) try(ctx context.Context, e *entry) (Decision, *framework.Status, func(), error) {
	return a.f.try(ctx, e)
}

// TestValidatePodGroup ports upstream's TestValidatePodGroup rows for a
// leaf group with PodGroupPreemptionPolicy off.
func TestValidatePodGroup(t *testing.T) {
	mk := func(name, sched string, prio int32, policy api.PreemptionPolicy) *api.Pod {
		p := gangPod(name, "1", "pg")
		p.Spec.SchedulerName = sched
		p.Spec.Priority = &prio
		if policy != "" {
			p.Spec.PreemptionPolicy = &policy
		}
		return p
	}
	const def = "default-scheduler"
	tests := []struct {
		name      string
		prio      int32
		pods      []*api.Pod
		scheduled []*api.Pod
		wantErr   string
	}{
		{name: "failure when no pods to evaluate", wantErr: "no pods to evaluate"},
		{name: "success for same scheduler name", pods: []*api.Pod{mk("p1", def, 0, ""), mk("p2", def, 0, "")}},
		{name: "failure for different scheduler names", pods: []*api.Pod{mk("p1", def, 0, ""), mk("p2", "sched2", 0, "")},
			wantErr: `all pods in a single pod group should have the same .spec.schedulerName set, got: "sched2" and "default-scheduler"`},
		{name: "failure when profile not found", pods: []*api.Pod{mk("p1", "other", 0, ""), mk("p2", "other", 0, "")},
			wantErr: `profile not found for scheduler name "other"`},
		{name: "success when priorities match", prio: 10, pods: []*api.Pod{mk("p1", def, 10, ""), mk("p2", def, 10, "")}},
		{name: "failure when different priorities across pods", prio: 10, pods: []*api.Pod{mk("p1", def, 9, ""), mk("p2", def, 10, "")},
			wantErr: "all pods in a single pod group should have the same priority as the pod group's priority, got 9 and 10"},
		{name: "failure when different priorities across pods and pod group", prio: 9, pods: []*api.Pod{mk("p1", def, 10, ""), mk("p2", def, 10, "")},
			wantErr: "all pods in a single pod group should have the same priority as the pod group's priority, got 10 and 9"},
		{name: "success when new pods match scheduled pods scheduler name and priority", prio: 10,
			scheduled: []*api.Pod{mk("p2", def, 10, "")}, pods: []*api.Pod{mk("p1", def, 10, "")}},
		{name: "failure when new pod has different scheduler name than scheduled pod", prio: 10,
			scheduled: []*api.Pod{mk("p2", "sched2", 10, "")}, pods: []*api.Pod{mk("p1", def, 10, "")},
			wantErr: `all pods in a single pod group should have the same .spec.schedulerName set, got: "sched2" and "default-scheduler"`},
		{name: "failure when new pod has different priority than scheduled pod", prio: 10,
			scheduled: []*api.Pod{mk("p2", def, 9, "")}, pods: []*api.Pod{mk("p1", def, 10, "")},
			wantErr: "all pods in a single pod group should have the same priority as the pod group's priority, got 9 and 10"},
		{name: "success when preemption policies between pods and podgroup do not match but PodGroupPreemptionPolicy is disabled",
			pods: []*api.Pod{mk("p1", def, 0, api.PreemptLowerPriority), mk("p2", def, 0, api.PreemptLowerPriority)}},
		{name: "failure when preemption policies do not match across pods and PodGroupPreemptionPolicy is disabled",
			pods:    []*api.Pod{mk("p1", def, 0, api.PreemptLowerPriority), mk("p2", def, 0, api.PreemptNever)},
			wantErr: "all pods in a single pod group should have the same preemption policy, got Never and PreemptLowerPriority"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := gangGroup("pg", 1)
			pg.Spec.Priority = &tt.prio
			s := gangScheduler(t, []*api.Node{gangNode("node1", "8")}, []*api.PodGroup{pg}, "GenericWorkload=true")
			for _, p := range tt.scheduled {
				if err := s.snapshot.AssumePod(p, "node1"); err != nil {
					t.Fatal(err)
				}
			}
			var members []*entry
			for _, p := range tt.pods {
				members = append(members, &entry{qpi: framework.QueuedPodInfo{Pod: p}})
			}
			err := s.validatePodGroup(pg, podgroup.Key{Namespace: "default", Name: "pg"}, members)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestSubmitPodGroupAlgorithmResult ports the rows of upstream's
// TestSubmitPodGroupAlgorithmResult about the pods (which are bound,
// which go back to the queue, and where: the active queue after a
// success, the backoff after a failure, as AddAttemptedPodGroupIfNeeded
// requeues them); TestPodGroupCondition pins the condition.
func TestSubmitPodGroupAlgorithmResult(t *testing.T) {
	ok := func() memberResult { return memberResult{res: Decision{Node: "node1"}} }
	rejected := func() memberResult {
		return memberResult{status: framework.NewStatus(framework.Unschedulable), err: &FitError{NumAllNodes: 1}}
	}
	failed := func() memberResult {
		return memberResult{status: framework.NewStatus(framework.Error, "plugin returned error"), err: errors.New("plugin returned error")}
	}
	tests := []struct {
		name       string
		status     *framework.Status
		pods       map[string]memberResult
		wantBound  []string
		wantFailed []string
	}{
		{name: "All pods feasible", pods: map[string]memberResult{"p1": ok(), "p2": ok(), "p3": ok()}, wantBound: []string{"p1", "p2", "p3"}},
		{name: "All pods feasible, but podGroup unschedulable", status: framework.NewStatus(framework.Unschedulable, "not enough capacity for the gang"),
			pods: map[string]memberResult{"p1": ok(), "p2": ok(), "p3": ok()}, wantFailed: []string{"p1", "p2", "p3"}},
		{name: "One unschedulable", pods: map[string]memberResult{"p1": ok(), "p2": rejected(), "p3": ok()},
			wantBound: []string{"p1", "p3"}, wantFailed: []string{"p2"}},
		{name: "All pods unschedulable", status: framework.NewStatus(framework.Unschedulable, "0/3 nodes are available: insufficient cpu"),
			pods: map[string]memberResult{"p1": rejected(), "p2": rejected(), "p3": rejected()}, wantFailed: []string{"p1", "p2", "p3"}},
		{name: "Error for one pod", status: framework.NewStatus(framework.Error, "plugin returned error"),
			pods: map[string]memberResult{"p1": ok(), "p2": failed(), "p3": failed()}, wantFailed: []string{"p1", "p2", "p3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := gangScheduler(t, []*api.Node{gangNode("node1", "8")}, []*api.PodGroup{gangGroup("pg", 1)}, "GenericWorkload=true")
			q := newQueue()
			var members []*entry
			out := groupResult{status: tt.status}
			for _, n := range []string{"p1", "p2", "p3"} {
				e := q.add(context.Background(), s, gangPod(n, "1", "pg"))
				q.take(e)
				members = append(members, e)
				r := tt.pods[n]
				r.e = e
				out.pods = append(out.pods, r)
			}
			pg, _ := handle{s}.PodGroup(podgroup.Key{Namespace: "default", Name: "pg"})
			if _, err := s.submitGroup(q, pg, podgroup.Key{Namespace: "default", Name: "pg"}, members, out, "", nil); err != nil {
				t.Fatal(err)
			}
			var bound, failed []string
			for _, e := range members {
				if e.where == isPlaced {
					bound = append(bound, e.qpi.Pod.Name)
				} else if e.err != nil {
					// Back in the queue with its error: active again
					// after a success (upstream's "One unschedulable"
					// expects p2 in the active queue), backing off
					// after a failure.
					failed = append(failed, e.qpi.Pod.Name)
					if succeeded := tt.status.IsSuccess(); succeeded != (e.where == inActive) || !succeeded != e.backoff {
						t.Errorf("%s: where %d, backoff %v after a group status %v", e.qpi.Pod.Name, e.where, e.backoff, tt.status)
					}
				}
			}
			if !slices.Equal(bound, tt.wantBound) || !slices.Equal(failed, tt.wantFailed) {
				t.Errorf("bound %v failed %v, want %v and %v", bound, failed, tt.wantBound, tt.wantFailed)
			}
		})
	}
}
