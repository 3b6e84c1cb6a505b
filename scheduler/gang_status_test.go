package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/podgroup"
)

// groupCondition is the PodGroupInitiallyScheduled condition of the
// snapshot's PodGroup name, nil if it has none.
func groupCondition(t *testing.T, s *Scheduler, name string) *api.Condition {
	t.Helper()
	pg, ok := handle{s}.PodGroup(podgroup.Key{Namespace: "default", Name: name})
	if !ok {
		t.Fatalf("PodGroup %s missing", name)
	}
	for _, c := range pg.Status.Conditions {
		if c.Type == api.PodGroupInitiallyScheduled {
			return &c
		}
	}
	return nil
}

// TestPodGroupCondition pins kube-scheduler's updatePodGroupCondition
// (schedule_one_podgroup.go): after a cycle the PodGroup gets
// PodGroupInitiallyScheduled True/Scheduled, or False/Unschedulable with
// the group's status message, or False/SchedulerError with the error; a
// True condition is not regressed by a later cycle for extra pods.
func TestPodGroupCondition(t *testing.T) {
	ctx := context.Background()
	s := gangScheduler(t, []*api.Node{gangNode("n1", "4")},
		[]*api.PodGroup{gangGroup("fits", 2), gangGroup("big", 2), gangGroup("mixed", 2)}, "GenericWorkload=true")
	low := gangPod("mixed-1", "1", "mixed")
	prio := int32(5)
	low.Spec.Priority = &prio
	if _, err := s.Simulate(ctx, []*api.Pod{
		gangPod("fits-0", "1", "fits"), gangPod("fits-1", "1", "fits"),
		gangPod("big-0", "2", "big"), gangPod("big-1", "3", "big"),
		gangPod("mixed-0", "1", "mixed"), low,
	}); err != nil {
		t.Fatal(err)
	}
	if c := groupCondition(t, s, "fits"); c == nil || c.Status != api.ConditionTrue || c.Reason != "Scheduled" || c.Message != "" {
		t.Errorf("fits: %+v", c)
	}
	want := "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor"
	if c := groupCondition(t, s, "big"); c == nil || c.Status != api.ConditionFalse || c.Reason != api.PodGroupReasonUnschedulable || c.Message != want {
		t.Errorf("big: %+v", c)
	}
	want = "all pods in a single pod group should have the same priority as the pod group's priority, got 5 and 0"
	if c := groupCondition(t, s, "mixed"); c == nil || c.Status != api.ConditionFalse || c.Reason != api.PodGroupReasonSchedulerError || c.Message != want {
		t.Errorf("mixed: %+v", c)
	}
	// A third pod of "fits" that fits nowhere: its cycle fails, the
	// condition stays True.
	if _, err := s.Simulate(ctx, []*api.Pod{gangPod("fits-2", "8", "fits")}); err != nil {
		t.Fatal(err)
	}
	if c := groupCondition(t, s, "fits"); c == nil || c.Status != api.ConditionTrue {
		t.Errorf("fits after a failed extra pod: %+v", c)
	}
}

// TestGangBackoff: a failed gang backs off instead of waiting for an
// event, as upstream's AddAttemptedPodGroupIfNeeded puts it in the
// backoff queue (PodGroups have no queueing hints in v1.37): the pods
// created with it run first, and the gang is retried once the active
// queue is empty, on the cluster as they left it. Here g needs a pod
// app=x on its node; x arrives after g's first cycle, then y (lower
// priority) takes the room g needed before g's backoff is over.
func TestGangBackoff(t *testing.T) {
	s := gangScheduler(t, []*api.Node{gangNode("n1", "4")}, []*api.PodGroup{gangGroup("g", 2)}, "GenericWorkload=true")
	prio := func(p *api.Pod, v int32) *api.Pod { p.Spec.Priority = &v; return p }
	var pods []*api.Pod
	for i := range 2 {
		p := prio(gangPod(fmt.Sprintf("g-%d", i), "1", "g"), 100)
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "kubernetes.io/hostname"}}}}
		pods = append(pods, p)
	}
	x := prio(gangPod("x", "1", ""), 50)
	x.Labels = map[string]string{"app": "x"}
	pods = append(pods, x, prio(gangPod("y", "2", ""), 0))
	group := gangGroup("g", 2)
	group.Spec.Priority = ptr(int32(100))
	if err := s.snapshot.UpdateObject(group); err != nil {
		t.Fatal(err)
	}
	got, err := s.Simulate(context.Background(), pods)
	if err != nil {
		t.Fatal(err)
	}
	var where []string
	for _, p := range got {
		where = append(where, p.Pod.Name+"="+p.Node)
	}
	if w := fmt.Sprint(where); w != "[g-0= g-1= x=n1 y=n1]" {
		t.Fatalf("placements %s\n%s", w, outcomes(got))
	}
	// Tried twice: its first cycle, and once after the queue emptied.
	if got[0].Attempts != 2 {
		t.Fatalf("g-0 attempts %d, want 2", got[0].Attempts)
	}
}
