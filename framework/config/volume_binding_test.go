package config

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func i64(v int64) *int64 { return &v }

// Pins upstream validation_pluginargs_test.go TestValidateVolumeBindingArgs,
// the rows with StorageCapacityScoring on (its v1.37 default); the "off"
// rows have no counterpart since schedkit models the default gates.
func TestValidateVolumeBindingArgs(t *testing.T) {
	ramp := []UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}
	tests := []struct {
		name string
		args VolumeBindingArgs
		want []FieldError
	}{
		// upstream: "[StorageCapacityScoring=on] zero is a valid config"
		{"zero is a valid config", VolumeBindingArgs{BindTimeoutSeconds: i64(0), Shape: ramp}, nil},
		// upstream: "[StorageCapacityScoring=on] positive value is valid config"
		{"positive value is valid config", VolumeBindingArgs{BindTimeoutSeconds: i64(10), Shape: ramp}, nil},
		// upstream: "[StorageCapacityScoring=on] negative value is invalid config"
		{"negative value is invalid config", VolumeBindingArgs{BindTimeoutSeconds: i64(-10), Shape: ramp},
			[]FieldError{{Type: ErrorTypeInvalid, Field: "bindTimeoutSeconds"}}},
		// upstream: "[StorageCapacityScoring=on] shape should not be empty"
		{"shape should not be empty", VolumeBindingArgs{BindTimeoutSeconds: i64(10), Shape: []UtilizationShapePoint{}},
			[]FieldError{{Type: ErrorTypeRequired, Field: "shape"}}},
		// upstream: "[StorageCapacityScoring=on] shape points must be sorted in increasing order"
		{"shape points must be sorted in increasing order", VolumeBindingArgs{BindTimeoutSeconds: i64(10), Shape: []UtilizationShapePoint{{3, 3}, {1, 1}}},
			[]FieldError{{Type: ErrorTypeInvalid, Field: "shape[1].utilization"}}},
		// upstream: "[StorageCapacityScoring=on] shape point: invalid utilization and score"
		{"shape point: invalid utilization and score", VolumeBindingArgs{BindTimeoutSeconds: i64(10), Shape: []UtilizationShapePoint{{-1, 1}, {10, -1}, {20, 11}, {101, 1}}},
			[]FieldError{
				{Type: ErrorTypeInvalid, Field: "shape[0].utilization"},
				{Type: ErrorTypeInvalid, Field: "shape[1].score"},
				{Type: ErrorTypeInvalid, Field: "shape[2].score"},
				{Type: ErrorTypeInvalid, Field: "shape[3].utilization"},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, fieldOnly(tc.args.Validate())); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVolumeBindingArgsMessages(t *testing.T) {
	err := (&VolumeBindingArgs{BindTimeoutSeconds: i64(-10), Shape: []UtilizationShapePoint{{3, 3}, {1, 1}}}).Validate()
	want := "[bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a negative value, " +
		"shape[1].utilization: Invalid value: 1: values must be sorted in increasing order]"
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}

// Pins upstream v1 defaults_test.go TestPluginArgsDefaults "VolumeBindingArgs
// empty, StorageCapacityScoring enabled" and "VolumeBindingArgs with value".
func TestVolumeBindingArgsDefaults(t *testing.T) {
	var a VolumeBindingArgs
	a.SetDefaults()
	want := VolumeBindingArgs{BindTimeoutSeconds: i64(600), Shape: []UtilizationShapePoint{{0, 10}, {100, 0}}}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	b := VolumeBindingArgs{BindTimeoutSeconds: i64(300), Shape: []UtilizationShapePoint{{0, 0}, {100, 10}}}
	b.SetDefaults()
	if *b.BindTimeoutSeconds != 300 || b.Shape[1].Score != 10 {
		t.Errorf("set values changed: %+v", b)
	}
}

func TestVolumeBindingArgsFrom(t *testing.T) {
	a, err := VolumeBindingArgsFrom(nil)
	if err != nil || *a.BindTimeoutSeconds != 600 || len(a.Shape) != 2 {
		t.Fatalf("nil: %+v %v", a, err)
	}
	in := &VolumeBindingArgs{Shape: []UtilizationShapePoint{{0, 0}, {50, 10}}}
	a, err = VolumeBindingArgsFrom(in)
	if err != nil || in.BindTimeoutSeconds != nil || a.Shape[1].Utilization != 50 {
		t.Fatalf("pointer: %+v %v (input changed: %v)", a, err, in.BindTimeoutSeconds != nil)
	}
	a.Shape[0].Score = 7
	if in.Shape[0].Score != 0 {
		t.Error("result shares the input's shape")
	}
	if _, err := VolumeBindingArgsFrom(VolumeBindingArgs{BindTimeoutSeconds: i64(-1)}); err == nil {
		t.Error("negative timeout accepted")
	}
	_, err = VolumeBindingArgsFrom(NodeAffinityArgs{})
	if err == nil || err.Error() != "want args to be of type VolumeBindingArgs, got config.NodeAffinityArgs" {
		t.Errorf("wrong type: %v", err)
	}
}

func TestVolumeBindingArgsJSON(t *testing.T) {
	var a VolumeBindingArgs
	if err := json.Unmarshal([]byte(`{"bindTimeoutSeconds":0,"shape":[{"utilization":0,"score":0},{"utilization":80,"score":10}]}`), &a); err != nil {
		t.Fatal(err)
	}
	a.SetDefaults()
	if *a.BindTimeoutSeconds != 0 || a.Shape[1].Utilization != 80 {
		t.Errorf("decoded %+v", a)
	}
}

func ExampleVolumeBindingArgsFrom() {
	a, _ := VolumeBindingArgsFrom(nil)
	fmt.Println(*a.BindTimeoutSeconds, a.Shape)
	_, err := VolumeBindingArgsFrom(&VolumeBindingArgs{Shape: []UtilizationShapePoint{{Utilization: 50, Score: 11}}})
	fmt.Println(err)
	// Output:
	// 600 [{0 10} {100 0}]
	// shape[0].score: Invalid value: 11: not in valid range [0, 10]
}
