package dra

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/quantity"
)

// CELCheck compiles one selector expression for validation and returns
// the API server's errors for it at path (package dra/cel provides it); a
// nil CELCheck checks only the expression's length.
type CELCheck func(expression string, path *field.Path) field.ErrorList

// capacityRequestPolicyDiscreteMaxOptions bounds a policy's valid values.
const capacityRequestPolicyDiscreteMaxOptions = 10

// ValidateResourceClaim validates a claim's spec as the API server does
// on create (k8s.io/kubernetes pkg/apis/resource/validation).
func ValidateResourceClaim(c *api.ResourceClaim, cel CELCheck) field.ErrorList {
	return ValidateResourceClaimSpec(&c.Spec, field.NewPath("spec"), cel)
}

// ValidateResourceClaimTemplate validates the claim spec of a template.
func ValidateResourceClaimTemplate(t *api.ResourceClaimTemplate, cel CELCheck) field.ErrorList {
	return ValidateResourceClaimSpec(&t.Spec.Spec, field.NewPath("spec", "spec"), cel)
}

// ValidateResourceClaimSpec validates requests, constraints and config.
func ValidateResourceClaimSpec(spec *api.ResourceClaimSpec, path *field.Path, cel CELCheck) field.ErrorList {
	var errs field.ErrorList
	dc := &spec.Devices
	p := path.Child("devices")
	names := gatherRequestNames(dc)
	errs = append(errs, validateSet(dc.Requests, api.DeviceRequestsMaxSize, func(r api.DeviceRequest, p *field.Path) field.ErrorList {
		return validateDeviceRequest(r, p, cel)
	}, func(r api.DeviceRequest) string { return r.Name }, p.Child("requests"))...)
	errs = append(errs, validateSlice(dc.Constraints, api.DeviceConstraintsMaxSize, func(c api.DeviceConstraint, p *field.Path) field.ErrorList {
		return validateDeviceConstraint(c, p, names)
	}, p.Child("constraints"))...)
	errs = append(errs, validateSlice(dc.Config, api.DeviceConfigMaxSize, func(c api.DeviceClaimConfiguration, p *field.Path) field.ErrorList {
		errs := validateSet(c.Requests, api.DeviceRequestsMaxSize, func(n string, p *field.Path) field.ErrorList {
			return validateRequestNameRef(n, p, names)
		}, func(s string) string { return s }, p.Child("requests"))
		return append(errs, validateDeviceConfiguration(c.DeviceConfiguration, p)...)
	}, p.Child("config"))...)
	return errs
}

type requestNames map[string][]string // request → its subrequests (nil for exact)

func gatherRequestNames(dc *api.DeviceClaim) requestNames {
	out := requestNames{}
	for _, r := range dc.Requests {
		if len(r.FirstAvailable) == 0 {
			out[r.Name] = nil
			continue
		}
		subs := []string{}
		for _, s := range r.FirstAvailable {
			subs = append(subs, s.Name)
		}
		out[r.Name] = subs
	}
	return out
}

func (r requestNames) has(s string) bool {
	seg := strings.Split(s, "/")
	if len(seg) > 2 {
		return false
	}
	subs, ok := r[seg[0]]
	if !ok {
		return false
	}
	return len(seg) == 1 || slices.Contains(subs, seg[1])
}

