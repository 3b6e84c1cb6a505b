package resource

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// FieldErrorType says what kind of problem a FieldError reports: package
// field's ErrorType, whose String is the phrase the API server prints.
type FieldErrorType = field.ErrorType

// The kinds of field errors, worded as the API server words them.
const (
	// FieldValueInvalid: the value is not allowed.
	FieldValueInvalid = field.ErrorTypeInvalid
	// FieldValueRequired: the field must be set.
	FieldValueRequired = field.ErrorTypeRequired
	// FieldValueNotSupported: the value is not one of a fixed set.
	FieldValueNotSupported = field.ErrorTypeNotSupported
	// FieldValueDuplicate: the value must be unique and is not.
	FieldValueDuplicate = field.ErrorTypeDuplicate
	// FieldValueForbidden: the field may not be set this way.
	FieldValueForbidden = field.ErrorTypeForbidden
)

// FieldError is one problem Validate found, package field's Error: the
// field's path, such as spec.containers[0].resources.requests, what is
// wrong, the value (as text) and a detail, printed the way the API server
// prints a field error, such as
// `spec.containers[0].resources.requests: Invalid value: "2": must be
// less than or equal to cpu limit of 1`.
type FieldError = field.Error

// Validate checks the pod's resources and the fields they depend on the
// way the API server's pod validation does on create, and returns the
// problems found as a field.ErrorList (through ToAggregate: each distinct
// message once, printed as the API server prints the list: one message
// alone, several as "[a, b]"), or nil. It checks:
//
//   - there is at least one container; container names are set and
//     unique (regular containers among themselves, init containers
//     against the regular ones and each other);
//   - each container's resource names are qualified names that a
//     container may request (cpu, memory, ephemeral-storage, hugepages-*,
//     kubernetes.io/ names or extended resources);
//   - no quantity is negative, extended resources are whole numbers and
//     huge page quantities whole multiples of their page size;
//   - no request exceeds its limit; huge pages and extended resources
//     request exactly their limit, and must have one; huge pages need a
//     cpu or memory request or limit beside them;
//   - container restartPolicy is Always, OnFailure or Never; the pod's
//     restartPolicy is Always, OnFailure, Never or unset (which the API
//     server defaults to Always); preemptionPolicy, if set, is
//     PreemptLowerPriority or Never;
//   - pod-level resources name only cpu, memory and huge pages, requests
//     do not exceed limits, pod-level requests are at least what the
//     containers request together, pod-level huge page limits at least
//     the containers' total, and no container limit exceeds the pod-level
//     limit;
//   - the overhead follows the container rules.
//
// Paths and texts are the API server's, quirks included: a resource is a
// map key (requests[cpu]); the request-over-limit and request-not-equal-
// limit errors name only requests, the missing-limit error only limits;
// a container limit above the pod-level limit is reported at
// spec.resources.containers[i][cpu].limits. Errors come in the API
// server's order: containers (each: name, image, resources, duplicate name,
// restartPolicy), init containers (the same), pod-level resources,
// restartPolicy, preemptionPolicy, overhead. Within one list of requests
// or limits upstream walks a Go map, so its order between resource names
// varies from run to run; schedkit reports them sorted by name. Label
// selectors are checked by package affinity, not here.
func Validate(pod *api.Pod) error {
	if pod == nil {
		return errors.New("resource: Validate of a nil pod")
	}
	var errs field.ErrorList
	spec := &pod.Spec
	specPath := field.NewPath("spec")
	checkPolicy := func(c *api.Container, path *field.Path) {
		if c.RestartPolicy != nil {
			switch *c.RestartPolicy {
			case "Always", "OnFailure", "Never":
			default:
				errs = append(errs, field.NotSupported(path.Child("restartPolicy"), string(*c.RestartPolicy), []string{"Always", "Never", "OnFailure"}))
			}
		}
	}
	checkCommon := func(c *api.Container, path *field.Path) {
		if c.Name == "" {
			errs = append(errs, field.Required(path.Child("name"), ""))
		}
		if c.Image == "" {
			errs = append(errs, field.Required(path.Child("image"), ""))
		}
		validateRequirements(&errs, &c.Resources, path.Child("resources"), false)
	}
	ctrsPath := specPath.Child("containers")
	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(ctrsPath, ""))
	}
	names := map[string]bool{}
	for i := range spec.Containers {
		c, path := &spec.Containers[i], ctrsPath.Index(i)
		checkCommon(c, path)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), c.Name))
		}
		names[c.Name] = true
		checkPolicy(c, path)
	}
	initPath := specPath.Child("initContainers")
	for i := range spec.InitContainers {
		c, path := &spec.InitContainers[i], initPath.Index(i)
		checkCommon(c, path)
		checkPolicy(c, path)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
	}
	if spec.Resources != nil {
		resPath := specPath.Child("resources")
		validateRequirements(&errs, spec.Resources, resPath, true)
		validatePodLevelConsistency(&errs, pod, resPath)
	}
	switch spec.RestartPolicy {
	case "", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever:
	default:
		errs = append(errs, field.NotSupported(specPath.Child("restartPolicy"), string(spec.RestartPolicy), []api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}))
	}
	if p := spec.PreemptionPolicy; p != nil {
		switch *p {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, field.Required(specPath.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(specPath.Child("preemptionPolicy"), string(*p), []api.PreemptionPolicy{api.PreemptLowerPriority, api.PreemptNever}))
		}
	}
	if spec.Overhead != nil {
		validateRequirements(&errs, &api.ResourceRequirements{Limits: spec.Overhead}, specPath.Child("overhead"), false)
	}
	return errs.ToAggregate()
}

