package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// Pins upstream validation_pluginargs_test.go TestValidateNodeAffinityArgs.
func TestValidateNodeAffinityArgs(t *testing.T) {
	tests := []struct {
		name string
		args NodeAffinityArgs
		want []FieldError
	}{
		{name: "empty"},
		{
			name: "valid added affinity",
			args: NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
					MatchExpressions: []api.NodeSelectorRequirement{{Key: "label-1", Operator: api.NodeSelectorOpIn, Values: []string{"label-1-val"}}},
				}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{
					MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-1"}}},
				}}},
			}},
		},
		{
			name: "invalid added affinity",
			args: NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
					MatchExpressions: []api.NodeSelectorRequirement{{Key: "invalid/label/key", Operator: api.NodeSelectorOpIn, Values: []string{"label-1-val"}}},
				}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{
					MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-1", "node-2"}}},
				}}},
			}},
			want: []FieldError{
				{Type: ErrorTypeInvalid, Field: "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key"},
				{Type: ErrorTypeInvalid, Field: "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, fieldOnly(tc.args.Validate())); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
	if _, err := ArgsFrom[NodeAffinityArgs](3); err == nil || err.Error() != "args are not of type NodeAffinityArgs, got int" {
		t.Errorf("wrong type: %v", err)
	}
	for _, args := range []any{nil, NodeAffinityArgs{}, &NodeAffinityArgs{}} {
		if _, err := ArgsFrom[NodeAffinityArgs](args); err != nil {
			t.Errorf("%T: %v", args, err)
		}
	}
}
