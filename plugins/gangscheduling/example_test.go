package gangscheduling_test

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
)

func ExamplePlacementFeasible() {
	pg := &api.PodGroup{Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: 8}}}}
	fmt.Println(gangscheduling.PlacementFeasible(pg, gangscheduling.Progress{Remaining: 2, Scheduled: 5}).Message())
	// Output:
	// minCount (8) cannot be satisfied: 5 scheduled, 2 remaining
}
