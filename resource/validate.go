package resource

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// FieldErrorType says what kind of problem a FieldError reports.
type FieldErrorType string

// The kinds of field errors, worded as the API server words them.
const (
	// FieldValueInvalid: the value is not allowed.
	FieldValueInvalid FieldErrorType = "Invalid value"
	// FieldValueRequired: the field must be set.
	FieldValueRequired FieldErrorType = "Required value"
	// FieldValueNotSupported: the value is not one of a fixed set.
	FieldValueNotSupported FieldErrorType = "Unsupported value"
	// FieldValueDuplicate: the value must be unique and is not.
	FieldValueDuplicate FieldErrorType = "Duplicate value"
	// FieldValueForbidden: the field may not be set this way.
	FieldValueForbidden FieldErrorType = "Forbidden"
)

// FieldError is one problem Validate found: the field's path, such as
// spec.containers[0].resources.requests.cpu, what is wrong and the value.
type FieldError struct {
	// Type is the kind of problem.
	Type FieldErrorType
	// Field is the path of the offending field.
	Field string
	// BadValue is the offending value as text; empty for Required and
	// Forbidden.
	BadValue string
	// Detail explains the problem; for NotSupported it lists the
	// supported values.
	Detail string
}

// Error formats e the way the API server formats a field error, such as
// `spec.containers[0].resources.requests.cpu: Invalid value: "2": must be
// less than or equal to cpu limit of 1`.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	b.WriteString(string(e.Type))
	switch e.Type {
	case FieldValueInvalid, FieldValueNotSupported, FieldValueDuplicate:
		b.WriteString(": ")
		b.WriteString(strconv.Quote(e.BadValue))
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

type fieldErrors []error

func (l *fieldErrors) add(t FieldErrorType, field, value, detail string) {
	*l = append(*l, &FieldError{Type: t, Field: field, BadValue: value, Detail: detail})
}

func supportedValues[T ~string](vs ...T) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(string(v))
	}
	return "supported values: " + strings.Join(q, ", ")
}

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
	var errs fieldErrors
	spec := &pod.Spec
	if len(spec.Containers) == 0 {
		errs.add(FieldValueRequired, "spec.containers", "", "")
	}
	seen := map[string]bool{}
	check := func(c *api.Container, path string) {
		if c.Name == "" {
			errs.add(FieldValueRequired, path+".name", "", "")
		} else if seen[c.Name] {
			errs.add(FieldValueDuplicate, path+".name", c.Name, "")
		}
		seen[c.Name] = true
		if c.RestartPolicy != nil {
			switch *c.RestartPolicy {
			case "Always", "OnFailure", "Never":
			default:
				errs.add(FieldValueNotSupported, path+".restartPolicy", string(*c.RestartPolicy), supportedValues("Always", "Never", "OnFailure"))
			}
		}
		validateRequirements(&errs, &c.Resources, path+".resources", false)
	}
	for i := range spec.Containers {
		check(&spec.Containers[i], fmt.Sprintf("spec.containers[%d]", i))
	}
	for i := range spec.InitContainers {
		check(&spec.InitContainers[i], fmt.Sprintf("spec.initContainers[%d]", i))
	}
	switch spec.RestartPolicy {
	case "", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever:
	default:
		errs.add(FieldValueNotSupported, "spec.restartPolicy", string(spec.RestartPolicy), supportedValues(api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever))
	}
	if p := spec.PreemptionPolicy; p != nil {
		switch *p {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs.add(FieldValueRequired, "spec.preemptionPolicy", "", "")
		default:
			errs.add(FieldValueNotSupported, "spec.preemptionPolicy", string(*p), supportedValues(api.PreemptLowerPriority, api.PreemptNever))
		}
	}
	if spec.Overhead != nil {
		validateRequirements(&errs, &api.ResourceRequirements{Limits: spec.Overhead}, "spec.overhead", false)
	}
	if spec.Resources != nil {
		validateRequirements(&errs, spec.Resources, "spec.resources", true)
		validatePodLevelConsistency(&errs, pod)
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}

