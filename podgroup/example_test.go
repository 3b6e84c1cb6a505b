package podgroup_test

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/podgroup"
)

func ExampleValidatePodGroup() {
	g := features.MustParse("GenericWorkload=true")
	pg := &api.PodGroup{Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: 0}}}}
	podgroup.DropDisabledPodGroupFields(pg, g)
	fmt.Println(podgroup.ValidatePodGroup(pg, g))
	// Output:
	// spec.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1
}
