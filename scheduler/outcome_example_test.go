package scheduler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// A hand-written pod with only a cpu limit: as written it requests
// nothing and lands on the 4-cpu node; admitted as the API server would
// (WithAdmission), it requests its 7-cpu limit and fits nowhere. Each
// decision's Outcome is counted by a Summary.
func ExampleWithAdmission() {
	snap, _ := cluster.NewSnapshot([]*api.Node{node("n1", "4", nil)}, nil)
	big := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "big", Namespace: "default"}}
	big.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
		Limits: api.ResourceList{api.ResourceCPU: quantity.MustParse("7")}}}}
	var sum scheduler.Summary
	for _, opts := range [][]scheduler.Option{nil, {scheduler.WithAdmission(admission.Policies{})}} {
		s, _ := scheduler.New(snap, opts...)
		d, err := s.Schedule(context.Background(), big)
		fmt.Printf("%v on %q\n", d.Outcome(err), d.Node)
		sum.Add(d.Outcome(err), false)
		s.Close()
	}
	fmt.Println(sum)
	// Output:
	// placed on "n1"
	// unschedulable on ""
	// 2 pod(s): 1 placed, 0 preempting, 1 unschedulable, 0 gated
}