// validateRequirements checks one set of requests and limits; podLevel
// selects the pod-level name rules.
func validateRequirements(errs *fieldErrors, r *api.ResourceRequirements, path string, podLevel bool) {
	limPath, reqPath := path+".limits", path+".requests"
	cpuOrMemory, hugePages := false, false
	for _, k := range ResourceNames(r.Limits) {
		q := r.Limits[k]
		p := limPath + "." + string(k)
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
		p := reqPath + "." + string(k)
		validateResourceName(errs, k, p, podLevel)
		validateQuantity(errs, k, q, p)
		if lim, ok := r.Limits[k]; ok {
			if q.Cmp(lim) != 0 && !IsOvercommitAllowed(k) {
				errs.add(FieldValueInvalid, p, q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String()))
			} else if q.Cmp(lim) > 0 {
				errs.add(FieldValueInvalid, p, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String()))
			}
		} else if !IsOvercommitAllowed(k) {
			errs.add(FieldValueRequired, limPath+"."+string(k), "", "Limit must be set for non overcommitable resources")
		}
		if IsHugePageResourceName(k) {
			hugePages = true
		}
		if k == api.ResourceCPU || k == api.ResourceMemory {
			cpuOrMemory = true
		}
	}
	if hugePages && !cpuOrMemory {
		errs.add(FieldValueForbidden, path, "", "HugePages require cpu or memory")
	}
}

func validateResourceName(errs *fieldErrors, k api.ResourceName, path string, podLevel bool) {
	s := string(k)
	if msgs := qualifiedNameErrors(s); len(msgs) > 0 {
		for _, m := range msgs {
			errs.add(FieldValueInvalid, path, s, m)
		}
		return
	}
	noDomain := !strings.Contains(s, "/")
	if noDomain && !IsStandardResourceName(k) {
		errs.add(FieldValueInvalid, path, s, "must be a standard resource type or fully qualified")
		if podLevel {
			return
		}
	}
	if podLevel {
		if !IsSupportedPodLevelResource(k) {
			errs.add(FieldValueNotSupported, path, s, supportedValues(SupportedPodLevelResources()...))
		}
		return
	}
	if noDomain {
		if !IsStandardContainerResourceName(k) {
			errs.add(FieldValueInvalid, path, s, "must be a standard resource for containers")
		}
	} else if !IsNativeResource(k) && !IsExtendedResourceName(k) {
		errs.add(FieldValueInvalid, path, s, "doesn't follow extended resource name standard")
	}
}

func validateQuantity(errs *fieldErrors, k api.ResourceName, q Quantity, path string) {
	if q.Sign() < 0 {
		errs.add(FieldValueInvalid, path, q.String(), "must be greater than or equal to 0")
	}
	if IsIntegerResourceName(k) && q.MilliValue()%1000 != 0 {
		errs.add(FieldValueInvalid, path, q.String(), "must be an integer")
	}
}

// validatePodLevelConsistency checks pod-level resources against the
// containers' (validatePodResourceConsistency upstream).
func validatePodLevelConsistency(errs *fieldErrors, pod *api.Pod) {
	r := pod.Spec.Resources
	ctrReqs := AggregateContainerRequests(pod, PodResourcesOptions{})
	for _, k := range ResourceNames(ctrReqs) {
		podReq, ok := r.Requests[k]
		if !ok {
			continue
		}
		if c := ctrReqs[k]; c.Cmp(podReq) > 0 {
			errs.add(FieldValueInvalid, "spec.resources.requests."+string(k), podReq.String(), "must be greater than or equal to aggregate container requests of "+c.String())
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
			errs.add(FieldValueInvalid, "spec.resources.limits."+string(k), podLim.String(), "must be greater than or equal to aggregate container limits of "+c.String())
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
				errs.add(FieldValueInvalid, fmt.Sprintf("spec.containers[%d].resources.limits.%s", i, k), l.String(), "must be less than or equal to pod limits of "+podLim.String())
			}
		}
	}
}
