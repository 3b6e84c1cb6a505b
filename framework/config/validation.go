package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/field"
)

// supportedScoringStrategyTypes, sorted as upstream lists them in errors.
var supportedScoringStrategyTypes = []string{string(LeastAllocated), string(MostAllocated), string(RequestedToCapacityRatio)}

// Validate checks a as kube-scheduler's ValidateNodeResourcesFitArgs does
// (with a root field path): ignored resources and groups must be valid
// label names, groups must not contain '/', the strategy must be set with
// a supported type, weights must be in (0, 100], and
// requestedToCapacityRatio must be set exactly for that type with a valid
// shape. The error, if any, is an ErrorList.
func (a *NodeResourcesFitArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	resPath := root.Child("ignoredResources")
	for i, res := range a.IgnoredResources {
		errs = append(errs, validateLabelName(res, resPath.Index(i))...)
	}
	groupPath := root.Child("ignoredResourceGroups")
	for i, group := range a.IgnoredResourceGroups {
		p := groupPath.Index(i)
		if strings.Contains(group, "/") {
			errs = append(errs, field.Invalid(p, group, "resource group name can't contain '/'"))
		}
		errs = append(errs, validateLabelName(group, p)...)
	}
	strategyPath := root.Child("scoringStrategy")
	if s := a.ScoringStrategy; s != nil {
		supported := false
		for _, t := range supportedScoringStrategyTypes {
			if string(s.Type) == t {
				supported = true
			}
		}
		if !supported {
			errs = append(errs, field.NotSupported(strategyPath.Child("type"), s.Type, supportedScoringStrategyTypes))
		}
		errs = append(errs, validateResources(s.Resources, strategyPath.Child("resources"))...)
		ratioPath := strategyPath.Child("requestedToCapacityRatio")
		if s.Type == RequestedToCapacityRatio {
			if s.RequestedToCapacityRatio == nil {
				errs = append(errs, field.Required(ratioPath, "must be specified when type is RequestedToCapacityRatio"))
			} else {
				errs = append(errs, validateFunctionShape(s.RequestedToCapacityRatio.Shape, ratioPath.Child("shape"))...)
			}
		} else if s.RequestedToCapacityRatio != nil {
			errs = append(errs, field.Forbidden(ratioPath, "must be nil when type is not RequestedToCapacityRatio"))
		}
	} else {
		errs = append(errs, field.Required(strategyPath, "ScoringStrategy field is required"))
	}
	return errs.ToAggregate()
}

// Validate checks a as kube-scheduler's
// ValidateNodeResourcesBalancedAllocationArgs does: no resource twice and
// every weight exactly 1. The error, if any, is an ErrorList.
func (a *NodeResourcesBalancedAllocationArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	seen := make(map[string]bool, len(a.Resources))
	for i, r := range a.Resources {
		p := root.Child("resources").Index(i)
		if seen[r.Name] {
			errs = append(errs, field.Duplicate(p.Child("name"), r.Name))
		} else {
			seen[r.Name] = true
		}
		if r.Weight != 1 {
			errs = append(errs, field.Invalid(p.Child("weight"), r.Weight, "must be 1"))
		}
	}
	return errs.ToAggregate()
}

// validateLabelName mirrors apimachinery's ValidateLabelName: one Invalid
// error per problem with the qualified name.
func validateLabelName(name string, p *field.Path) ErrorList {
	var errs ErrorList
	for _, msg := range affinity.ValidateLabelKey(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	return errs
}

func validateResources(resources []ResourceSpec, p *field.Path) ErrorList {
	var errs ErrorList
	for i, r := range resources {
		if r.Weight <= 0 || r.Weight > MaxResourceWeight {
			msg := fmt.Sprintf("resource weight of %v not in valid range (0, %d]", r.Name, MaxResourceWeight)
			errs = append(errs, field.Invalid(p.Index(i).Child("weight"), r.Weight, msg))
		}
	}
	return errs
}

func validateFunctionShape(shape []UtilizationShapePoint, p *field.Path) ErrorList {
	const (
		minUtilization = 0
		maxUtilization = MaxUtilization
		minScore       = 0
		maxScore       = int32(MaxCustomPriorityScore)
	)
	var errs ErrorList
	if len(shape) == 0 {
		return append(errs, field.Required(p, "at least one point must be specified"))
	}
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, field.Invalid(p.Index(i).Child("utilization"), shape[i].Utilization, "values must be sorted in increasing order"))
			break
		}
	}
	for i, pt := range shape {
		if pt.Utilization < minUtilization || pt.Utilization > maxUtilization {
			errs = append(errs, field.Invalid(p.Index(i).Child("utilization"), pt.Utilization, fmt.Sprintf("not in valid range [%d, %d]", minUtilization, maxUtilization)))
		}
		if pt.Score < minScore || pt.Score > maxScore {
			errs = append(errs, field.Invalid(p.Index(i).Child("score"), pt.Score, fmt.Sprintf("not in valid range [%d, %d]", minScore, maxScore)))
		}
	}
	return errs
}

// Validate checks a as kube-scheduler's ValidateNodeAffinityArgs does:
// the added affinity's required node selector and preferred terms must
// compile (valid label keys and values, operators and value counts, only
// metadata.name in matchFields). Errors carry upstream's field paths,
// such as
// "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key".
// The error, if any, is an ErrorList.
func (a *NodeAffinityArgs) Validate() error {
	if a.AddedAffinity == nil {
		return nil
	}
	var errs ErrorList
	root := field.NewPath("addedAffinity")
	if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		if _, err := affinity.NewNodeSelector(ns); err != nil {
			errs = append(errs, fromAffinity(err, root.Child("requiredDuringSchedulingIgnoredDuringExecution").String()+".")...)
		}
	}
	if terms := a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution; len(terms) != 0 {
		if _, err := affinity.NewPreferredSchedulingTerms(terms); err != nil {
			errs = append(errs, fromAffinity(err, root.Child("preferredDuringSchedulingIgnoredDuringExecution").String())...)
		}
	}
	return errs.ToAggregate()
}

// fromAffinity converts package affinity's errors, whose field paths are
// relative, prefixing each path.
func fromAffinity(err error, prefix string) ErrorList {
	var l affinity.ErrorList
	if !errors.As(err, &l) {
		return ErrorList{{Type: ErrorTypeInvalid, Field: strings.TrimSuffix(prefix, "."), BadValue: "", Detail: err.Error()}}
	}
	out := make(ErrorList, len(l))
	for i, e := range l {
		out[i] = &FieldError{Type: e.Type, Field: prefix + e.Field, BadValue: e.BadValue, Detail: e.Detail}
	}
	return out
}
