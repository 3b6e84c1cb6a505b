package scheduler

import (
	"context"
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
