package scheduler

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestDecisionUnverified: a decision about a pod using a feature whose
// plugin the registry lacks carries the mark, in Schedule's Decision,
// Explain's and Unverified; with the fields WithUnmodelledFields names;
// and no mark once the plugin is there.
func TestDecisionUnverified(t *testing.T) {
	snap, err := cluster.NewSnapshot(makeNodes("n1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	pod := makePod("p")
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.ScheduleAnyway}}
	claims := makePod("c")
	lack := func(names ...string) Option {
		return func(o *options) {
			for _, n := range names {
				delete(o.registry, n)
			}
		}
	}
	unmodelled := WithUnmodelledFields(func(p *api.Pod) []string {
		if p.Name == "c" {
			return []string{"spec.resourceClaims"}
		}
		return nil
	})
	s, err := New(snap, lack("PodTopologySpread", "DynamicResources"), unmodelled)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	want := []string{"uses topologySpreadConstraints (PodTopologySpread not implemented)"}
	d, _ := s.Schedule(ctx, pod)
	ex, _ := s.Explain(ctx, pod)
	for name, got := range map[string][]string{"Schedule": d.Unverified, "Explain": ex.Unverified, "Unverified": s.Unverified(pod)} {
		if !cmp.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got, want := s.Unverified(claims), []string{"uses resourceClaims (DynamicResources not implemented)"}; !cmp.Equal(got, want) {
		t.Errorf("unmodelled claims: %q, want %q", got, want)
	}
	// A fork marks as its origin does: what-ifs run on forks.
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := f.Unverified(claims), s.Unverified(claims); !cmp.Equal(got, want) {
		t.Errorf("fork, unmodelled claims: %q, want %q", got, want)
	}
	full, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if d, _ := full.Schedule(ctx, pod); d.Unverified != nil {
		t.Errorf("with every plugin: %q", d.Unverified)
	}
}
