package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fieldOnly reduces an error to the (type, field) pairs of its field
// errors, as upstream's tests compare with ignoreBadValueDetail.
func fieldOnly(err error) []FieldError {
	if err == nil {
		return nil
	}
	var l ErrorList
	if !errors.As(err, &l) {
		return []FieldError{{Detail: "not an ErrorList: " + err.Error()}}
	}
	out := make([]FieldError, len(l))
	for i, e := range l {
		out[i] = FieldError{Type: e.Type, Field: e.Field}
	}
	return out
}

var defaultStrategy = &ScoringStrategy{
	Type:      LeastAllocated,
	Resources: []ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
}

// Pins upstream validation_pluginargs_test.go TestValidateFitArgs.
func TestValidateFitArgs(t *testing.T) {
	tests := []struct {
		name   string
		args   NodeResourcesFitArgs
		expect string
	}{
		{"IgnoredResources: too long value", NodeResourcesFitArgs{IgnoredResources: []string{"longvalue" + strings.Repeat("a", 64)}, ScoringStrategy: defaultStrategy}, "name part must be no more than 63 bytes"},
		{"IgnoredResources: name is empty", NodeResourcesFitArgs{IgnoredResources: []string{"example.com/"}, ScoringStrategy: defaultStrategy}, "name part must be non-empty"},
		{"IgnoredResources: name has too many slash", NodeResourcesFitArgs{IgnoredResources: []string{"example.com/aaa/bbb"}, ScoringStrategy: defaultStrategy}, "a valid label key must consist of"},
		{"IgnoredResources: valid args", NodeResourcesFitArgs{IgnoredResources: []string{"example.com"}, ScoringStrategy: defaultStrategy}, ""},
		{"IgnoredResourceGroups: valid args ", NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com"}, ScoringStrategy: defaultStrategy}, ""},
		{"IgnoredResourceGroups: illegal args", NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com/"}, ScoringStrategy: defaultStrategy}, "name part must be non-empty"},
		{"IgnoredResourceGroups: name is too long", NodeResourcesFitArgs{IgnoredResourceGroups: []string{strings.Repeat("a", 64)}, ScoringStrategy: defaultStrategy}, "name part must be no more than 63 bytes"},
		{"IgnoredResourceGroups: name cannot be contain slash", NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com/aa"}, ScoringStrategy: defaultStrategy}, "resource group name can't contain '/'"},
		{"ScoringStrategy: field is required", NodeResourcesFitArgs{}, "ScoringStrategy field is required"},
		{"ScoringStrategy: type is unsupported", NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: "Invalid"}}, `Unsupported value: "Invalid"`},
		{"ScoringStrategy: requestedToCapacityRatio field is missing", NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio}}, "must be specified when type is RequestedToCapacityRatio"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.args.Validate()
			switch {
			case err != nil && tc.expect == "":
				t.Errorf("unexpected error %v", err)
			case err == nil && tc.expect != "":
				t.Errorf("expected error containing %q", tc.expect)
			case err != nil && !strings.Contains(err.Error(), tc.expect):
				t.Errorf("error %q does not contain %q", err, tc.expect)
			}
		})
	}
}

