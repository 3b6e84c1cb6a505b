package dra_test

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/field"
)

// TestValidateClaimCEL pins upstream's TestValidateClaim rows
// "CEL-compile-errors" and "CEL-cost" with package dra/cel's Check as the
// CEL hook.
func TestValidateClaimCEL(t *testing.T) {
	c, err := cel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	spec := func(exprs ...string) *api.ResourceClaim {
		cl := &api.ResourceClaim{Spec: api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: []api.DeviceRequest{
			{Name: "foo", Exactly: &api.ExactDeviceRequest{DeviceClassName: "foo", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}},
			{Name: "foo-2", Exactly: &api.ExactDeviceRequest{DeviceClassName: "foo", AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}},
		}}}}
		for _, e := range exprs {
			cl.Spec.Devices.Requests[1].Exactly.Selectors = append(cl.Spec.Devices.Requests[1].Exactly.Selectors, api.DeviceSelector{CEL: &api.CELDeviceSelector{Expression: e}})
		}
		return cl
	}
	sel := field.NewPath("spec", "devices", "requests").Index(1).Child("exactly", "selectors")
	for name, tc := range map[string]struct {
		claim *api.ResourceClaim
		want  field.ErrorList
	}{
		"CEL-compile-errors": {spec(`device.driver == "dra.example.com"`, `device.attributes[true].someBoolean`), field.ErrorList{
			field.Invalid(sel.Index(1).Child("cel", "expression"), `device.attributes[true].someBoolean`,
				"compilation failed: ERROR: <input>:1:18: found no matching overload for '_[_]' applied to '(map(string, map(string, any)), bool)'\n | device.attributes[true].someBoolean\n | .................^"),
		}},
		"CEL-cost": {spec(`[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))`), field.ErrorList{
			field.Forbidden(sel.Index(0).Child("cel", "expression"), "too complex, exceeds cost limit"),
		}},
	} {
		t.Run(name, func(t *testing.T) {
			got := dra.ValidateResourceClaim(tc.claim, c.Check)
			if got.Error() != tc.want.Error() || len(got) != len(tc.want) {
				t.Errorf("errors:\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}
