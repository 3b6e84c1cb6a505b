package config

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// Names of the optional plugins with the last semantics of plugins
// kube-scheduler removed (registered, not in the default profile).
const (
	CheckNodeMemoryPressureName = "CheckNodeMemoryPressure"
	CheckNodeDiskPressureName   = "CheckNodeDiskPressure"
	CheckNodePIDPressureName    = "CheckNodePIDPressure"
	EqualPriorityName           = "EqualPriority"
	NodeLabelName               = "NodeLabel"
	NodePreferAvoidPodsName     = "NodePreferAvoidPods"
	ServiceAffinityName         = "ServiceAffinity"
)

// NodeLabelArgs configures the NodeLabel plugin (kube-scheduler v1.21's
// NodeLabelArgs): labels nodes must have or lack, and labels whose
// presence or absence scores.
type NodeLabelArgs struct {
	api.TypeMeta `json:",inline"`
	// PresentLabels must all be on a node.
	PresentLabels []string `json:"presentLabels,omitempty"`
	// AbsentLabels must all be missing from a node.
	AbsentLabels []string `json:"absentLabels,omitempty"`
	// PresentLabelsPreference score MaxNodeScore each when present.
	PresentLabelsPreference []string `json:"presentLabelsPreference,omitempty"`
	// AbsentLabelsPreference score MaxNodeScore each when absent.
	AbsentLabelsPreference []string `json:"absentLabelsPreference,omitempty"`
}

// SetDefaults does nothing: NodeLabelArgs has no defaults.
func (a *NodeLabelArgs) SetDefaults() {}

// Validate checks a as v1.21's ValidateNodeLabelArgs did: no label both
// required present and absent, nor both preferred present and absent.
func (a *NodeLabelArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	errs = append(errs, noConflict(a.PresentLabels, a.AbsentLabels, root.Child("presentLabels"), root.Child("absentLabels"))...)
	errs = append(errs, noConflict(a.PresentLabelsPreference, a.AbsentLabelsPreference, root.Child("presentLabelsPreference"), root.Child("absentLabelsPreference"))...)
	return errs.ToAggregate()
}

// noConflict reports each absent label that is also present, naming the
// present label's last index (upstream indexes the present labels in a
// map, so a repeated label keeps its last position).
func noConflict(present, absent []string, presentPath, absentPath *field.Path) ErrorList {
	var errs ErrorList
	for i, l := range absent {
		j := -1
		for k, p := range present {
			if p == l {
				j = k
			}
		}
		if j >= 0 {
			errs = append(errs, field.Invalid(presentPath.Index(j), l, fmt.Sprintf("conflict with %v", absentPath.Index(i))))
		}
	}
	return errs
}

// IsZero reports whether a sets nothing.
func (a *NodeLabelArgs) IsZero() bool {
	return len(a.PresentLabels)+len(a.AbsentLabels)+len(a.PresentLabelsPreference)+len(a.AbsentLabelsPreference) == 0
}

// DeepCopy returns a copy of a that shares no slices with it.
func (a *NodeLabelArgs) DeepCopy() *NodeLabelArgs {
	if a == nil {
		return nil
	}
	out := *a
	out.PresentLabels = cloneStrings(a.PresentLabels)
	out.AbsentLabels = cloneStrings(a.AbsentLabels)
	out.PresentLabelsPreference = cloneStrings(a.PresentLabelsPreference)
	out.AbsentLabelsPreference = cloneStrings(a.AbsentLabelsPreference)
	return &out
}

// ServiceAffinityArgs configures the ServiceAffinity plugin (kube-
// scheduler v1.21's ServiceAffinityArgs).
type ServiceAffinityArgs struct {
	api.TypeMeta `json:",inline"`
	// AffinityLabels must have the same values on the nodes of all the
	// pods of a service.
	AffinityLabels []string `json:"affinityLabels,omitempty"`
	// AntiAffinityLabelsPreference spread a service's pods over the
	// values of each label.
	AntiAffinityLabelsPreference []string `json:"antiAffinityLabelsPreference,omitempty"`
}

// SetDefaults does nothing: ServiceAffinityArgs has no defaults.
func (a *ServiceAffinityArgs) SetDefaults() {}

// Validate accepts any ServiceAffinityArgs, as upstream did.
func (a *ServiceAffinityArgs) Validate() error { return nil }

// IsZero reports whether a sets nothing.
func (a *ServiceAffinityArgs) IsZero() bool {
	return len(a.AffinityLabels)+len(a.AntiAffinityLabelsPreference) == 0
}

// DeepCopy returns a copy of a that shares no slices with it.
func (a *ServiceAffinityArgs) DeepCopy() *ServiceAffinityArgs {
	if a == nil {
		return nil
	}
	out := *a
	out.AffinityLabels = cloneStrings(a.AffinityLabels)
	out.AntiAffinityLabelsPreference = cloneStrings(a.AntiAffinityLabelsPreference)
	return &out
}