// Exact messages, formatted as apimachinery's field.Error and aggregate.
func TestValidateMessages(t *testing.T) {
	tests := []struct {
		name string
		args NodeResourcesFitArgs
		want string
	}{
		{
			name: "required strategy",
			args: NodeResourcesFitArgs{},
			want: "scoringStrategy: Required value: ScoringStrategy field is required",
		},
		{
			name: "unsupported type",
			args: NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: "Invalid"}},
			want: `scoringStrategy.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`,
		},
		{
			name: "forbidden shape",
			args: NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{Name: "cpu", Weight: 1}}, RequestedToCapacityRatio: &RequestedToCapacityRatioParam{}}},
			want: "scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio",
		},
		{
			name: "two weights and a group",
			args: NodeResourcesFitArgs{
				IgnoredResourceGroups: []string{"example.com/aa"},
				ScoringStrategy:       &ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{Name: "cpu", Weight: 0}, {Name: "memory", Weight: 101}}},
			},
			want: `[ignoredResourceGroups[0]: Invalid value: "example.com/aa": resource group name can't contain '/', ` +
				`scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100], ` +
				`scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of memory not in valid range (0, 100]]`,
		},
		{
			name: "shape",
			args: NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio, Resources: []ResourceSpec{{Name: "cpu", Weight: 1}},
				RequestedToCapacityRatio: &RequestedToCapacityRatioParam{Shape: []UtilizationShapePoint{{Utilization: 10, Score: 11}, {Utilization: 5, Score: 1}}}}},
			want: `[scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 5: values must be sorted in increasing order, ` +
				`scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]]`,
		},
		{
			name: "empty shape",
			args: NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio, Resources: []ResourceSpec{{Name: "cpu", Weight: 1}},
				RequestedToCapacityRatio: &RequestedToCapacityRatioParam{}}},
			want: "scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.args.Validate()
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Pins upstream TestValidateLeastAllocatedScoringStrategy and
// TestValidateMostAllocatedScoringStrategy (same cases for both types).
func TestValidateAllocatedScoringStrategy(t *testing.T) {
	tests := []struct {
		name      string
		resources []ResourceSpec
		want      []FieldError
	}{
		{name: "default config"},
		{name: "multi valid resources", resources: []ResourceSpec{{"cpu", 1}, {"memory", 10}}},
		{name: "weight less than min", resources: []ResourceSpec{{"cpu", 0}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[0].weight"}}},
		{name: "weight greater than max", resources: []ResourceSpec{{"cpu", 101}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[0].weight"}}},
		{name: "multi invalid resources", resources: []ResourceSpec{{"cpu", 0}, {"memory", 101}}, want: []FieldError{
			{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[0].weight"},
			{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[1].weight"},
		}},
	}
	for _, typ := range []ScoringStrategyType{LeastAllocated, MostAllocated} {
		for _, tc := range tests {
			t.Run(string(typ)+"/"+tc.name, func(t *testing.T) {
				args := NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: typ, Resources: tc.resources}}
				if diff := cmp.Diff(tc.want, fieldOnly(args.Validate())); diff != "" {
					t.Errorf("(-want,+got):\n%s", diff)
				}
			})
		}
	}
}

// Pins upstream TestValidateRequestedToCapacityRatioScoringStrategy.
func TestValidateRequestedToCapacityRatioScoringStrategy(t *testing.T) {
	defaultShape := []UtilizationShapePoint{{Utilization: 30, Score: 3}}
	shapePath := "scoringStrategy.requestedToCapacityRatio.shape"
	tests := []struct {
		name      string
		resources []ResourceSpec
		shapes    []UtilizationShapePoint
		want      []FieldError
	}{
		{name: "no shapes", want: []FieldError{{Type: ErrorTypeRequired, Field: shapePath}}},
		{name: "weight greater than max", shapes: defaultShape, resources: []ResourceSpec{{"cpu", 101}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[0].weight"}}},
		{name: "weight less than min", shapes: defaultShape, resources: []ResourceSpec{{"cpu", 0}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: "scoringStrategy.resources[0].weight"}}},
		{name: "valid shapes", shapes: defaultShape},
		{name: "utilization less than min", shapes: []UtilizationShapePoint{{-1, 3}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[0].utilization"}}},
		{name: "utilization greater than max", shapes: []UtilizationShapePoint{{101, 3}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[0].utilization"}}},
		{name: "duplicated utilization values", shapes: []UtilizationShapePoint{{10, 3}, {10, 3}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[1].utilization"}}},
		{name: "increasing utilization values", shapes: []UtilizationShapePoint{{10, 3}, {20, 3}, {30, 3}}},
		{name: "non-increasing utilization values", shapes: []UtilizationShapePoint{{10, 3}, {20, 3}, {15, 3}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[2].utilization"}}},
		{name: "score less than min", shapes: []UtilizationShapePoint{{10, -1}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[0].score"}}},
		{name: "score greater than max", shapes: []UtilizationShapePoint{{10, 11}}, want: []FieldError{{Type: ErrorTypeInvalid, Field: shapePath + "[0].score"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{
				Type: RequestedToCapacityRatio, Resources: tc.resources,
				RequestedToCapacityRatio: &RequestedToCapacityRatioParam{Shape: tc.shapes},
			}}
			if diff := cmp.Diff(tc.want, fieldOnly(args.Validate())); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
}

// Pins upstream TestValidateNodeResourcesBalancedAllocationArgs.
func TestValidateNodeResourcesBalancedAllocationArgs(t *testing.T) {
	tests := []struct {
		name string
		args NodeResourcesBalancedAllocationArgs
		want []FieldError
	}{
		{name: "valid config", args: NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"memory", 1}}}},
		{name: "invalid config", args: NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 2}, {"memory", 1}}},
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "resources[0].weight"}}},
		{name: "repeated resources", args: NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"cpu", 1}}},
			want: []FieldError{{Type: ErrorTypeDuplicate, Field: "resources[1].name"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, fieldOnly(tc.args.Validate())); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
	err := (&NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"cpu", 2}}}).Validate()
	want := `[resources[1].name: Duplicate value: "cpu", resources[1].weight: Invalid value: 2: must be 1]`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// Pins upstream v1 defaults_test.go (TestPluginArgsDefaults) for the
// NodeResourcesFit and NodeResourcesBalancedAllocation cases.
func TestSetDefaults(t *testing.T) {
	fit := []struct {
		name    string
		in, out NodeResourcesFitArgs
	}{
		{"NodeResourcesFitArgs not set", NodeResourcesFitArgs{},
			NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{"cpu", 1}, {"memory", 1}}}}},
		{"NodeResourcesFitArgs Resources empty", NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated}},
			NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{"cpu", 1}, {"memory", 1}}}}},
		{"zero weight", NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{"cpu", 0}, {"memory", 3}}}},
			NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{"cpu", 1}, {"memory", 3}}}}},
		{"empty type kept", NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{}},
			NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Resources: []ResourceSpec{{"cpu", 1}, {"memory", 1}}}}},
	}
	for _, tc := range fit {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.SetDefaults()
			if diff := cmp.Diff(tc.out, tc.in); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
	ba := []struct {
		name    string
		in, out NodeResourcesBalancedAllocationArgs
	}{
		{"NodeResourcesBalancedAllocationArgs resources empty", NodeResourcesBalancedAllocationArgs{},
			NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"memory", 1}}}},
		{"NodeResourcesBalancedAllocationArgs with scalar resource", NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"scalar.io/scalar1", 1}}},
			NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"scalar.io/scalar1", 1}}}},
		{"NodeResourcesBalancedAllocationArgs with mixed resources", NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"scalar.io/scalar1", 1}}},
			NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"scalar.io/scalar1", 1}}}},
		{"NodeResourcesBalancedAllocationArgs have resource no weight", NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{Name: "cpu"}, {Name: "scalar.io/scalar0"}, {"scalar.io/scalar1", 1}}},
			NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{"cpu", 1}, {"scalar.io/scalar0", 1}, {"scalar.io/scalar1", 1}}}},
	}
	for _, tc := range ba {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.SetDefaults()
			if diff := cmp.Diff(tc.out, tc.in); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
}