func validateDeviceRequest(r api.DeviceRequest, p *field.Path, cel CELCheck) field.ErrorList {
	errs := validateDNS1123Label(r.Name, p.Child("name"))
	hasFirst, hasExact := len(r.FirstAvailable) > 0, r.Exactly != nil
	switch {
	case !hasFirst && !hasExact:
		errs = append(errs, field.Required(p, "exactly one of `exactly` or `firstAvailable` is required"))
	case hasFirst && hasExact:
		errs = append(errs, field.Invalid(p, nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"))
	case hasFirst:
		errs = append(errs, validateSet(r.FirstAvailable, api.FirstAvailableDeviceRequestMaxSize, func(s api.DeviceSubRequest, p *field.Path) field.ErrorList {
			errs := validateDNS1123Label(s.Name, p.Child("name"))
			errs = append(errs, validateDeviceClassName(s.DeviceClassName, p.Child("deviceClassName"))...)
			errs = append(errs, validateSelectors(s.Selectors, p.Child("selectors"), cel)...)
			errs = append(errs, validateAllocationMode(s.AllocationMode, s.Count, p.Child("allocationMode"), p.Child("count"))...)
			for i, t := range s.Tolerations {
				errs = append(errs, validateDeviceToleration(t, p.Child("tolerations").Index(i))...)
			}
			return errs
		}, func(s api.DeviceSubRequest) string { return s.Name }, p.Child("firstAvailable"))...)
	default:
		x, p := r.Exactly, p.Child("exactly")
		errs = append(errs, validateDeviceClassName(x.DeviceClassName, p.Child("deviceClassName"))...)
		errs = append(errs, validateSelectors(x.Selectors, p.Child("selectors"), cel)...)
		errs = append(errs, validateAllocationMode(x.AllocationMode, x.Count, p.Child("allocationMode"), p.Child("count"))...)
		for i, t := range x.Tolerations {
			errs = append(errs, validateDeviceToleration(t, p.Child("tolerations").Index(i))...)
		}
	}
	return errs
}

func validateAllocationMode(m api.DeviceAllocationMode, count int64, modePath, countPath *field.Path) field.ErrorList {
	switch m {
	case api.DeviceAllocationModeAll:
		if count != 0 {
			return field.ErrorList{field.Invalid(countPath, count, fmt.Sprintf("must not be specified when allocationMode is '%s'", m))}
		}
	case api.DeviceAllocationModeExactCount:
		if count <= 0 {
			return field.ErrorList{field.Invalid(countPath, count, "must be greater than zero")}
		}
	default:
		return field.ErrorList{field.NotSupported(modePath, m, []api.DeviceAllocationMode{api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount})}
	}
	return nil
}

func validateDeviceClassName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return validateDNS1123Subdomain(name, p)
}

func validateSelectors(sels []api.DeviceSelector, p *field.Path, cel CELCheck) field.ErrorList {
	return validateSlice(sels, api.DeviceSelectorsMaxSize, func(s api.DeviceSelector, p *field.Path) field.ErrorList {
		if s.CEL == nil {
			return field.ErrorList{field.Required(p.Child("cel"), "")}
		}
		return validateCELExpression(s.CEL.Expression, p.Child("cel", "expression"), cel)
	}, p)
}

// validateCELExpression checks the length, then hands the expression to
// the CEL package's check.
func validateCELExpression(expr string, p *field.Path, cel CELCheck) field.ErrorList {
	if len(expr) > api.CELSelectorExpressionMaxLength {
		return field.ErrorList{field.TooLong(p, "", api.CELSelectorExpressionMaxLength)}
	}
	if cel == nil {
		return nil
	}
	return cel(expr, p)
}

func validateDeviceConstraint(c api.DeviceConstraint, p *field.Path, names requestNames) field.ErrorList {
	errs := validateSet(c.Requests, api.DeviceRequestsMaxSize, func(n string, p *field.Path) field.ErrorList {
		return validateRequestNameRef(n, p, names)
	}, func(s string) string { return s }, p.Child("requests"))
	switch {
	case c.MatchAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(*c.MatchAttribute, p.Child("matchAttribute"))...)
	case c.DistinctAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(*c.DistinctAttribute, p.Child("distinctAttribute"))...)
	default:
		errs = append(errs, field.Required(p, `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`))
	}
	return errs
}

const requestRefMsg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"

func validateRequestNameRef(name string, p *field.Path, names requestNames) field.ErrorList {
	seg := strings.Split(name, "/")
	if len(seg) > 2 {
		return field.ErrorList{field.Invalid(p, name, requestRefMsg)}
	}
	var errs field.ErrorList
	for _, s := range seg {
		errs = append(errs, validateDNS1123Label(s, p)...)
	}
	if !names.has(name) {
		errs = append(errs, field.Invalid(p, name, requestRefMsg))
	}
	return errs
}

