package config

import (
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// PodTopologySpreadConstraintsDefaulting says where the PodTopologySpread
// plugin takes the constraints of pods that define none.
type PodTopologySpreadConstraintsDefaulting string

// Defaulting types of PodTopologySpreadArgs.
const (
	// SystemDefaulting uses kube-scheduler's built-in constraints: spread
	// over kubernetes.io/hostname with maxSkew 3 and over
	// topology.kubernetes.io/zone with maxSkew 5, both ScheduleAnyway.
	SystemDefaulting PodTopologySpreadConstraintsDefaulting = "System"
	// ListDefaulting uses PodTopologySpreadArgs.DefaultConstraints.
	ListDefaulting PodTopologySpreadConstraintsDefaulting = "List"
)

// PodTopologySpreadArgs configures the PodTopologySpread plugin, as
// kube-scheduler's v1 PodTopologySpreadArgs.
type PodTopologySpreadArgs struct {
	api.TypeMeta `json:",inline"`
	// DefaultConstraints apply to pods that define no
	// spec.topologySpreadConstraints, with the selector deduced from the
	// Services, ReplicationControllers, ReplicaSets and StatefulSets that
	// select the pod; they must not have a labelSelector. When not empty,
	// DefaultingType must be List.
	DefaultConstraints []api.TopologySpreadConstraint `json:"defaultConstraints,omitempty"`
	// DefaultingType is System or List; it defaults to System.
	DefaultingType PodTopologySpreadConstraintsDefaulting `json:"defaultingType,omitempty"`
}

// SystemDefaultConstraints returns kube-scheduler's built-in default
// constraints (used with SystemDefaulting), hostname first, as a fresh
// slice.
func SystemDefaultConstraints() []api.TopologySpreadConstraint {
	return []api.TopologySpreadConstraint{
		{TopologyKey: affinity.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
		{TopologyKey: affinity.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
	}
}

// SetDefaults fills in kube-scheduler's v1 default: an empty
// DefaultingType becomes System.
func (a *PodTopologySpreadArgs) SetDefaults() {
	if a.DefaultingType == "" {
		a.DefaultingType = SystemDefaulting
	}
}

// Validate checks a as kube-scheduler's ValidatePodTopologySpreadArgs does
// (with a root field path): the defaulting type must be System or List,
// and System only without default constraints; each default constraint
// needs maxSkew > 0, a valid topologyKey, whenUnsatisfiable DoNotSchedule
// or ScheduleAnyway, no labelSelector, and no earlier constraint with the
// same topologyKey and whenUnsatisfiable. The error, if any, is an
// ErrorList.
func (a *PodTopologySpreadArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	typePath := root.Child("defaultingType")
	switch {
	case a.DefaultingType != SystemDefaulting && a.DefaultingType != ListDefaulting:
		errs = append(errs, field.NotSupported(typePath, a.DefaultingType, []string{string(SystemDefaulting), string(ListDefaulting)}))
	case a.DefaultingType == SystemDefaulting && len(a.DefaultConstraints) > 0:
		errs = append(errs, field.Invalid(typePath, a.DefaultingType, "when .defaultConstraints are not empty"))
	}
	listPath := root.Child("defaultConstraints")
	for i, c := range a.DefaultConstraints {
		p := listPath.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(p.Child("maxSkew"), c.MaxSkew, "not in valid range (0, inf)"))
		}
		keyPath := p.Child("topologyKey")
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(keyPath, "can not be empty"))
		} else {
			errs = append(errs, validateLabelName(c.TopologyKey, keyPath)...)
		}
		whenPath := p.Child("whenUnsatisfiable")
		switch c.WhenUnsatisfiable {
		case "":
			errs = append(errs, field.Required(whenPath, "can not be empty"))
		case api.DoNotSchedule, api.ScheduleAnyway:
		default:
			errs = append(errs, field.NotSupported(whenPath, c.WhenUnsatisfiable, []string{string(api.DoNotSchedule), string(api.ScheduleAnyway)}))
		}
		if c.LabelSelector != nil {
			errs = append(errs, field.Forbidden(p.Child("labelSelector"), "constraint must not define a selector, as they deduced for each pod"))
		}
		for j := range a.DefaultConstraints[:i] {
			o := &a.DefaultConstraints[j]
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(listPath.Index(i), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
	}
	return errs.ToAggregate()
}

// DeepCopy returns a copy of a whose constraint list is its own; the
// constraints' pointers (selectors, policies) are shared and never
// modified by schedkit.
func (a *PodTopologySpreadArgs) DeepCopy() *PodTopologySpreadArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.DefaultConstraints != nil {
		out.DefaultConstraints = append([]api.TopologySpreadConstraint(nil), a.DefaultConstraints...)
	}
	return &out
}
