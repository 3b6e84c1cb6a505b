package dra

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/quantity"
)

func q(s string) quantity.Quantity { return quantity.MustParse(s) }

func qptr(x quantity.Quantity) *quantity.Quantity { return &x }

func wantErrs(t *testing.T, want, got field.ErrorList) {
	t.Helper()
	var w, g []string
	for _, e := range want {
		w = append(w, e.Error())
	}
	for _, e := range got {
		g = append(g, e.Error())
	}
	if strings.Join(w, "\n") != strings.Join(g, "\n") {
		t.Errorf("errors:\n got %s\nwant %s", strings.Join(g, "\n     "), strings.Join(w, "\n     "))
	}
}

// TestValidateRequestPolicy pins rows of upstream's
// TestValidateDeviceCapacity (validation_device_capacity_test.go), with
// DRAFractionalCapacityRange on as in v1.37.2.
func TestValidateRequestPolicy(t *testing.T) {
	one, two, maxC, over := q("1Gi"), q("2Gi"), q("10Gi"), q("20Gi")
	zero, negOne := q("0"), q("-1")
	maxInt64 := quantity.NewQuantity(math.MaxInt64, quantity.DecimalSI)
	maxInt64Plus1 := maxInt64
	maxInt64Plus1.Add(quantity.NewQuantity(1, quantity.DecimalSI))
	twoPow64 := q("18446744073709551616")
	pol := field.NewPath("spec", "devices", "capacity").Child("requestPolicy")
	vv, vr := pol.Child("validValues"), pol.Child("validRange")
	policy := func(def *quantity.Quantity, values []quantity.Quantity, r *api.CapacityRequestPolicyRange) *api.CapacityRequestPolicy {
		return &api.CapacityRequestPolicy{Default: def, ValidValues: values, ValidRange: r}
	}
	rng := func(min, max, step *quantity.Quantity) *api.CapacityRequestPolicyRange {
		return &api.CapacityRequestPolicyRange{Min: min, Max: max, Step: step}
	}
	for name, tc := range map[string]struct {
		value quantity.Quantity
		pol   *api.CapacityRequestPolicy
		want  field.ErrorList
	}{
		"policy-without-default":                   {one, policy(nil, nil, nil), nil},
		"policy-with-valid-values-without-default": {one, policy(nil, []quantity.Quantity{one}, nil), field.ErrorList{field.Required(pol.Child("default"), "required when validValues is defined")}},
		"policy-with-valid-range-without-default":  {one, policy(nil, nil, rng(&one, nil, nil)), field.ErrorList{field.Required(pol.Child("default"), "required when validRange is defined")}},
		"policy-with-valid-range-without-min":      {one, policy(&one, nil, rng(nil, nil, nil)), field.ErrorList{field.Required(vr.Child("min"), "required when validRange is defined")}},
		"valid-simple-range":                       {maxC, policy(&one, nil, rng(&one, nil, nil)), nil},
		"valid-range-with-max":                     {maxC, policy(&one, nil, rng(&one, &maxC, nil)), nil},
		"valid-range-with-step":                    {maxC, policy(&one, nil, rng(&one, nil, &one)), nil},
		"valid-range-with-max-and-step":            {maxC, policy(&one, nil, rng(&one, &maxC, &one)), nil},
		"valid-single-option":                      {maxC, policy(&one, []quantity.Quantity{one}, nil), nil},
		"valid-two-options":                        {maxC, policy(&one, []quantity.Quantity{one, maxC}, nil), nil},
		"default-without-policy":                   {maxC, policy(&one, nil, nil), nil},
		"more-than-one-policy": {maxC, policy(&one, []quantity.Quantity{one}, rng(&one, nil, nil)),
			field.ErrorList{field.Forbidden(pol, `exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time`)}},
		"invalid-options": {maxC, policy(&one, []quantity.Quantity{over}, nil), field.ErrorList{
			field.Invalid(vv.Index(0), "20Gi", "option is larger than capacity value: 10Gi"),
			field.Invalid(vv, "1Gi", "default value is not valid according to the requestPolicy"),
		}},
		"valid-fractional-values":              {maxC, policy(qptr(q("100m")), []quantity.Quantity{q("100m"), q("200m"), q("1")}, nil), nil},
		"invalid-options-duplicate":            {maxC, policy(&one, []quantity.Quantity{one, one}, nil), field.ErrorList{field.Duplicate(vv.Index(1), "1073741824")}},
		"invalid-options-duplicate-normalized": {maxC, policy(qptr(q("1Ki")), []quantity.Quantity{q("1Ki"), q("1024")}, nil), field.ErrorList{field.Duplicate(vv.Index(1), "1024")}},
		"invalid-options-unsort":               {maxC, policy(&one, []quantity.Quantity{two, one}, nil), field.ErrorList{field.Invalid(vv.Index(1), one.String(), "values must be sorted in ascending order")}},
		"invalid-range-large-min-small-max": {maxC, policy(&two, nil, rng(&over, &one, nil)), field.ErrorList{
			field.Invalid(vr.Child("min"), "20Gi", "min is larger than capacity value: 10Gi"),
			field.Invalid(vr.Child("default"), "2Gi", "default is less than min: 20Gi"),
			field.Invalid(vr.Child("max"), "20Gi", "min is larger than max: 1Gi"),
			field.Invalid(vr.Child("default"), "2Gi", "default is more than max: 1Gi"),
		}},
		"invalid-range-large-max": {maxC, policy(&one, nil, rng(&one, &over, nil)), field.ErrorList{field.Invalid(vr.Child("max"), "20Gi", "max is larger than capacity value: 10Gi")}},
		"invalid-range-multiple-of-step": {maxC, policy(&two, nil, rng(&one, &maxC, &two)), field.ErrorList{
			field.Invalid(vr.Child("step"), "2Gi", "value is not a multiple of a given step (2Gi) from (1Gi)"),
			field.Invalid(vr.Child("step"), "10Gi", "value is not a multiple of a given step (2Gi) from (1Gi)"),
		}},
		"range-step-multiple-of-2^64": {twoPow64, policy(&zero, nil, rng(&zero, nil, &twoPow64)), field.ErrorList{
			field.Invalid(vr.Child("step"), "18446744073709551616", "must not be larger than 9223372036854775807")}},
		"range-step-at-int64-max": {maxInt64, policy(&zero, nil, rng(&zero, nil, &maxInt64)), nil},
		"range-step-int64-max-plus-one": {maxInt64Plus1, policy(&zero, nil, rng(&zero, nil, &maxInt64Plus1)), field.ErrorList{
			field.Invalid(vr.Child("step"), "9223372036854775808", "must not be larger than 9223372036854775807")}},
		"range-negative-min-with-step": {maxC, policy(&zero, nil, rng(&negOne, nil, &one)), field.ErrorList{
			field.Invalid(vr.Child("min"), "-1", "must be greater than or equal to 0")}},
		"range-fractional-default-integer-range": {maxC, policy(qptr(q("100m")), nil, rng(&zero, nil, qptr(q("1")))), field.ErrorList{
			field.Invalid(vr.Child("step"), "100m", "value is not a multiple of a given step (1) from (0)")}},
		"range-no-step-negative-bounds-accepted": {maxC, policy(&negOne, nil, rng(&negOne, nil, nil)), nil},
		"valid-range-fractional-step":            {q("1"), policy(qptr(q("200m")), nil, rng(qptr(q("200m")), qptr(q("1")), qptr(q("100m")))), nil},
		"invalid-range-fractional-step-not-aligned": {q("1"), policy(qptr(q("250m")), nil, rng(qptr(q("200m")), qptr(q("1")), qptr(q("100m")))), field.ErrorList{
			field.Invalid(vr.Child("step"), "250m", "value is not a multiple of a given step (100m) from (200m)")}},
		"invalid-range-large-step": {maxC, policy(&one, nil, rng(&one, nil, &maxC)), field.ErrorList{
			field.Invalid(vr.Child("step"), "10Gi", "one step 11Gi is larger than capacity value: 10Gi")}},
		"fractional-range-overflow-min": {q("100P"), policy(qptr(q("20P")), nil, rng(qptr(q("10P")), nil, qptr(q("100m")))), field.ErrorList{
			field.Invalid(vr.Child("default"), "20P", "value cannot be represented as a milli value"),
			field.Invalid(vr.Child("min"), "10P", "value cannot be represented as a milli value"),
		}},
		"fractional-too-fine-precision": {q("1"), policy(qptr(q("20u")), nil, rng(qptr(q("10u")), nil, nil)), field.ErrorList{
			field.Invalid(vr.Child("default"), "20u", "value cannot be represented as a milli value"),
			field.Invalid(vr.Child("min"), "10u", "value cannot be represented as a milli value"),
		}},
	} {
		// The rows are upstream's with DRAFractionalCapacityRange on.
		t.Run(name, func(t *testing.T) {
			wantErrs(t, tc.want, ValidateRequestPolicyWith(Features{FractionalCapacityRange: true}, tc.value, tc.pol, pol))
		})
	}
	// With the gate off, as a default v1.37.2 API server validates:
	// values keyed by their integer values rounded up, steps counted in
	// whole units, no milli checks (validateRequestPolicyValidValues'
	// quantityKeyInt, validateRequestPolicyRange without useMilli).
	for name, tc := range map[string]struct {
		value quantity.Quantity
		pol   *api.CapacityRequestPolicy
		want  field.ErrorList
	}{
		"fractional-values-round-to-duplicates": {maxC, policy(qptr(q("100m")), []quantity.Quantity{q("100m"), q("200m"), q("1")}, nil), field.ErrorList{
			field.Duplicate(vv.Index(1), "1"), field.Duplicate(vv.Index(2), "1")}},
		"fractional-step-rounded":            {q("1"), policy(qptr(q("250m")), nil, rng(qptr(q("200m")), qptr(q("1")), qptr(q("100m")))), nil},
		"fractional-default-integer-range":   {maxC, policy(qptr(q("100m")), nil, rng(&zero, nil, qptr(q("1")))), nil},
		"too-fine-precision-not-checked":     {q("1"), policy(qptr(q("20u")), nil, rng(qptr(q("10u")), nil, nil)), nil},
		"large-bounds-fractional-step":       {q("100P"), policy(qptr(q("20P")), nil, rng(qptr(q("10P")), nil, qptr(q("100m")))), nil},
		"integer-rows-unchanged":             {maxC, policy(&one, []quantity.Quantity{one, one}, nil), field.ErrorList{field.Duplicate(vv.Index(1), "1073741824")}},
		"negative-min-with-step-still-fails": {maxC, policy(&zero, nil, rng(&negOne, nil, &one)), field.ErrorList{field.Invalid(vr.Child("min"), "-1", "must be greater than or equal to 0")}},
	} {
		t.Run("gate-off/"+name, func(t *testing.T) {
			wantErrs(t, tc.want, ValidateRequestPolicy(tc.value, tc.pol, pol))
		})
	}
}