func validateDeviceConfiguration(c api.DeviceConfiguration, p *field.Path) field.ErrorList {
	if c.Opaque == nil {
		return field.ErrorList{field.Required(p.Child("opaque"), "")}
	}
	p = p.Child("opaque")
	errs := validateDriverName(c.Opaque.Driver, p.Child("driver"))
	pp := p.Child("parameters")
	switch {
	case len(c.Opaque.Parameters) == 0:
		errs = append(errs, field.Required(pp, ""))
	case len(c.Opaque.Parameters) > api.OpaqueParametersMaxLength:
		errs = append(errs, field.TooLong(pp, "", api.OpaqueParametersMaxLength))
	}
	return errs
}

// ValidateDeviceClass validates a class's spec.
func ValidateDeviceClass(c *api.DeviceClass, cel CELCheck) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSelectors(c.Spec.Selectors, p.Child("selectors"), cel)
	errs = append(errs, validateSlice(c.Spec.Config, api.DeviceConfigMaxSize, func(c api.DeviceClassConfiguration, p *field.Path) field.ErrorList {
		return validateDeviceConfiguration(c.DeviceConfiguration, p)
	}, p.Child("config"))...)
	if n := c.Spec.ExtendedResourceName; n != nil && !validExtendedName(*n) {
		errs = append(errs, field.Invalid(p.Child("extendedResourceName"), *c.Spec.ExtendedResourceName, "must be a valid extended resource name"))
	}
	return errs
}

// validExtendedName: outside the kubernetes.io domain, not a requests.
// quota name, and a qualified name once prefixed with "requests.".
func validExtendedName(n string) bool {
	return api.ResourceName(n).IsExtended() && len(affinity.ValidateLabelKey("requests."+n)) == 0
}

// ValidateResourceSlice validates a slice's spec as a default v1.37.2 API
// server does: see ValidateResourceSliceWith.
func ValidateResourceSlice(s *api.ResourceSlice) field.ErrorList {
	return ValidateResourceSliceWith(Features{}, s)
}

// ValidateResourceSliceWith validates a slice's spec: driver and pool
// names, exactly one node selection, device and counter set limits,
// attributes, capacities with their request policies (by the gates of f:
// ValidateRequestPolicyWith), taints and binding conditions.
func ValidateResourceSliceWith(f Features, s *api.ResourceSlice) field.ErrorList {
	spec, p := &s.Spec, field.NewPath("spec")
	errs := validateDriverName(spec.Driver, p.Child("driver"))
	errs = append(errs, validatePoolName(spec.Pool.Name, p.Child("pool", "name"))...)
	if spec.Pool.ResourceSliceCount <= 0 {
		errs = append(errs, field.Invalid(p.Child("pool", "resourceSliceCount"), spec.Pool.ResourceSliceCount, "must be greater than zero"))
	}
	if spec.Pool.Generation < 0 {
		errs = append(errs, field.Invalid(p.Child("pool", "generation"), spec.Pool.Generation, "must be greater than or equal to zero"))
	}
	var set []string
	if spec.NodeName != nil {
		if *spec.NodeName != "" {
			set = append(set, "`nodeName`")
			errs = append(errs, validateDNS1123Subdomain(*spec.NodeName, p.Child("nodeName"))...)
		} else {
			errs = append(errs, field.Invalid(p.Child("nodeName"), *spec.NodeName, "must be either unset or set to a non-empty string"))
		}
	}
	if spec.NodeSelector != nil {
		set = append(set, "`nodeSelector`")
		if len(spec.NodeSelector.NodeSelectorTerms) != 1 {
			errs = append(errs, field.Invalid(p.Child("nodeSelector", "nodeSelectorTerms"), spec.NodeSelector.NodeSelectorTerms, "must have exactly one node selector term"))
		}
	}
	if spec.AllNodes != nil {
		if *spec.AllNodes {
			set = append(set, "`allNodes`")
		} else {
			errs = append(errs, field.Invalid(p.Child("allNodes"), *spec.AllNodes, "must be either unset or set to true"))
		}
	}
	if spec.PerDeviceNodeSelection != nil {
		if *spec.PerDeviceNodeSelection {
			set = append(set, "`perDeviceNodeSelection`")
		} else {
			errs = append(errs, field.Invalid(p.Child("perDeviceNodeSelection"), *spec.PerDeviceNodeSelection, "must be either unset or set to true"))
		}
	}
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(p, "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, fmt.Sprintf("{%s}", strings.Join(set, ", ")),
			"exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set"))
	}
	if spec.SharedCounters != nil && spec.Devices != nil {
		errs = append(errs, field.Invalid(p, "", "only one of `sharedCounters` or `devices` is allowed"))
	}
	maxDevices := api.ResourceSliceMaxDevices
	if slices.ContainsFunc(spec.Devices, func(d api.Device) bool {
		return len(d.Taints) > 0 || len(d.ConsumesCounters) > 0 || hasListAttribute(d)
	}) {
		maxDevices = api.ResourceSliceMaxDevicesWithAdvancedFeatures
	}
	errs = append(errs, validateSet(spec.Devices, maxDevices, func(d api.Device, p *field.Path) field.ErrorList {
		return validateDevice(f, d, p, spec.PerDeviceNodeSelection)
	}, func(d api.Device) string { return d.Name }, p.Child("devices"))...)
	errs = append(errs, validateSet(spec.SharedCounters, api.ResourceSliceMaxCounterSets, validateCounterSet,
		func(c api.CounterSet) string { return c.Name }, p.Child("sharedCounters"))...)
	return errs
}

