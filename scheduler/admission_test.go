package scheduler

import (
	"context"
	"errors"
	"testing"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

// TestWithAdmission: a hand-written pod with only a 7-cpu limit requests
// nothing as it is, and lands on a 4-cpu node; admitted as the API server
// would (requests defaulted from limits), it fits nowhere.
func TestWithAdmission(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	node.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "big", Namespace: "default"}}
	pod.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
		Limits: api.ResourceList{"cpu": resource.MustParse("7")}}}}
	for _, admit := range []bool{false, true} {
		snap, err := cluster.NewSnapshot([]*api.Node{node}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var opts []Option
		if admit {
			opts = append(opts, WithAdmission(admission.Policies{}))
		}
		s, err := New(snap, opts...)
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.Schedule(context.Background(), pod)
		var fit *FitError
		switch {
		case !admit && (err != nil || d.Node != "n1"):
			t.Errorf("as written: %q, %v; want n1 (nothing requested)", d.Node, err)
		case admit && !errors.As(err, &fit):
			t.Errorf("admitted: %q, %v; want a FitError", d.Node, err)
		case admit && fit.Error() != "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.":
			t.Errorf("admitted: %v", err)
		}
		ex, err := s.Explain(context.Background(), pod)
		if err != nil {
			t.Fatal(err)
		}
		if got := ex.Outcome(); admit != (got == OutcomeUnschedulable) {
			t.Errorf("admit %v: Explain's outcome %v", admit, got)
		}
		if pod.Spec.Containers[0].Resources.Requests != nil {
			t.Fatal("the caller's pod was changed")
		}
		s.Close()
	}
}
