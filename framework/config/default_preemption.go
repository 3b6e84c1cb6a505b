package config

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// Defaults of DefaultPreemptionArgs, as kube-scheduler's v1 defaulting.
const (
	// DefaultMinCandidateNodesPercentage is the default share of the
	// potential nodes preemption dry-runs, in percent.
	DefaultMinCandidateNodesPercentage int32 = 10
	// DefaultMinCandidateNodesAbsolute is the default least number of
	// nodes preemption dry-runs.
	DefaultMinCandidateNodesAbsolute int32 = 100
)

// DefaultPreemptionArgs configures the DefaultPreemption plugin, as
// kube-scheduler's v1 DefaultPreemptionArgs: a nil field takes its
// default. The number of nodes dry-run is
// max(numNodes*MinCandidateNodesPercentage/100, MinCandidateNodesAbsolute),
// at most numNodes.
type DefaultPreemptionArgs struct {
	api.TypeMeta `json:",inline"`
	// MinCandidateNodesPercentage is the least share of the potential
	// nodes to dry-run, in [0, 100]; 10 by default.
	MinCandidateNodesPercentage *int32 `json:"minCandidateNodesPercentage,omitempty"`
	// MinCandidateNodesAbsolute is the least number of potential nodes to
	// dry-run, at least 0; 100 by default.
	MinCandidateNodesAbsolute *int32 `json:"minCandidateNodesAbsolute,omitempty"`
}

// Percentage returns MinCandidateNodesPercentage, its default when nil.
func (a *DefaultPreemptionArgs) Percentage() int32 {
	if a == nil || a.MinCandidateNodesPercentage == nil {
		return DefaultMinCandidateNodesPercentage
	}
	return *a.MinCandidateNodesPercentage
}

// Absolute returns MinCandidateNodesAbsolute, its default when nil.
func (a *DefaultPreemptionArgs) Absolute() int32 {
	if a == nil || a.MinCandidateNodesAbsolute == nil {
		return DefaultMinCandidateNodesAbsolute
	}
	return *a.MinCandidateNodesAbsolute
}

// DeepCopy returns a copy of a that shares nothing with it.
func (a *DefaultPreemptionArgs) DeepCopy() *DefaultPreemptionArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.MinCandidateNodesPercentage != nil {
		v := *a.MinCandidateNodesPercentage
		out.MinCandidateNodesPercentage = &v
	}
	if a.MinCandidateNodesAbsolute != nil {
		v := *a.MinCandidateNodesAbsolute
		out.MinCandidateNodesAbsolute = &v
	}
	return &out
}

// SetDefaults fills the nil fields with 10 and 100, as kube-scheduler's
// SetDefaults_DefaultPreemptionArgs.
func (a *DefaultPreemptionArgs) SetDefaults() {
	if a.MinCandidateNodesPercentage == nil {
		v := DefaultMinCandidateNodesPercentage
		a.MinCandidateNodesPercentage = &v
	}
	if a.MinCandidateNodesAbsolute == nil {
		v := DefaultMinCandidateNodesAbsolute
		a.MinCandidateNodesAbsolute = &v
	}
}

// Validate checks a as kube-scheduler's ValidateDefaultPreemptionArgs
// does (with a root field path, nil fields read as their defaults): the
// percentage must be in [0, 100], the absolute number at least 0, and
// they must not both be zero. The error, if any, is an ErrorList, such as
// `minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]`.
func (a *DefaultPreemptionArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	pctPath, absPath := root.Child("minCandidateNodesPercentage"), root.Child("minCandidateNodesAbsolute")
	pct, abs := a.Percentage(), a.Absolute()
	if pct < 0 || pct > 100 {
		errs = append(errs, field.Invalid(pctPath, pct, "not in valid range [0, 100]"))
	}
	if abs < 0 {
		errs = append(errs, field.Invalid(absPath, abs, "not in valid range [0, inf)"))
	}
	if pct == 0 && abs == 0 {
		errs = append(errs,
			field.Invalid(pctPath, pct, "cannot be zero at the same time as minCandidateNodesAbsolute"),
			field.Invalid(absPath, abs, "cannot be zero at the same time as minCandidateNodesPercentage"))
	}
	return errs.ToAggregate()
}

// DefaultPreemptionArgsFrom converts a plugin factory's args to
// DefaultPreemptionArgs, as NodeAffinityArgsFrom does: nil means all
// defaults, a value or pointer is copied and defaulted, and the result is
// validated. Any other type is an error worded as upstream's ("got args
// of type T, want *DefaultPreemptionArgs").
func DefaultPreemptionArgsFrom(args any) (*DefaultPreemptionArgs, error) {
	var a *DefaultPreemptionArgs
	switch v := args.(type) {
	case nil:
		a = &DefaultPreemptionArgs{}
	case *DefaultPreemptionArgs:
		if v == nil {
			a = &DefaultPreemptionArgs{}
		} else {
			a = v.DeepCopy()
		}
	case DefaultPreemptionArgs:
		a = v.DeepCopy()
	default:
		return nil, fmt.Errorf("got args of type %T, want *DefaultPreemptionArgs", args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}