// validateRequirements checks one set of requests and limits; podLevel
// selects the pod-level name rules.
func validateRequirements(errs *field.ErrorList, r *api.ResourceRequirements, path *field.Path, podLevel bool) {
	limPath, reqPath := path.Child("limits"), path.Child("requests")
	cpuOrMemory, hugePages := false, false
	for _, k := range ResourceNames(r.Limits) {
		q := r.Limits[k]
		p := limPath.Key(string(k))
		validateResourceName(errs, k, p, podLevel)
		validateQuantity(errs, k, q, p)
		if IsHugePageResourceName(k) {
			hugePages = true
			validateHugePageValue(errs, k, q, p)
		}
		if k == api.ResourceCPU || k == api.ResourceMemory {
			cpuOrMemory = true
		}
	}
	for _, k := range ResourceNames(r.Requests) {
		q := r.Requests[k]
		p := reqPath.Key(string(k))
		validateResourceName(errs, k, p, podLevel)
		validateQuantity(errs, k, q, p)
		if lim, ok := r.Limits[k]; ok {
			if q.Cmp(lim) != 0 && !IsOvercommitAllowed(k) {
				*errs = append(*errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
			} else if q.Cmp(lim) > 0 {
				*errs = append(*errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
			}
		} else if !IsOvercommitAllowed(k) {
			*errs = append(*errs, field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
		if IsHugePageResourceName(k) {
			hugePages = true
			validateHugePageValue(errs, k, q, p)
		}
		if k == api.ResourceCPU || k == api.ResourceMemory {
			cpuOrMemory = true
		}
	}
	if hugePages && !cpuOrMemory {
		*errs = append(*errs, field.Forbidden(path, "HugePages require cpu or memory"))
	}
}

// validateHugePageValue checks that a huge page quantity is a whole
// multiple of its page size, as the API server does on create.
func validateHugePageValue(errs *field.ErrorList, k api.ResourceName, q Quantity, path *field.Path) {
	size, err := ParseQuantity(strings.TrimPrefix(string(k), api.ResourceHugePagesPrefix))
	if err == nil && size.Sign() > 0 && size.MilliValue()%1000 == 0 && q.Value()%size.Value() == 0 {
		return
	}
	*errs = append(*errs, field.Invalid(path, q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), k)))
}

func validateResourceName(errs *field.ErrorList, k api.ResourceName, path *field.Path, podLevel bool) {
	s := string(k)
	if msgs := qualifiedNameErrors(s); len(msgs) > 0 {
		for _, m := range msgs {
			*errs = append(*errs, field.Invalid(path, s, m))
		}
		return
	}
	noDomain := !strings.Contains(s, "/")
	if noDomain && !IsStandardResourceName(k) {
		*errs = append(*errs, field.Invalid(path, s, "must be a standard resource type or fully qualified"))
		if podLevel {
			return
		}
	}
	if podLevel {
		if !IsSupportedPodLevelResource(k) {
			*errs = append(*errs, field.NotSupported(path, s, SupportedPodLevelResources()))
		}
		return
	}
	if noDomain {
		if !IsStandardContainerResourceName(k) {
			*errs = append(*errs, field.Invalid(path, s, "must be a standard resource for containers"))
		}
	} else if !IsNativeResource(k) && !IsExtendedResourceName(k) {
		*errs = append(*errs, field.Invalid(path, s, "doesn't follow extended resource name standard"))
	}
}

func validateQuantity(errs *field.ErrorList, k api.ResourceName, q Quantity, path *field.Path) {
	if q.Sign() < 0 {
		*errs = append(*errs, field.Invalid(path, q.String(), "must be greater than or equal to 0"))
	}
	if IsIntegerResourceName(k) && q.MilliValue()%1000 != 0 {
		*errs = append(*errs, field.Invalid(path, q.String(), "must be an integer"))
	}
}

// validatePodLevelConsistency checks pod-level resources against the
// containers' (validatePodResourceConsistency upstream); path is
// spec.resources.
func validatePodLevelConsistency(errs *field.ErrorList, pod *api.Pod, path *field.Path) {
	r := pod.Spec.Resources
	ctrReqs := AggregateContainerRequests(pod, PodResourcesOptions{})
	for _, k := range ResourceNames(ctrReqs) {
		podReq, ok := r.Requests[k]
		if !ok {
			continue
		}
		if c := ctrReqs[k]; c.Cmp(podReq) > 0 {
			*errs = append(*errs, field.Invalid(path.Child("requests").Key(string(k)), podReq.String(), "must be greater than or equal to aggregate container requests of "+c.String()))
		}
	}
	ctrLims := AggregateContainerLimits(pod, PodResourcesOptions{})
	for _, k := range ResourceNames(ctrLims) {
		if !IsHugePageResourceName(k) {
			continue
		}
		podLim, ok := r.Limits[k]
		if !ok {
			continue
		}
		if c := ctrLims[k]; c.Cmp(podLim) > 0 {
			*errs = append(*errs, field.Invalid(path.Child("limits").Key(string(k)), podLim.String(), "must be greater than or equal to aggregate container limits of "+c.String()))
		}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		for _, k := range ResourceNames(c.Resources.Limits) {
			podLim, ok := r.Limits[k]
			if !ok {
				continue
			}
			// Upstream's path puts the resource key before "limits".
			if l := c.Resources.Limits[k]; l.Cmp(podLim) > 0 {
				*errs = append(*errs, field.Invalid(path.Child("containers").Index(i).Key(string(k)).Child("limits"), l.String(), "must be less than or equal to pod limits of "+podLim.String()))
			}
		}
	}
}