func TestArgsFrom(t *testing.T) {
	// nil, value and pointer are accepted; the caller's args are not
	// modified.
	in := &NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{Name: "cpu"}}}}
	for _, args := range []any{nil, (*NodeResourcesFitArgs)(nil), *in, in} {
		got, err := ArgsFrom[NodeResourcesFitArgs](args)
		if err != nil || got.ScoringStrategy == nil || got.ScoringStrategy.Resources[0].Weight != 1 {
			t.Errorf("%T: got %+v, %v", args, got, err)
		}
	}
	if in.ScoringStrategy.Resources[0].Weight != 0 {
		t.Error("ArgsFrom modified its argument")
	}
	if _, err := ArgsFrom[NodeResourcesFitArgs](&NodeResourcesBalancedAllocationArgs{}); err == nil ||
		err.Error() != "want args to be of type NodeResourcesFitArgs, got *config.NodeResourcesBalancedAllocationArgs" {
		t.Errorf("wrong type: %v", err)
	}
	if _, err := ArgsFrom[NodeResourcesFitArgs](NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: "X"}}); err == nil {
		t.Error("invalid args accepted")
	}
	for _, args := range []any{nil, NodeResourcesBalancedAllocationArgs{}, &NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{Name: "cpu"}}}} {
		if _, err := ArgsFrom[NodeResourcesBalancedAllocationArgs](args); err != nil {
			t.Errorf("%T: %v", args, err)
		}
	}
	if _, err := ArgsFrom[NodeResourcesBalancedAllocationArgs](1); err == nil ||
		err.Error() != "want args to be of type NodeResourcesBalancedAllocationArgs, got int" {
		t.Errorf("wrong type: %v", err)
	}
	// Args as a document decodes them (the issue's
	// "want args to be of type NodeResourcesFitArgs, got map[string]interface {}").
	decoded := []any{
		map[string]any{"scoringStrategy": map[string]any{"type": "MostAllocated"}},
		json.RawMessage(`{"scoringStrategy":{"type":"MostAllocated"}}`),
		[]byte("scoringStrategy:\n  type: MostAllocated\n"),
	}
	for _, args := range decoded {
		got, err := ArgsFrom[NodeResourcesFitArgs](args)
		if err != nil || got.ScoringStrategy.Type != MostAllocated || len(got.ScoringStrategy.Resources) != 2 {
			t.Errorf("%T: got %+v, %v", args, got, err)
		}
	}
	_, err := ArgsFrom[NodeResourcesFitArgs](map[string]any{"scoringStrategy": map[string]any{"typo": "MostAllocated"}})
	if want := `strict decoding error: unknown field "scoringStrategy.typo"`; err == nil || err.Error() != want {
		t.Errorf("unknown field: got %v, want %s", err, want)
	}
}

