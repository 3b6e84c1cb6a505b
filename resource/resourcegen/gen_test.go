package resourcegen_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// TestLimitRangeBoundsOrdered: within an item, min ≤ defaultRequest ≤
// default ≤ max for every resource, and ratios are at least 1.
func TestLimitRangeBoundsOrdered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lr := resourcegen.LimitRange().Draw(t, "lr")
		for _, it := range lr.Spec.Limits {
			chain := []api.ResourceList{it.Min, it.DefaultRequest, it.Default, it.Max}
			for i := range chain {
				for j := i + 1; j < len(chain); j++ {
					if ok, over := resource.LessThanOrEqual(chain[i], chain[j]); !ok {
						t.Fatalf("bounds out of order for %v: %+v", over, it)
					}
				}
			}
			for k, r := range it.MaxLimitRequestRatio {
				if r.Cmp(resource.MustParse("1")) < 0 {
					t.Fatalf("ratio %s = %s below 1", k, r.String())
				}
			}
		}
	})
}

// TestContainersHaveValidRequirements: every drawn container passes
// validation on its own, and sidecars are only drawn as init containers.
func TestContainersHaveValidRequirements(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := resourcegen.Container().Draw(t, "c")
		if c.RestartPolicy != nil {
			t.Fatal("regular container with a restart policy")
		}
		p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{c}, InitContainers: []api.Container{resourcegen.InitContainer().Draw(t, "init")}}}
		if err := resource.Validate(p); err != nil {
			t.Fatal(err)
		}
	})
}