const (
	goodName  = "foo"
	badName   = "!@#$%^"
	label1123 = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	sub1123   = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	cIdent    = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"
	refMsg    = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
)

func validSpec() api.ResourceClaimSpec {
	return api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: []api.DeviceRequest{{
		Name: goodName, Exactly: &api.ExactDeviceRequest{DeviceClassName: goodName, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1},
	}}}}
}

func validSpecFirstAvailable() api.ResourceClaimSpec {
	return api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: []api.DeviceRequest{{
		Name: goodName, FirstAvailable: []api.DeviceSubRequest{
			{Name: goodName, DeviceClassName: goodName, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1},
			{Name: "bar", DeviceClassName: goodName, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1},
		},
	}}}}
}

func fqn(s string) *api.FullyQualifiedName { n := api.FullyQualifiedName(s); return &n }

func opaque() api.DeviceConfiguration {
	return api.DeviceConfiguration{Opaque: &api.OpaqueDeviceConfiguration{Driver: "dra.example.com", Parameters: json.RawMessage(`{"kind": "foo", "apiVersion": "dra.example.com/v1"}`)}}
}

// TestValidateClaim pins rows of upstream's TestValidateClaim
// (validation_resourceclaim_test.go) for the spec, with v1.37.2's gates.
func TestValidateClaim(t *testing.T) {
	reqs := field.NewPath("spec", "devices", "requests")
	cons := field.NewPath("spec", "devices", "constraints")
	cfg := field.NewPath("spec", "devices", "config")
	for name, tc := range map[string]struct {
		spec func() api.ResourceClaimSpec
		want field.ErrorList
	}{
		"good-claim": {validSpec, nil},
		"bad-classname": {func() api.ResourceClaimSpec {
			s := validSpec()
			s.Devices.Requests[0].Exactly.DeviceClassName = badName
			return s
		}, field.ErrorList{field.Invalid(reqs.Index(0).Child("exactly", "deviceClassName"), badName, sub1123)}},
		"missing-classname": {func() api.ResourceClaimSpec {
			s := validSpec()
			s.Devices.Requests[0].Exactly.DeviceClassName = ""
			return s
		}, field.ErrorList{field.Required(reqs.Index(0).Child("exactly", "deviceClassName"), "")}},
		// The gate DRAConsumableCapacity is on: the empty constraint's
		// error is the one of "invalid-distinct-constraint".
		"invalid-spec": {func() api.ResourceClaimSpec {
			s := validSpec()
			s.Devices.Constraints = []api.DeviceConstraint{
				{Requests: []string{goodName, badName}, MatchAttribute: fqn("missing-domain")},
				{MatchAttribute: fqn("")},
				{},
			}
			s.Devices.Config = []api.DeviceClaimConfiguration{{Requests: []string{goodName, badName}, DeviceConfiguration: opaque()}}
			return s
		}, field.ErrorList{
			field.Invalid(cons.Index(0).Child("requests").Index(1), badName, label1123),
			field.Invalid(cons.Index(0).Child("requests").Index(1), badName, refMsg),
			field.Invalid(cons.Index(0).Child("matchAttribute"), "missing-domain", cIdent),
			field.Invalid(cons.Index(0).Child("matchAttribute"), api.FullyQualifiedName("missing-domain"), "a fully qualified name must be a domain and a name separated by a slash"),
			field.Invalid(cons.Index(1).Child("matchAttribute"), "", cIdent),
			field.Invalid(cons.Index(1).Child("matchAttribute"), api.FullyQualifiedName(""), "a fully qualified name must be a domain and a name separated by a slash"),
			field.Required(cons.Index(2), `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`),
			field.Invalid(cfg.Index(0).Child("requests").Index(1), badName, label1123),
			field.Invalid(cfg.Index(0).Child("requests").Index(1), badName, refMsg),
		}},
		"invalid-request-with-max-size-short-circuit": {func() api.ResourceClaimSpec {
			s := validSpec()
			for i := 0; i <= api.DeviceConstraintsMaxSize; i++ {
				s.Devices.Constraints = append(s.Devices.Constraints, api.DeviceConstraint{MatchAttribute: fqn("foo/bar")})
			}
			for i := 0; i <= api.DeviceConfigMaxSize; i++ {
				s.Devices.Config = append(s.Devices.Config, api.DeviceClaimConfiguration{DeviceConfiguration: opaque()})
			}
			for i := 1; i <= api.DeviceRequestsMaxSize; i++ {
				r := s.Devices.Requests[0]
				r.Name += fmt.Sprint(i)
				s.Devices.Requests = append(s.Devices.Requests, r)
			}
			return s
		}, field.ErrorList{
			field.TooMany(reqs, api.DeviceRequestsMaxSize+1, api.DeviceRequestsMaxSize),
			field.TooMany(cons, api.DeviceConstraintsMaxSize+1, api.DeviceConstraintsMaxSize),
			field.TooMany(cfg, api.DeviceConfigMaxSize+1, api.DeviceConfigMaxSize),
		}},
		"allocation-mode": {func() api.ResourceClaimSpec {
			s := validSpec()
			good := s.Devices.Requests[0]
			good.Name = "foo"
			mk := func(name string, m api.DeviceAllocationMode, n int64) api.DeviceRequest {
				r := good
				x := *good.Exactly
				r.Name, x.AllocationMode, x.Count = name, m, n
				r.Exactly = &x
				return r
			}
			s.Devices.Requests = []api.DeviceRequest{good, mk("foo2", api.DeviceAllocationModeAll, 0), mk("foo3", api.DeviceAllocationModeExactCount, -1),
				mk("foo4", "other", 1), mk("foo5", api.DeviceAllocationModeAll, 2), mk("foo", api.DeviceAllocationModeExactCount, 1)}
			return s
		}, field.ErrorList{
			field.Invalid(reqs.Index(2).Child("exactly", "count"), int64(-1), "must be greater than zero"),
			field.NotSupported(reqs.Index(3).Child("exactly", "allocationMode"), api.DeviceAllocationMode("other"), []api.DeviceAllocationMode{api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount}),
			field.Invalid(reqs.Index(4).Child("exactly", "count"), int64(2), "must not be specified when allocationMode is 'All'"),
			field.Duplicate(reqs.Index(5), "foo"),
		}},
		"CEL-length": {func() api.ResourceClaimSpec {
			s := validSpec()
			r := s.Devices.Requests[0]
			x := *r.Exactly
			r.Name += "-2"
			expr := `device.driver == ""`
			x.Selectors = []api.DeviceSelector{
				{CEL: &api.CELDeviceSelector{Expression: strings.ReplaceAll(expr, `""`, `"`+strings.Repeat("x", api.CELSelectorExpressionMaxLength-len(expr))+`"`)}},
				{CEL: &api.CELDeviceSelector{Expression: strings.ReplaceAll(expr, `""`, `"`+strings.Repeat("x", api.CELSelectorExpressionMaxLength-len(expr)+1)+`"`)}},
			}
			r.Exactly = &x
			s.Devices.Requests = append(s.Devices.Requests, r)
			return s
		}, field.ErrorList{field.TooLong(reqs.Index(1).Child("exactly", "selectors").Index(1).Child("cel", "expression"), "", api.CELSelectorExpressionMaxLength)}},
		"prioritized-list-valid": {validSpecFirstAvailable, nil},
		"prioritized-list-both-first-available-and-exactly-set": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Requests[0].Exactly = &api.ExactDeviceRequest{DeviceClassName: goodName, AllocationMode: api.DeviceAllocationModeExactCount, Count: 2}
			return s
		}, field.ErrorList{field.Invalid(reqs.Index(0), nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set")}},
		"prioritized-list-invalid-nested-request": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Requests[0].FirstAvailable[0] = api.DeviceSubRequest{Name: badName}
			return s
		}, field.ErrorList{
			field.Invalid(reqs.Index(0).Child("firstAvailable").Index(0).Child("name"), badName, label1123),
			field.Required(reqs.Index(0).Child("firstAvailable").Index(0).Child("deviceClassName"), ""),
			field.NotSupported(reqs.Index(0).Child("firstAvailable").Index(0).Child("allocationMode"), api.DeviceAllocationMode(""), []api.DeviceAllocationMode{api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount}),
		}},
		"prioritized-list-nested-requests-same-name": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Requests[0].FirstAvailable[1].Name = goodName
			return s
		}, field.ErrorList{field.Duplicate(reqs.Index(0).Child("firstAvailable").Index(1), "foo")}},
		"prioritized-list-too-many-subrequests": {func() api.ResourceClaimSpec {
			s := validSpec()
			s.Devices.Requests[0].Exactly = nil
			for i := 0; i <= 8; i++ {
				s.Devices.Requests[0].FirstAvailable = append(s.Devices.Requests[0].FirstAvailable, api.DeviceSubRequest{
					Name: fmt.Sprintf("subreq-%d", i), DeviceClassName: goodName, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1})
			}
			return s
		}, field.ErrorList{field.TooMany(reqs.Index(0).Child("firstAvailable"), 9, 8)}},
		"prioritized-list-config-requests-with-subrequest-reference": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Config = []api.DeviceClaimConfiguration{{Requests: []string{"foo/bar"}, DeviceConfiguration: opaque()}}
			return s
		}, nil},
		"prioritized-list-config-requests-with-invalid-subrequest-reference": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Config = []api.DeviceClaimConfiguration{{Requests: []string{"foo/baz"}, DeviceConfiguration: opaque()}}
			return s
		}, field.ErrorList{field.Invalid(cfg.Index(0).Child("requests").Index(0), "foo/baz", refMsg)}},
		"prioritized-list-constraints-requests-with-invalid-subrequest-reference": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Constraints = []api.DeviceConstraint{{Requests: []string{"foo/baz"}, MatchAttribute: fqn("dra.example.com/driverVersion")}}
			return s
		}, field.ErrorList{field.Invalid(cons.Index(0).Child("requests").Index(0), "foo/baz", refMsg)}},
		"tolerations": {func() api.ResourceClaimSpec {
			s := validSpecFirstAvailable()
			s.Devices.Requests[0].FirstAvailable[0].Tolerations = []api.DeviceToleration{{}}
			r := validSpec().Devices.Requests[0]
			r.Name += "-other"
			r.Exactly.Tolerations = []api.DeviceToleration{
				{Operator: api.DeviceTolerationOpExists},
				{Key: "example.com/taint", Operator: api.DeviceTolerationOpExists, Effect: api.DeviceTaintEffectNoExecute},
				{Key: "example.com/taint", Operator: api.DeviceTolerationOpEqual, Value: "tainted", Effect: api.DeviceTaintEffectNoSchedule},
				{},
				{Key: goodName, Operator: "some-other-op"},
				{Key: badName, Operator: api.DeviceTolerationOpEqual, Value: badName, Effect: "some-other-effect"},
			}
			s.Devices.Requests = append(s.Devices.Requests, r)
			return s
		}, func() field.ErrorList {
			p := reqs.Index(1).Child("exactly", "tolerations")
			return field.ErrorList{
				field.Required(reqs.Index(0).Child("firstAvailable").Index(0).Child("tolerations").Index(0).Child("operator"), ""),
				field.Required(p.Index(3).Child("operator"), ""),
				field.NotSupported(p.Index(4).Child("operator"), api.DeviceTolerationOperator("some-other-op"), []api.DeviceTolerationOperator{api.DeviceTolerationOpEqual, api.DeviceTolerationOpExists}),
				field.Invalid(p.Index(5).Child("key"), badName, "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
				field.Invalid(p.Index(5).Child("value"), badName, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
				field.NotSupported(p.Index(5).Child("effect"), api.DeviceTaintEffect("some-other-effect"), []api.DeviceTaintEffect{api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNone}),
			}
		}()},
	} {
		t.Run(name, func(t *testing.T) {
			s := tc.spec()
			wantErrs(t, tc.want, ValidateResourceClaim(&api.ResourceClaim{Spec: s}, nil))
		})
	}
}
