package config

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// Bounds of InterPodAffinityArgs.HardPodAffinityWeight, as upstream's
// validation.
const (
	// MinHardPodAffinityWeight is the lowest valid weight; 0 turns the
	// scoring of existing pods' required affinity off.
	MinHardPodAffinityWeight int32 = 0
	// MaxHardPodAffinityWeight is the highest valid weight.
	MaxHardPodAffinityWeight int32 = 100
	// DefaultHardPodAffinityWeight is the v1 default.
	DefaultHardPodAffinityWeight int32 = 1
)

// InterPodAffinityArgs configures the InterPodAffinity plugin
// (k8s.io/kube-scheduler/config/v1 InterPodAffinityArgs).
type InterPodAffinityArgs struct {
	api.TypeMeta `json:",inline"`
	// HardPodAffinityWeight is the score weight of an existing pod's
	// required pod affinity term that the incoming pod matches; nil
	// defaults to DefaultHardPodAffinityWeight. Valid values are 0 to 100.
	HardPodAffinityWeight *int32 `json:"hardPodAffinityWeight,omitempty"`
	// IgnorePreferredTermsOfExistingPods makes scoring skip the existing
	// pods' affinity terms when the incoming pod has no preferred pod
	// (anti-)affinity of its own: the plugin then does not score at all
	// for such pods.
	IgnorePreferredTermsOfExistingPods bool `json:"ignorePreferredTermsOfExistingPods"`
}

// DeepCopy returns a copy of a that shares no pointers with it.
func (a *InterPodAffinityArgs) DeepCopy() *InterPodAffinityArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.HardPodAffinityWeight != nil {
		w := *a.HardPodAffinityWeight
		out.HardPodAffinityWeight = &w
	}
	return &out
}

// SetDefaults fills in kube-scheduler's v1 default: a nil
// HardPodAffinityWeight becomes 1.
func (a *InterPodAffinityArgs) SetDefaults() {
	if a.HardPodAffinityWeight == nil {
		w := DefaultHardPodAffinityWeight
		a.HardPodAffinityWeight = &w
	}
}

// Weight returns HardPodAffinityWeight, or the default when it is nil.
func (a *InterPodAffinityArgs) Weight() int32 {
	if a == nil || a.HardPodAffinityWeight == nil {
		return DefaultHardPodAffinityWeight
	}
	return *a.HardPodAffinityWeight
}

// Validate checks a as kube-scheduler's ValidateInterPodAffinityArgs
// does (with a root field path): hardPodAffinityWeight must be in
// [0, 100], else "hardPodAffinityWeight: Invalid value: 101: not in valid
// range [0, 100]". A nil weight is checked as its default. The error, if
// any, is an ErrorList.
func (a *InterPodAffinityArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	if w := a.Weight(); w < MinHardPodAffinityWeight || w > MaxHardPodAffinityWeight {
		msg := fmt.Sprintf("not in valid range [%d, %d]", MinHardPodAffinityWeight, MaxHardPodAffinityWeight)
		errs = append(errs, field.Invalid(root.Child("hardPodAffinityWeight"), w, msg))
	}
	return errs.ToAggregate()
}

// InterPodAffinityArgsFrom converts a plugin factory's args to
// InterPodAffinityArgs, as ArgsFrom does (nil for defaults, a value or a
// pointer, or JSON decoded strictly; defaulted and validated); any other
// type is an error worded as upstream's ("want args to be of type
// InterPodAffinityArgs, got T").
func InterPodAffinityArgsFrom(args any) (*InterPodAffinityArgs, error) {
	return ArgsFrom[InterPodAffinityArgs](args)
}
