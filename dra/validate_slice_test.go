package dra

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

func sptr(s string) *string { return &s }

func testSlice(name, nodeName, driver string, n int) *api.ResourceSlice {
	s := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.ResourceSliceSpec{
		NodeName: &nodeName, Driver: driver, Pool: api.ResourcePool{Name: nodeName, ResourceSliceCount: 1},
	}}
	for d := range n {
		i := int64(42)
		b := true
		s.Spec.Devices = append(s.Spec.Devices, api.Device{
			Name: fmt.Sprintf("device-%d", d),
			Attributes: map[api.QualifiedName]api.DeviceAttribute{
				"int": {IntValue: &i}, "string": {StringValue: sptr("hello world")}, "version": {VersionValue: sptr("1.2.3")}, "bool": {BoolValue: &b},
			},
			Capacity: map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: q("1Gi")}},
		})
	}
	return s
}

// TestValidateResourceSlice pins rows of upstream's TestValidateResourceSlice
// (validation_resourceslice_test.go).
func TestValidateResourceSlice(t *testing.T) {
	const driver = "test.example.com"
	devs := field.NewPath("spec", "devices")
	for name, tc := range map[string]struct {
		slice *api.ResourceSlice
		want  field.ErrorList
	}{
		"good":      {testSlice(goodName, goodName, driver, api.ResourceSliceMaxDevices), nil},
		"too-large": {testSlice(goodName, goodName, goodName, api.ResourceSliceMaxDevices+1), field.ErrorList{field.TooMany(devs, api.ResourceSliceMaxDevices+1, api.ResourceSliceMaxDevices)}},
		"good-taints": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, goodName, api.ResourceSliceMaxDevicesWithAdvancedFeatures)
			for i := range s.Spec.Devices {
				s.Spec.Devices[i].Taints = []api.DeviceTaint{{Key: "example.com/taint", Effect: api.DeviceTaintEffectNoExecute}}
			}
			return s
		}(), nil},
		"too-large-taints": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, goodName, api.ResourceSliceMaxDevicesWithAdvancedFeatures+1)
			for i := range s.Spec.Devices {
				s.Spec.Devices[i].Taints = []api.DeviceTaint{{Key: "example.com/taint", Effect: api.DeviceTaintEffectNoExecute}}
			}
			return s
		}(), field.ErrorList{field.TooMany(devs, api.ResourceSliceMaxDevicesWithAdvancedFeatures+1, api.ResourceSliceMaxDevicesWithAdvancedFeatures)}},
		"bad-nodename": {testSlice(goodName, badName, driver, 1), field.ErrorList{
			field.Invalid(field.NewPath("spec", "pool", "name"), badName, sub1123),
			field.Invalid(field.NewPath("spec", "nodeName"), badName, sub1123),
		}},
		"bad-multi-pool-name": {testSlice(goodName, badName+"/"+badName, driver, 1), field.ErrorList{
			field.Invalid(field.NewPath("spec", "pool", "name"), badName, sub1123),
			field.Invalid(field.NewPath("spec", "pool", "name"), badName, sub1123),
			field.Invalid(field.NewPath("spec", "nodeName"), badName+"/"+badName, sub1123),
		}},
		"good-pool-name": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.Pool.Name = strings.Repeat("x", api.PoolNameMaxLength)
			return s
		}(), nil},
		"bad-pool": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.Pool.Name = strings.Repeat("x/", api.PoolNameMaxLength/2) + "xy"
			s.Spec.Pool.ResourceSliceCount = 0
			s.Spec.Pool.Generation = -1
			return s
		}(), field.ErrorList{
			field.TooLong(field.NewPath("spec", "pool", "name"), "", api.PoolNameMaxLength),
			field.Invalid(field.NewPath("spec", "pool", "resourceSliceCount"), int64(0), "must be greater than zero"),
			field.Invalid(field.NewPath("spec", "pool", "generation"), int64(-1), "must be greater than or equal to zero"),
		}},
		"missing-pool-name": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.Pool.Name = ""
			return s
		}(), field.ErrorList{field.Required(field.NewPath("spec", "pool", "name"), "")}},
		"bad-node-selection": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.NodeName = sptr("worker")
			s.Spec.NodeSelector = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"worker"}}}}}}
			return s
		}(), field.ErrorList{field.Invalid(field.NewPath("spec"), "{`nodeName`, `nodeSelector`}", "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set")}},
		"bad-node-selection-all-nodes": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.NodeName = sptr("worker")
			s.Spec.AllNodes = new(bool)
			*s.Spec.AllNodes = true
			return s
		}(), field.ErrorList{field.Invalid(field.NewPath("spec"), "{`nodeName`, `allNodes`}", "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set")}},
		"empty-node-selection": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.NodeName = nil
			return s
		}(), field.ErrorList{field.Required(field.NewPath("spec"), "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required")}},
		"bad-drivername": {testSlice(goodName, goodName, badName, 1), field.ErrorList{field.Invalid(field.NewPath("spec", "driver"), badName, sub1123)}},
		"both-shared-counters-and-devices": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, driver, 1)
			s.Spec.SharedCounters = []api.CounterSet{{Name: "counterset", Counters: map[string]api.Counter{"memory": {Value: q("1Gi")}}}}
			return s
		}(), field.ErrorList{field.Invalid(field.NewPath("spec"), "", "only one of `sharedCounters` or `devices` is allowed")}},
		"bad-devices": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, goodName, 3)
			s.Spec.Devices[1].Name = badName
			return s
		}(), field.ErrorList{field.Invalid(devs.Index(1).Child("name"), badName, label1123)}},
		"bad-attribute": {func() *api.ResourceSlice {
			s := testSlice(goodName, goodName, goodName, 5)
			long := strings.Repeat("x", api.DeviceAttributeMaxValueLength+1)
			s.Spec.Devices[1].Attributes = map[api.QualifiedName]api.DeviceAttribute{api.QualifiedName(badName): {}}
			s.Spec.Devices[2].Attributes = map[api.QualifiedName]api.DeviceAttribute{goodName: {StringValue: sptr("x"), VersionValue: sptr("1.2.3")}}
			s.Spec.Devices[3].Attributes = map[api.QualifiedName]api.DeviceAttribute{goodName: {VersionValue: &long}}
			s.Spec.Devices[4].Attributes = map[api.QualifiedName]api.DeviceAttribute{goodName: {StringValue: &long}}
			return s
		}(), field.ErrorList{
			field.Invalid(devs.Index(1).Child("attributes"), badName, cIdent),
			field.Invalid(devs.Index(1).Child("attributes").Key(badName), "", "exactly one value must be specified"),
			field.Invalid(devs.Index(2).Child("attributes").Key(goodName), api.DeviceAttribute{StringValue: sptr("x"), VersionValue: sptr("1.2.3")}, "exactly one value must be specified"),
			field.Invalid(devs.Index(3).Child("attributes").Key(goodName).Child("version"), strings.Repeat("x", api.DeviceAttributeMaxValueLength+1), "must be a string compatible with semver.org spec 2.0.0"),
			field.TooLong(devs.Index(3).Child("attributes").Key(goodName).Child("version"), "", api.DeviceAttributeMaxValueLength),
			field.TooLong(devs.Index(4).Child("attributes").Key(goodName).Child("string"), "", api.DeviceAttributeMaxValueLength),
		}},
	} {
		t.Run(name, func(t *testing.T) { wantErrs(t, tc.want, ValidateResourceSlice(tc.slice)) })
	}
}

