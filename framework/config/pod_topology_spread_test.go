package config

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
)

// Rows of upstream's TestValidatePodTopologySpreadArgs
// (pkg/scheduler/apis/config/validation/validation_pluginargs_test.go),
// with the messages upstream prints.
func TestPodTopologySpreadArgsValidate(t *testing.T) {
	c := func(skew int32, key string, when api.UnsatisfiableConstraintAction) api.TopologySpreadConstraint {
		return api.TopologySpreadConstraint{MaxSkew: skew, TopologyKey: key, WhenUnsatisfiable: when}
	}
	tests := []struct {
		name string
		args PodTopologySpreadArgs
		want string
	}{
		{"valid constraints", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(1, "node", api.ScheduleAnyway), c(2, "zone", api.DoNotSchedule)}}, ""},
		{"maxSkew less than zero", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(-1, "node", api.DoNotSchedule)}}, "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)"},
		{"empty topology key", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(1, "", api.DoNotSchedule)}}, "defaultConstraints[0].topologyKey: Required value: can not be empty"},
		{"WhenUnsatisfiable is empty", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(1, "node", "")}}, "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"},
		{"WhenUnsatisfiable contains unsupported action", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(1, "node", "unknown action")}}, `defaultConstraints[0].whenUnsatisfiable: Unsupported value: "unknown action": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		{"duplicated constraints", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			c(1, "node", api.DoNotSchedule), c(2, "node", api.DoNotSchedule)}}, `defaultConstraints[1]: Duplicate value: "{node, DoNotSchedule}"`},
		{"label selector present", PodTopologySpreadArgs{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: "key", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}},
			"defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod"},
		{"list default constraints, no constraints", PodTopologySpreadArgs{DefaultingType: ListDefaulting}, ""},
		{"system default constraints", PodTopologySpreadArgs{DefaultingType: SystemDefaulting}, ""},
		{"wrong constraints", PodTopologySpreadArgs{DefaultingType: SystemDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{c(1, "zone", api.ScheduleAnyway)}},
			`defaultingType: Invalid value: "System": when .defaultConstraints are not empty`},
		{"unknown defaulting type", PodTopologySpreadArgs{DefaultingType: "Unknown"},
			`defaultingType: Unsupported value: "Unknown": supported values: "System", "List"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprint(tt.args.Validate())
			if tt.want == "" && got != "<nil>" || tt.want != "" && got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPodTopologySpreadArgsFromArgs(t *testing.T) {
	for _, args := range []any{nil, (*PodTopologySpreadArgs)(nil), PodTopologySpreadArgs{}, &PodTopologySpreadArgs{}} {
		a, err := ArgsFrom[PodTopologySpreadArgs](args)
		if err != nil || a.DefaultingType != SystemDefaulting {
			t.Errorf("%T: %+v, %v", args, a, err)
		}
	}
	if _, err := ArgsFrom[PodTopologySpreadArgs](NodeAffinityArgs{}); err == nil || err.Error() != "want args to be of type PodTopologySpreadArgs, got config.NodeAffinityArgs" {
		t.Errorf("wrong type: %v", err)
	}
}

func ExamplePodTopologySpreadArgs_Validate() {
	args := PodTopologySpreadArgs{DefaultingType: SystemDefaulting, DefaultConstraints: SystemDefaultConstraints()}
	fmt.Println(args.Validate())
	// Output: defaultingType: Invalid value: "System": when .defaultConstraints are not empty
}
