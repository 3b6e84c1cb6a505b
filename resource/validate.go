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
// field's path, such as spec.containers[0].resources.requests.cpu, what is
// wrong, the value (as text) and a detail, printed the way the API server
// prints a field error, such as
// `spec.containers[0].resources.requests.cpu: Invalid value: "2": must be
// less than or equal to cpu limit of 1`.
type FieldError = field.Error

// Validate checks the pod's resources and the fields they depend on the
// way the API server's validation does, and returns every problem found,
// joined with errors.Join (each a *FieldError, in field order), or nil.
// It checks:
//
//   - there is at least one container; container names are set and
//     unique across containers and init containers;
//   - each container's resource names are qualified names that a
//     container may request (cpu, memory, ephemeral-storage, hugepages-*,
//     kubernetes.io/ names or extended resources);
//   - no quantity is negative, and extended resources are whole numbers;
//   - no request exceeds its limit; huge pages and extended resources
//     request exactly their limit, and must have one; huge pages need a
//     cpu or memory request or limit beside them;
//   - container restartPolicy is Always, OnFailure or Never; the pod's
//     restartPolicy is Always, OnFailure, Never or unset (which the API
//     server defaults to Always); preemptionPolicy, if set, is
//     PreemptLowerPriority or Never;
//   - the overhead follows the container rules;
//   - pod-level resources name only cpu, memory and huge pages, requests
//     do not exceed limits, pod-level requests are at least what the
//     containers request together, pod-level huge page limits at least
//     the containers' total, and no container limit exceeds the pod-level
//     limit.
//
// Paths name a resource with a dot (requests.cpu) where the API server
// writes requests[cpu]; the request-over-limit error names the resource
// (requests.cpu) where the API server names only requests. Label
// selectors are checked by package affinity, not here.
func Validate(pod *api.Pod) error {
	if pod == nil {
		return errors.New("resource: Validate of a nil pod")
	}
	var errs field.ErrorList
	spec := &pod.Spec
	specPath := field.NewPath("spec")
	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(specPath.Child("containers"), ""))
	}
	seen := map[string]bool{}
	check := func(c *api.Container, path *field.Path) {
		if c.Name == "" {
			errs = append(errs, field.Required(path.Child("name"), ""))
		} else if seen[c.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), c.Name))
		}
		seen[c.Name] = true
		if c.RestartPolicy != nil {
			switch *c.RestartPolicy {
			case "Always", "OnFailure", "Never":
			default:
				errs = append(errs, field.NotSupported(path.Child("restartPolicy"), string(*c.RestartPolicy), []string{"Always", "Never", "OnFailure"}))
			}
		}
		validateRequirements(&errs, &c.Resources, path.Child("resources"), false)
	}
	for i := range spec.Containers {
		check(&spec.Containers[i], specPath.Child("containers").Index(i))
	}
	for i := range spec.InitContainers {
		check(&spec.InitContainers[i], specPath.Child("initContainers").Index(i))
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
	if spec.Resources != nil {
		validateRequirements(&errs, spec.Resources, specPath.Child("resources"), true)
		validatePodLevelConsistency(&errs, pod)
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs.Unwrap()...)
}

// validateRequirements checks one set of requests and limits; podLevel
// selects the pod-level name rules.
func validateRequirements(errs *field.ErrorList, r *api.ResourceRequirements, path *field.Path, podLevel bool) {
	limPath, reqPath := path.Child("limits"), path.Child("requests")
	cpuOrMemory, hugePages := false, false
	for _, k := range ResourceNames(r.Limits) {
		q := r.Limits[k]
		p := limPath.Child(string(k))
		validateResourceName(errs, k, p, podLevel)
		validateQuantity(errs, k, q, p)
		if IsHugePageResourceName(k) {
			hugePages = true
		}
		if k == api.ResourceCPU || k == api.ResourceMemory {
			cpuOrMemory = true
		}
	}
	for _, k := range ResourceNames(r.Requests) {
		q := r.Requests[k]
		p := reqPath.Child(string(k))
		validateResourceName(errs, k, p, podLevel)
		validateQuantity(errs, k, q, p)
		if lim, ok := r.Limits[k]; ok {
			if q.Cmp(lim) != 0 && !IsOvercommitAllowed(k) {
				*errs = append(*errs, field.Invalid(p, q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
			} else if q.Cmp(lim) > 0 {
				*errs = append(*errs, field.Invalid(p, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
			}
		} else if !IsOvercommitAllowed(k) {
			*errs = append(*errs, field.Required(limPath.Child(string(k)), "Limit must be set for non overcommitable resources"))
		}
		if IsHugePageResourceName(k) {
			hugePages = true
		}
		if k == api.ResourceCPU || k == api.ResourceMemory {
			cpuOrMemory = true
		}
	}
	if hugePages && !cpuOrMemory {
		*errs = append(*errs, field.Forbidden(path, "HugePages require cpu or memory"))
	}
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
// containers' (validatePodResourceConsistency upstream).
func validatePodLevelConsistency(errs *field.ErrorList, pod *api.Pod) {
	r := pod.Spec.Resources
	spec := field.NewPath("spec")
	ctrReqs := AggregateContainerRequests(pod, PodResourcesOptions{})
	for _, k := range ResourceNames(ctrReqs) {
		podReq, ok := r.Requests[k]
		if !ok {
			continue
		}
		if c := ctrReqs[k]; c.Cmp(podReq) > 0 {
			*errs = append(*errs, field.Invalid(spec.Child("resources", "requests", string(k)), podReq.String(), "must be greater than or equal to aggregate container requests of "+c.String()))
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
			*errs = append(*errs, field.Invalid(spec.Child("resources", "limits", string(k)), podLim.String(), "must be greater than or equal to aggregate container limits of "+c.String()))
		}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		for _, k := range ResourceNames(c.Resources.Limits) {
			podLim, ok := r.Limits[k]
			if !ok {
				continue
			}
			if l := c.Resources.Limits[k]; l.Cmp(podLim) > 0 {
				*errs = append(*errs, field.Invalid(spec.Child("containers").Index(i).Child("resources", "limits", string(k)), l.String(), "must be less than or equal to pod limits of "+podLim.String()))
			}
		}
	}
}