// TestValidateDeviceTaintRule pins the spec rows of upstream's
// TestValidateDeviceTaint (validation_devicetaintrule_test.go).
func TestValidateDeviceTaintRule(t *testing.T) {
	taint := field.NewPath("spec", "taint")
	for name, tc := range map[string]struct {
		rule api.DeviceTaintRule
		want field.ErrorList
	}{
		"good": {api.DeviceTaintRule{Spec: api.DeviceTaintRuleSpec{Taint: api.DeviceTaint{Key: "example.com/taint", Effect: api.DeviceTaintEffectNoExecute}}}, nil},
		"bad-taint": {api.DeviceTaintRule{Spec: api.DeviceTaintRuleSpec{Taint: api.DeviceTaint{Key: badName, Value: badName, Effect: "some-other-effect"}}}, field.ErrorList{
			field.Invalid(taint.Child("key"), badName, "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
			field.Invalid(taint.Child("value"), badName, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
			field.NotSupported(taint.Child("effect"), api.DeviceTaintEffect("some-other-effect"), []api.DeviceTaintEffect{api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNone}),
		}},
		"bad-selector": {api.DeviceTaintRule{Spec: api.DeviceTaintRuleSpec{
			DeviceSelector: &api.DeviceTaintSelector{Driver: sptr(badName), Pool: sptr(badName), Device: sptr(badName)},
			Taint:          api.DeviceTaint{Key: "example.com/taint", Effect: api.DeviceTaintEffectNoExecute},
		}}, field.ErrorList{
			field.Invalid(field.NewPath("spec", "deviceSelector", "driver"), badName, sub1123),
			field.Invalid(field.NewPath("spec", "deviceSelector", "pool"), badName, sub1123),
			field.Invalid(field.NewPath("spec", "deviceSelector", "device"), badName, label1123),
		}},
	} {
		t.Run(name, func(t *testing.T) { wantErrs(t, tc.want, ValidateDeviceTaintRule(&tc.rule)) })
	}
}
