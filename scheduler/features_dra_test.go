package scheduler

import (
	"testing"

	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
)

// TestFractionalCapacityGate pins that --feature-gates
// DRAFractionalCapacityRange=true reaches DynamicResources' allocator and
// that the default (v1.37.2: off) leaves it off.
func TestFractionalCapacityGate(t *testing.T) {
	for _, tc := range []struct {
		gates string
		want  bool
	}{{"", false}, {"DRAFractionalCapacityRange=true", true}, {"DRAFractionalCapacityRange=false", false}} {
		g, err := featuregates.Parse(tc.gates)
		if err != nil {
			t.Fatalf("%q: %v", tc.gates, err)
		}
		snap, err := cluster.NewSnapshot(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(snap, WithFeatureGates(g))
		if err != nil {
			t.Fatalf("%q: %v", tc.gates, err)
		}
		prof, _ := s.Profile("")
		pl, ok := prof.Plugin(dynamicresources.Name)
		if !ok {
			t.Fatalf("%q: no DynamicResources in the default profile", tc.gates)
		}
		if got := pl.(*dynamicresources.DynamicResources).Features().FractionalCapacityRange; got != tc.want {
			t.Errorf("%q: FractionalCapacityRange = %v, want %v", tc.gates, got, tc.want)
		}
		s.Close()
	}
}
