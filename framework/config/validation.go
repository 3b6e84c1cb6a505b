package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/affinity"
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
	var root fieldPath
	resPath := root.child("ignoredResources")
	for i, res := range a.IgnoredResources {
		errs = append(errs, validateLabelName(res, resPath.index(i))...)
	}
	groupPath := root.child("ignoredResourceGroups")
	for i, group := range a.IgnoredResourceGroups {
		p := groupPath.index(i)
		if strings.Contains(group, "/") {
			errs = append(errs, invalid(p, group, "resource group name can't contain '/'"))
		}
		errs = append(errs, validateLabelName(group, p)...)
	}
	strategyPath := root.child("scoringStrategy")
	if s := a.ScoringStrategy; s != nil {
		supported := false
		for _, t := range supportedScoringStrategyTypes {
			if string(s.Type) == t {
				supported = true
			}
		}
		if !supported {
			errs = append(errs, notSupported(strategyPath.child("type"), s.Type, supportedScoringStrategyTypes))
		}
		errs = append(errs, validateResources(s.Resources, strategyPath.child("resources"))...)
		ratioPath := strategyPath.child("requestedToCapacityRatio")
		if s.Type == RequestedToCapacityRatio {
			if s.RequestedToCapacityRatio == nil {
				errs = append(errs, required(ratioPath, "must be specified when type is RequestedToCapacityRatio"))
			} else {
				errs = append(errs, validateFunctionShape(s.RequestedToCapacityRatio.Shape, ratioPath.child("shape"))...)
			}
		} else if s.RequestedToCapacityRatio != nil {
			errs = append(errs, forbidden(ratioPath, "must be nil when type is not RequestedToCapacityRatio"))
		}
	} else {
		errs = append(errs, required(strategyPath, "ScoringStrategy field is required"))
	}
	return errs.asError()
}

// Validate checks a as kube-scheduler's
// ValidateNodeResourcesBalancedAllocationArgs does: no resource twice and
// every weight exactly 1. The error, if any, is an ErrorList.
func (a *NodeResourcesBalancedAllocationArgs) Validate() error {
	var errs ErrorList
	var root fieldPath
	seen := make(map[string]bool, len(a.Resources))
	for i, r := range a.Resources {
		p := root.child("resources").index(i)
		if seen[r.Name] {
			errs = append(errs, duplicate(p.child("name"), r.Name))
		} else {
			seen[r.Name] = true
		}
		if r.Weight != 1 {
			errs = append(errs, invalid(p.child("weight"), r.Weight, "must be 1"))
		}
	}
	return errs.asError()
}

// validateLabelName mirrors apimachinery's ValidateLabelName: one Invalid
// error per problem with the qualified name.
func validateLabelName(name string, p fieldPath) ErrorList {
	var errs ErrorList
	for _, msg := range affinity.ValidateLabelKey(name) {
		errs = append(errs, invalid(p, name, msg))
	}
	return errs
}

func validateResources(resources []ResourceSpec, p fieldPath) ErrorList {
	var errs ErrorList
	for i, r := range resources {
		if r.Weight <= 0 || r.Weight > MaxResourceWeight {
			msg := fmt.Sprintf("resource weight of %v not in valid range (0, %d]", r.Name, MaxResourceWeight)
			errs = append(errs, invalid(p.index(i).child("weight"), r.Weight, msg))
		}
	}
	return errs
}

func validateFunctionShape(shape []UtilizationShapePoint, p fieldPath) ErrorList {
	const (
		minUtilization = 0
		maxUtilization = MaxUtilization
		minScore       = 0
		maxScore       = int32(MaxCustomPriorityScore)
	)
	var errs ErrorList
	if len(shape) == 0 {
		return append(errs, required(p, "at least one point must be specified"))
	}
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, invalid(p.index(i).child("utilization"), shape[i].Utilization, "values must be sorted in increasing order"))
			break
		}
	}
	for i, pt := range shape {
		if pt.Utilization < minUtilization || pt.Utilization > maxUtilization {
			errs = append(errs, invalid(p.index(i).child("utilization"), pt.Utilization, fmt.Sprintf("not in valid range [%d, %d]", minUtilization, maxUtilization)))
		}
		if pt.Score < minScore || pt.Score > maxScore {
			errs = append(errs, invalid(p.index(i).child("score"), pt.Score, fmt.Sprintf("not in valid range [%d, %d]", minScore, maxScore)))
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
	root := fieldPath("").child("addedAffinity")
	if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		if _, err := affinity.NewNodeSelector(ns); err != nil {
			errs = append(errs, fromAffinity(err, string(root.child("requiredDuringSchedulingIgnoredDuringExecution"))+".")...)
		}
	}
	if terms := a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution; len(terms) != 0 {
		if _, err := affinity.NewPreferredSchedulingTerms(terms); err != nil {
			errs = append(errs, fromAffinity(err, string(root.child("preferredDuringSchedulingIgnoredDuringExecution")))...)
		}
	}
	return errs.asError()
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
		out[i] = &FieldError{Type: ErrorType(e.Type), Field: prefix + e.Field, BadValue: e.BadValue, Detail: e.Detail}
	}
	return out
}
