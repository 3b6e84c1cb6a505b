package admission

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// The API server merges a spread constraint's matchLabelKeys into its
// selector on create (pkg/registry/core/pod/strategy.go
// mutateTopologySpreadConstraints): keys the pod lacks are skipped, nil
// selectors stay nil, and admitting twice changes nothing.
func TestAdmitMergesSpreadLabelKeys(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web", "pod-template-hash": "abc"}}}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"pod-template-hash", "missing"}},
		{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.ScheduleAnyway, MatchLabelKeys: []string{"app"}},
	}
	got, err := Admit(pod, Policies{})
	if err != nil {
		t.Fatal(err)
	}
	want := []api.LabelSelectorRequirement{{Key: "pod-template-hash", Operator: api.LabelSelectorOpIn, Values: []string{"abc"}}}
	if diff := cmp.Diff(want, got.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions); diff != "" {
		t.Errorf("merged expressions (-want,+got):\n%s", diff)
	}
	if got.Spec.TopologySpreadConstraints[1].LabelSelector != nil {
		t.Error("a nil selector got expressions")
	}
	if pod.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions != nil {
		t.Error("Admit modified its argument")
	}
	again, err := Admit(got, Policies{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got.Spec.TopologySpreadConstraints, again.Spec.TopologySpreadConstraints); diff != "" {
		t.Errorf("admitting twice changed the constraints:\n%s", diff)
	}
}
