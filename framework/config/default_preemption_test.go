package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func i32(v int32) *int32 { return &v }

// Pins upstream validation_pluginargs_test.go TestValidateDefaultPreemptionArgs.
func TestValidateDefaultPreemptionArgs(t *testing.T) {
	tests := []struct {
		name     string
		pct, abs int32
		want     []FieldError
	}{
		{name: "valid args (default)", pct: 10, abs: 100},
		{name: "negative minCandidateNodesPercentage", pct: -1, abs: 100,
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "minCandidateNodesPercentage"}}},
		{name: "minCandidateNodesPercentage over 100", pct: 900, abs: 100,
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "minCandidateNodesPercentage"}}},
		{name: "negative minCandidateNodesAbsolute", pct: 20, abs: -1,
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "minCandidateNodesAbsolute"}}},
		{name: "all zero", pct: 0, abs: 0,
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "minCandidateNodesPercentage"}, {Type: ErrorTypeInvalid, Field: "minCandidateNodesAbsolute"}}},
		{name: "both negative", pct: -1, abs: -1,
			want: []FieldError{{Type: ErrorTypeInvalid, Field: "minCandidateNodesPercentage"}, {Type: ErrorTypeInvalid, Field: "minCandidateNodesAbsolute"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := DefaultPreemptionArgs{MinCandidateNodesPercentage: i32(tc.pct), MinCandidateNodesAbsolute: i32(tc.abs)}
			if diff := cmp.Diff(tc.want, fieldOnly(args.Validate())); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
}

// The messages, byte for byte as upstream's field errors print them.
func TestDefaultPreemptionArgsMessages(t *testing.T) {
	tests := []struct {
		pct, abs int32
		want     string
	}{
		{101, 100, "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
		{10, -3, "minCandidateNodesAbsolute: Invalid value: -3: not in valid range [0, inf)"},
		{0, 0, "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute, " +
			"minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage]"},
	}
	for _, tc := range tests {
		_, err := DefaultPreemptionArgsFrom(&DefaultPreemptionArgs{MinCandidateNodesPercentage: i32(tc.pct), MinCandidateNodesAbsolute: i32(tc.abs)})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d/%d: got %v, want %s", tc.pct, tc.abs, err, tc.want)
		}
	}
}

func TestDefaultPreemptionArgsFrom(t *testing.T) {
	for _, args := range []any{nil, DefaultPreemptionArgs{}, &DefaultPreemptionArgs{}, (*DefaultPreemptionArgs)(nil)} {
		a, err := DefaultPreemptionArgsFrom(args)
		if err != nil {
			t.Fatalf("%T: %v", args, err)
		}
		if *a.MinCandidateNodesPercentage != 10 || *a.MinCandidateNodesAbsolute != 100 {
			t.Errorf("%T: defaults %d/%d", args, *a.MinCandidateNodesPercentage, *a.MinCandidateNodesAbsolute)
		}
	}
	// Only the nil field is defaulted; the input is not modified.
	in := &DefaultPreemptionArgs{MinCandidateNodesAbsolute: i32(0)}
	a, err := DefaultPreemptionArgsFrom(in)
	if err != nil || *a.MinCandidateNodesPercentage != 10 || *a.MinCandidateNodesAbsolute != 0 || in.MinCandidateNodesPercentage != nil {
		t.Errorf("partial defaults: %+v %v", a, err)
	}
	if _, err := DefaultPreemptionArgsFrom(3); err == nil || err.Error() != "got args of type int, want *DefaultPreemptionArgs" {
		t.Errorf("wrong type: %v", err)
	}
}
