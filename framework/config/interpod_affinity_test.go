package config

import (
	"encoding/json"
	"errors"
	"testing"
)

func int32p(v int32) *int32 { return &v }

// upstream: validation_pluginargs_test.go TestValidateInterPodAffinityArgs.
func TestValidateInterPodAffinityArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    InterPodAffinityArgs
		wantErr string
	}{
		{name: "valid args", args: InterPodAffinityArgs{HardPodAffinityWeight: int32p(10)}},
		{name: "hardPodAffinityWeight less than min", args: InterPodAffinityArgs{HardPodAffinityWeight: int32p(-1)},
			wantErr: "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"},
		{name: "hardPodAffinityWeight more than max", args: InterPodAffinityArgs{HardPodAffinityWeight: int32p(101)},
			wantErr: "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"},
		{name: "zero is valid", args: InterPodAffinityArgs{HardPodAffinityWeight: int32p(0)}},
		{name: "nil is the default", args: InterPodAffinityArgs{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.args.Validate()
			if got := errString(err); got != tc.wantErr {
				t.Fatalf("Validate() = %q, want %q", got, tc.wantErr)
			}
			if err != nil {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != "hardPodAffinityWeight" || fe.Type != ErrorTypeInvalid {
					t.Fatalf("Validate() = %#v, want an Invalid FieldError on hardPodAffinityWeight", err)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// upstream: v1 defaults_test.go TestPluginArgsDefaults "InterPodAffinityArgs empty" and
// "InterPodAffinityArgs explicit 0".
func TestInterPodAffinityArgsDefaults(t *testing.T) {
	a, err := InterPodAffinityArgsFrom(nil)
	if err != nil || a.Weight() != 1 || a.IgnorePreferredTermsOfExistingPods {
		t.Fatalf("InterPodAffinityArgsFrom(nil) = %+v, %v; want weight 1", a, err)
	}
	in := InterPodAffinityArgs{HardPodAffinityWeight: int32p(0)}
	a, err = InterPodAffinityArgsFrom(&in)
	if err != nil || a.Weight() != 0 {
		t.Fatalf("explicit 0: got %+v, %v", a, err)
	}
	if a.HardPodAffinityWeight == in.HardPodAffinityWeight {
		t.Fatal("InterPodAffinityArgsFrom shares the weight pointer with its input")
	}
	if _, err := InterPodAffinityArgsFrom(NodeAffinityArgs{}); err == nil ||
		err.Error() != "want args to be of type InterPodAffinityArgs, got config.NodeAffinityArgs" {
		t.Fatalf("wrong type: %v", err)
	}
	if _, err := InterPodAffinityArgsFrom(InterPodAffinityArgs{HardPodAffinityWeight: int32p(200)}); err == nil {
		t.Fatal("weight 200 accepted")
	}
	var dec InterPodAffinityArgs
	if err := json.Unmarshal([]byte(`{"hardPodAffinityWeight":5,"ignorePreferredTermsOfExistingPods":true}`), &dec); err != nil {
		t.Fatal(err)
	}
	if dec.Weight() != 5 || !dec.IgnorePreferredTermsOfExistingPods {
		t.Fatalf("decoded %+v", dec)
	}
}