func TestJSON(t *testing.T) {
	const doc = `{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"NodeResourcesFitArgs",
	"ignoredResources":["example.com/aaa"],"ignoredResourceGroups":["example.org"],
	"scoringStrategy":{"type":"RequestedToCapacityRatio","resources":[{"name":"cpu","weight":2},{"name":"memory"}],
	"requestedToCapacityRatio":{"shape":[{"utilization":0,"score":0},{"utilization":100,"score":10}]}}}`
	var a NodeResourcesFitArgs
	if err := json.Unmarshal([]byte(doc), &a); err != nil {
		t.Fatal(err)
	}
	want := NodeResourcesFitArgs{
		IgnoredResources: []string{"example.com/aaa"}, IgnoredResourceGroups: []string{"example.org"},
		ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio, Resources: []ResourceSpec{{"cpu", 2}, {"memory", 0}},
			RequestedToCapacityRatio: &RequestedToCapacityRatioParam{Shape: []UtilizationShapePoint{{0, 0}, {100, 10}}}},
	}
	want.APIVersion, want.Kind = "kubescheduler.config.k8s.io/v1", "NodeResourcesFitArgs"
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
	out, _ := json.Marshal(NodeResourcesBalancedAllocationArgs{Resources: []ResourceSpec{{Name: "cpu", Weight: 1}}})
	if got := string(out); got != `{"resources":[{"name":"cpu","weight":1}]}` {
		t.Errorf("marshal: %s", got)
	}
}

func ExampleNodeResourcesFitArgs_SetDefaults() {
	var args NodeResourcesFitArgs
	args.SetDefaults()
	fmt.Println(args.ScoringStrategy.Type, args.ScoringStrategy.Resources)
	// Output: LeastAllocated [{cpu 1} {memory 1}]
}

func ExampleNodeResourcesFitArgs_Validate() {
	args := NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{
		Type:      MostAllocated,
		Resources: []ResourceSpec{{Name: "cpu", Weight: 101}},
	}}
	fmt.Println(args.Validate())
	// Output: scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]
}