func hasListAttribute(d api.Device) bool {
	for _, a := range d.Attributes {
		if a.IntValues != nil || a.BoolValues != nil || a.StringValues != nil || a.VersionValues != nil {
			return true
		}
	}
	return false
}

func validateCounterSet(c api.CounterSet, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		errs = append(errs, validateDNS1123Label(c.Name, p.Child("name"))...)
	}
	if len(c.Counters) == 0 {
		errs = append(errs, field.Required(p.Child("counters"), ""))
	} else {
		errs = append(errs, validateCounters(c.Counters, api.ResourceSliceMaxCountersPerCounterSet, p.Child("counters"))...)
	}
	return errs
}

func validateCounters(m map[string]api.Counter, max int, p *field.Path) field.ErrorList {
	if len(m) > max {
		return field.ErrorList{field.TooMany(p, len(m), max)}
	}
	var errs field.ErrorList
	for _, k := range sortedKeys(m) {
		errs = append(errs, validateDNS1123Label(k, p)...)
	}
	return errs
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

var attributeKeyMax = api.DeviceMaxDomainLength + 1 + api.DeviceMaxIDLength

func validateDevice(f Features, d api.Device, p *field.Path, perDevice *bool) field.ErrorList {
	multi := d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
	errs := validateDNS1123Label(d.Name, p.Child("name"))
	if n := len(d.Attributes) + len(d.Capacity); n > api.ResourceSliceMaxAttributesAndCapacitiesPerDevice {
		errs = append(errs, field.Invalid(p, n, fmt.Sprintf("the total number of attributes and capacities must not exceed %d", api.ResourceSliceMaxAttributesAndCapacitiesPerDevice)))
	}
	nv := 0
	for _, a := range d.Attributes {
		if n := len(a.BoolValues) + len(a.IntValues) + len(a.StringValues) + len(a.VersionValues); n > 0 {
			nv += n
		} else {
			nv++
		}
	}
	if nv > api.ResourceSliceMaxAttributeValuesPerDevice {
		errs = append(errs, field.Invalid(p, nv, fmt.Sprintf("the total number of attribute values must not exceed %d", api.ResourceSliceMaxAttributeValuesPerDevice)))
	}
	for _, k := range sortedKeys(d.Attributes) {
		errs = append(errs, validateQualifiedName(k, p.Child("attributes"))...)
		errs = append(errs, validateDeviceAttribute(d.Attributes[k], p.Child("attributes").Key(truncate(string(k), attributeKeyMax)))...)
	}
	for _, k := range sortedKeys(d.Capacity) {
		errs = append(errs, validateQualifiedName(k, p.Child("capacity"))...)
		c, cp := d.Capacity[k], p.Child("capacity").Key(truncate(string(k), attributeKeyMax))
		if c.RequestPolicy == nil {
			continue
		}
		if !multi {
			errs = append(errs, field.Forbidden(cp.Child("requestPolicy"), "allowMultipleAllocations must be true"))
			continue
		}
		errs = append(errs, ValidateRequestPolicyWith(f, c.Value, c.RequestPolicy, cp.Child("requestPolicy"))...)
	}
	errs = append(errs, validateSlice(d.Taints, api.DeviceTaintsMaxLength, validateDeviceTaint, p.Child("taints"))...)
	errs = append(errs, validateSet(d.ConsumesCounters, api.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, func(c api.DeviceCounterConsumption, p *field.Path) field.ErrorList {
		var errs field.ErrorList
		if c.CounterSet == "" {
			errs = append(errs, field.Required(p.Child("counterSet"), ""))
		} else {
			errs = append(errs, validateDNS1123Label(c.CounterSet, p.Child("counterSet"))...)
		}
		if len(c.Counters) == 0 {
			errs = append(errs, field.Required(p.Child("counters"), ""))
		} else {
			errs = append(errs, validateCounters(c.Counters, api.ResourceSliceMaxCountersPerDeviceCounterConsumption, p.Child("counters"))...)
		}
		return errs
	}, func(c api.DeviceCounterConsumption) string { return c.CounterSet }, p.Child("consumesCounters"))...)
	if perDevice != nil && *perDevice {
		var set []string
		if d.NodeName != nil {
			if *d.NodeName != "" {
				set = append(set, "`nodeName`")
				errs = append(errs, validateDNS1123Subdomain(*d.NodeName, p.Child("nodeName"))...)
			} else {
				errs = append(errs, field.Invalid(p.Child("nodeName"), *d.NodeName, "must not be empty"))
			}
		}
		if d.NodeSelector != nil {
			set = append(set, "`nodeSelector`")
		}
		if d.AllNodes != nil {
			if *d.AllNodes {
				set = append(set, "`allNodes`")
			} else {
				errs = append(errs, field.Invalid(p.Child("allNodes"), *d.AllNodes, "must be either unset or set to true"))
			}
		}
		const msg = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"
		switch len(set) {
		case 0:
			errs = append(errs, field.Required(p, msg))
		case 1:
		default:
			errs = append(errs, field.Invalid(p, fmt.Sprintf("{%s}", strings.Join(set, ", ")), msg))
		}
	} else if d.NodeName != nil || d.NodeSelector != nil || d.AllNodes != nil {
		errs = append(errs, field.Invalid(p, nil, "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"))
	}
	return append(errs, validateBindingConditions(d.BindingConditions, d.BindingFailureConditions, p)...)
}

var semverRe = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?` +
	`(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$`)

func validateDeviceAttribute(a api.DeviceAttribute, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	str := func(v string, p *field.Path) {
		if len(v) > api.DeviceAttributeMaxValueLength {
			errs = append(errs, field.TooLong(p, "", api.DeviceAttributeMaxValueLength))
		}
	}
	ver := func(v string, p *field.Path) {
		if !semverRe.MatchString(v) {
			errs = append(errs, field.Invalid(p, v, "must be a string compatible with semver.org spec 2.0.0"))
		}
		str(v, p)
	}
	if a.BoolValue != nil {
		n++
	}
	if a.IntValue != nil {
		n++
	}
	if a.StringValue != nil {
		n++
		str(*a.StringValue, p.Child("string"))
	}
	if a.VersionValue != nil {
		n++
		ver(*a.VersionValue, p.Child("version"))
	}
	if a.BoolValues != nil {
		n++
		if len(a.BoolValues) == 0 {
			errs = append(errs, field.Invalid(p.Child("bools"), a.BoolValues, "must not be empty if specified"))
		}
	}
	if a.IntValues != nil {
		n++
		if len(a.IntValues) == 0 {
			errs = append(errs, field.Invalid(p.Child("ints"), a.IntValues, "must not be empty if specified"))
		}
	}
	if a.StringValues != nil {
		n++
		if len(a.StringValues) == 0 {
			errs = append(errs, field.Invalid(p.Child("strings"), a.StringValues, "must not be empty if specified"))
		}
		for i, v := range a.StringValues {
			str(v, p.Child("strings").Index(i))
		}
	}
	if a.VersionValues != nil {
		n++
		if len(a.VersionValues) == 0 {
			errs = append(errs, field.Invalid(p.Child("versions"), a.VersionValues, "must not be empty if specified"))
		}
		for i, v := range a.VersionValues {
			ver(v, p.Child("versions").Index(i))
		}
	}
	switch n {
	case 0:
		errs = append(errs, field.Invalid(p, "", "exactly one value must be specified"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, a, "exactly one value must be specified"))
	}
	return errs
}

// ValidateRequestPolicy validates a capacity's request policy against the
// capacity's value as a default v1.37.2 API server does, with
// DRAFractionalCapacityRange off: see ValidateRequestPolicyWith.
func ValidateRequestPolicy(capacity quantity.Quantity, pol *api.CapacityRequestPolicy, p *field.Path) field.ErrorList {
	return ValidateRequestPolicyWith(Features{}, capacity, pol, p)
}

// ValidateRequestPolicyWith validates a capacity's request policy against
// the capacity's value: one of validValues and validRange, a default that
// is valid, sorted unique values within the capacity, a range within the
// capacity whose default and max are steps from min. The gate decides
// the arithmetic, as upstream's: off, values are told apart by their
// integer values rounded up (500m and 1 are duplicates) and steps are
// counted in whole units; on, values are told apart exactly and a range
// with a fractional bound is counted in milli units, each bound exact in
// them.
func ValidateRequestPolicyWith(f Features, capacity quantity.Quantity, pol *api.CapacityRequestPolicy, p *field.Path) field.ErrorList {
	if len(pol.ValidValues) > 0 && pol.ValidRange != nil {
		return field.ErrorList{field.Forbidden(p, `exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time`)}
	}
	switch {
	case len(pol.ValidValues) > 0:
		if pol.Default == nil {
			return field.ErrorList{field.Required(p.Child("default"), "required when validValues is defined")}
		}
		return validateValidValues(f, *pol.Default, capacity, pol.ValidValues, p.Child("validValues"))
	case pol.ValidRange != nil:
		if pol.Default == nil {
			return field.ErrorList{field.Required(p.Child("default"), "required when validRange is defined")}
		}
		return validateRange(f, *pol.Default, capacity, *pol.ValidRange, p.Child("validRange"))
	}
	return nil
}

func validateValidValues(f Features, def, capacity quantity.Quantity, values []quantity.Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := 0; i+1 < len(values); i++ {
		if values[i].Cmp(values[i+1]) > 0 {
			errs = append(errs, field.Invalid(p.Index(i+1), values[i+1].String(), "values must be sorted in ascending order"))
		}
	}
	found := false
	key := quantityKeyInt
	if f.FractionalCapacityRange {
		key = quantityKey
	}
	errs = append(errs, validateSet(values, capacityRequestPolicyDiscreteMaxOptions, func(v quantity.Quantity, p *field.Path) field.ErrorList {
		var errs field.ErrorList
		if v.Cmp(capacity) > 0 {
			errs = append(errs, field.Invalid(p, v.String(), "option is larger than capacity value: "+capacity.String()))
		}
		if v.Cmp(def) == 0 {
			found = true
		}
		return errs
	}, key, p)...)
	if !found {
		errs = append(errs, field.Invalid(p, def.String(), "default value is not valid according to the requestPolicy"))
	}
	return errs
}

// quantityKeyInt names a valid value as upstream's integer key does with
// DRAFractionalCapacityRange off: its value rounded up to a whole number.
func quantityKeyInt(q quantity.Quantity) string { return strconv.FormatInt(q.Value(), 10) }

// quantityKey names a valid value as upstream's decimal key does: a whole
// value as its integer, a fraction in milli units with three decimals.
func quantityKey(q quantity.Quantity) string {
	if !isFractional(q) && q.CmpInt64(math.MaxInt64) <= 0 && q.CmpInt64(math.MinInt64) >= 0 {
		return strconv.FormatInt(q.Value(), 10)
	}
	if m, ok := exactMilli(q); ok {
		sign := ""
		if m < 0 {
			sign, m = "-", -m
		}
		return fmt.Sprintf("%s%d.%03d", sign, m/1000, m%1000)
	}
	return q.String()
}

func validateRange(f Features, def, capacity quantity.Quantity, r api.CapacityRequestPolicyRange, p *field.Path) field.ErrorList {
	if r.Min == nil {
		return field.ErrorList{field.Required(p.Child("min"), "required when validRange is defined")}
	}
	var errs field.ErrorList
	if r.Min.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(p.Child("min"), r.Min.String(), "min is larger than capacity value: "+capacity.String()))
	}
	if def.Cmp(*r.Min) < 0 {
		errs = append(errs, field.Invalid(p.Child("default"), def.String(), "default is less than min: "+r.Min.String()))
	}
	if r.Max != nil {
		if r.Min.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(p.Child("max"), r.Min.String(), "min is larger than max: "+r.Max.String()))
		}
		if r.Max.Cmp(capacity) > 0 {
			errs = append(errs, field.Invalid(p.Child("max"), r.Max.String(), "max is larger than capacity value: "+capacity.String()))
		}
		if def.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(p.Child("default"), def.String(), "default is more than max: "+r.Max.String()))
		}
	}
	type named struct {
		q    *quantity.Quantity
		name string
	}
	bounds := []named{{&def, "default"}, {r.Min, "min"}, {r.Max, "max"}, {r.Step, "step"}}
	milli := f.FractionalCapacityRange && isFractional(def) || f.FractionalCapacityRange && slices.ContainsFunc([]*quantity.Quantity{r.Min, r.Max, r.Step}, func(q *quantity.Quantity) bool { return q != nil && isFractional(*q) })
	if milli {
		bad := false
		for _, b := range bounds {
			if b.q == nil {
				continue
			}
			if _, ok := exactMilli(*b.q); !ok {
				errs = append(errs, field.Invalid(p.Child(b.name), b.q.String(), "value cannot be represented as a milli value"))
				bad = true
			}
		}
		if bad {
			return errs
		}
	}
	if r.Step == nil {
		return errs
	}
	if r.Step.Sign() <= 0 {
		return append(errs, field.Invalid(p.Child("step"), r.Step.String(), "must be greater than zero"))
	}
	added := *r.Min
	added.Add(*r.Step)
	if added.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(p.Child("step"), r.Step.String(), fmt.Sprintf("one step %s is larger than capacity value: %s", added.String(), capacity.String())))
	}
	if !milli {
		bad := false
		for _, b := range bounds {
			if b.q == nil {
				continue
			}
			switch {
			case b.q.Sign() < 0:
				errs = append(errs, field.Invalid(p.Child(b.name), b.q.String(), "must be greater than or equal to 0"))
				bad = true
			case b.q.CmpInt64(math.MaxInt64) > 0:
				errs = append(errs, field.Invalid(p.Child(b.name), b.q.String(), "must not be larger than 9223372036854775807"))
				bad = true
			}
		}
		if bad {
			return errs
		}
	}
	errs = append(errs, validateStep(def, *r.Min, *r.Step, milli, p.Child("step"))...)
	if r.Max != nil {
		errs = append(errs, validateStep(*r.Max, *r.Min, *r.Step, milli, p.Child("step"))...)
	}
	return errs
}

func validateStep(v, lo, step quantity.Quantity, milli bool, p *field.Path) field.ErrorList {
	var s, l, x int64
	if milli {
		s, l, x = step.MilliValue(), lo.MilliValue(), v.MilliValue()
	} else {
		s, l, x = step.Value(), lo.Value(), v.Value()
	}
	if s != 0 && (x-l)%s != 0 {
		return field.ErrorList{field.Invalid(p, v.String(), fmt.Sprintf("value is not a multiple of a given step (%s) from (%s)", step.String(), lo.String()))}
	}
	return nil
}

// isFractional reports whether q is not a whole number.
func isFractional(q quantity.Quantity) bool {
	return !q.RoundUp(0) // q is a copy
}

var validTaintEffects = []api.DeviceTaintEffect{api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNone}

func validateDeviceTaint(t api.DeviceTaint, p *field.Path) field.ErrorList {
	errs := validateLabelName(t.Key, p.Child("key"))
	if t.Value != "" {
		errs = append(errs, validateLabelValue(t.Value, p.Child("value"))...)
	}
	switch {
	case t.Effect == "":
		errs = append(errs, field.Required(p.Child("effect"), ""))
	case !slices.Contains(validTaintEffects, t.Effect):
		errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, validTaintEffects))
	}
	return errs
}

func validateDeviceToleration(t api.DeviceToleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, validateLabelName(t.Key, p.Child("key"))...)
	}
	switch t.Operator {
	case api.DeviceTolerationOpExists:
		if t.Value != "" {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, "must be empty for operator `Exists`"))
		}
	case api.DeviceTolerationOpEqual:
		errs = append(errs, validateLabelValue(t.Value, p.Child("value"))...)
	case "":
		errs = append(errs, field.Required(p.Child("operator"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []api.DeviceTolerationOperator{api.DeviceTolerationOpEqual, api.DeviceTolerationOpExists}))
	}
	if t.Effect != "" && !slices.Contains(validTaintEffects, t.Effect) {
		errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, validTaintEffects))
	}
	return errs
}

func validateBindingConditions(conds, failures []string, p *field.Path) field.ErrorList {
	cp, fp := p.Child("bindingConditions"), p.Child("bindingFailureConditions")
	errs := validateSlice(conds, api.BindingConditionsMaxSize, validateLabelName, cp)
	errs = append(errs, validateSlice(failures, api.BindingFailureConditionsMaxSize, validateLabelName, fp)...)
	for i, c := range conds {
		if slices.Contains(conds[:i], c) {
			errs = append(errs, field.Duplicate(cp.Index(i), c))
		}
	}
	for i, c := range failures {
		if slices.Contains(failures[:i], c) {
			errs = append(errs, field.Duplicate(fp.Index(i), c))
		}
		if slices.Contains(conds, c) {
			errs = append(errs, field.Invalid(fp.Index(i), c, "bindingFailureConditions must not overlap with bindingConditions"))
		}
	}
	if len(conds) == 0 && len(failures) > 0 {
		errs = append(errs, field.Invalid(cp, conds, "bindingConditions are required to use bindingFailureConditions"))
	}
	if len(failures) == 0 && len(conds) > 0 {
		errs = append(errs, field.Invalid(fp, failures, "bindingFailureConditions are required to use bindingConditions"))
	}
	return errs
}

// ValidateDeviceTaintRule validates a rule's selector and taint.
func ValidateDeviceTaintRule(r *api.DeviceTaintRule) field.ErrorList {
	p := field.NewPath("spec")
	var errs field.ErrorList
	if s := r.Spec.DeviceSelector; s != nil {
		sp := p.Child("deviceSelector")
		if s.Driver != nil {
			errs = append(errs, validateDriverName(*s.Driver, sp.Child("driver"))...)
		}
		if s.Pool != nil {
			errs = append(errs, validatePoolName(*s.Pool, sp.Child("pool"))...)
		}
		if s.Device != nil {
			errs = append(errs, validateDNS1123Label(*s.Device, sp.Child("device"))...)
		}
	}
	return append(errs, validateDeviceTaint(r.Spec.Taint, p.Child("taint"))...)
}

// validateSlice checks the size (which short-circuits) and each item.
func validateSlice[T any](items []T, max int, each func(T, *field.Path) field.ErrorList, p *field.Path) field.ErrorList {
	if max >= 0 && len(items) > max {
		return field.ErrorList{field.TooMany(p, len(items), max)}
	}
	var errs field.ErrorList
	for i, it := range items {
		errs = append(errs, each(it, p.Index(i))...)
	}
	return errs
}

// validateSet is validateSlice plus a duplicate check by key.
func validateSet[T any, K comparable](items []T, max int, each func(T, *field.Path) field.ErrorList, key func(T) K, p *field.Path) field.ErrorList {
	if max >= 0 && len(items) > max {
		return field.ErrorList{field.TooMany(p, len(items), max)}
	}
	errs := validateSlice(items, -1, each, p)
	seen := make(map[K]bool, len(items))
	for i, it := range items {
		k := key(it)
		if seen[k] {
			errs = append(errs, field.Duplicate(p.Index(i), k))
		}
		seen[k] = true
	}
	return errs
}

// truncate shortens a long map key in the middle for a field path.
func truncate(s string, max int) string {
	if max < 16 {
		max = 16
	}
	if len(s) <= max {
		return s
	}
	rem := max - 3
	return s[:(rem+1)/2] + "..." + s[len(s)-rem/2:]
}
