package config

import "github.com/schedkit/schedkit/api"

// Score scales, as kube-scheduler's.
const (
	// MaxCustomPriorityScore is the highest score a UtilizationShapePoint
	// may give; shapes are scaled by MaxNodeScore/MaxCustomPriorityScore.
	MaxCustomPriorityScore int64 = 10
	// MaxUtilization is the highest utilization of a shape point, a fully
	// used node.
	MaxUtilization int32 = 100
	// MaxResourceWeight is the highest weight of a scored resource.
	MaxResourceWeight int64 = 100
)

// NodeResourcesFitArgs configures the NodeResourcesFit plugin.
type NodeResourcesFitArgs struct {
	api.TypeMeta `json:",inline"`
	// IgnoredResources are extended resources the filter does not check.
	IgnoredResources []string `json:"ignoredResources,omitempty"`
	// IgnoredResourceGroups are extended resource groups (the part of the
	// name before '/', such as "example.com") the filter does not check.
	IgnoredResourceGroups []string `json:"ignoredResourceGroups,omitempty"`
	// ScoringStrategy selects how nodes are scored; it defaults to
	// LeastAllocated over cpu and memory with weight 1 each.
	ScoringStrategy *ScoringStrategy `json:"scoringStrategy,omitempty"`
}

// ScoringStrategyType names a NodeResourcesFit scoring strategy.
type ScoringStrategyType string

// Scoring strategies.
const (
	// LeastAllocated favours nodes with the most free resources.
	LeastAllocated ScoringStrategyType = "LeastAllocated"
	// MostAllocated favours nodes with the least free resources.
	MostAllocated ScoringStrategyType = "MostAllocated"
	// RequestedToCapacityRatio scores the requested/capacity ratio with a
	// piecewise-linear function.
	RequestedToCapacityRatio ScoringStrategyType = "RequestedToCapacityRatio"
)

// ScoringStrategy is the NodeResourcesFit scoring configuration.
type ScoringStrategy struct {
	// Type selects the strategy.
	Type ScoringStrategyType `json:"type,omitempty"`
	// Resources are scored, each with a weight in [1, 100]; a zero weight
	// defaults to 1.
	Resources []ResourceSpec `json:"resources,omitempty"`
	// RequestedToCapacityRatio holds the shape of that strategy, and must
	// be nil for the others.
	RequestedToCapacityRatio *RequestedToCapacityRatioParam `json:"requestedToCapacityRatio,omitempty"`
}

// ResourceSpec is a resource to score and its weight.
type ResourceSpec struct {
	// Name of the resource, such as cpu, memory or nvidia.com/gpu.
	Name string `json:"name"`
	// Weight of the resource.
	Weight int64 `json:"weight,omitempty"`
}

// RequestedToCapacityRatioParam is the shape of the
// RequestedToCapacityRatio strategy.
type RequestedToCapacityRatioParam struct {
	// Shape is the list of points of the scoring function, in increasing
	// utilization.
	Shape []UtilizationShapePoint `json:"shape,omitempty"`
}

// UtilizationShapePoint is one point of a scoring function.
type UtilizationShapePoint struct {
	// Utilization is the x axis, in [0, 100]; 100 is a fully used node.
	Utilization int32 `json:"utilization"`
	// Score is the y axis, in [0, 10].
	Score int32 `json:"score"`
}

// NodeResourcesBalancedAllocationArgs configures the
// NodeResourcesBalancedAllocation plugin.
type NodeResourcesBalancedAllocationArgs struct {
	api.TypeMeta `json:",inline"`
	// Resources to balance; the default is cpu and memory. The only valid
	// weight is 1.
	Resources []ResourceSpec `json:"resources,omitempty"`
}

// NodeAffinityArgs configures the NodeAffinity plugin.
type NodeAffinityArgs struct {
	api.TypeMeta `json:",inline"`
	// AddedAffinity applies to every pod in addition to the pod's own node
	// affinity: nodes must satisfy both. Empty by default.
	AddedAffinity *api.NodeAffinity `json:"addedAffinity,omitempty"`
}

// DefaultResourceSpec returns the default scored resources, cpu and memory
// with weight 1, as a fresh slice.
func DefaultResourceSpec() []ResourceSpec {
	return []ResourceSpec{{Name: string(api.ResourceCPU), Weight: 1}, {Name: string(api.ResourceMemory), Weight: 1}}
}

// DeepCopy returns a copy of a that shares no slices or pointers with it.
func (a *NodeResourcesFitArgs) DeepCopy() *NodeResourcesFitArgs {
	if a == nil {
		return nil
	}
	out := *a
	out.IgnoredResources = cloneStrings(a.IgnoredResources)
	out.IgnoredResourceGroups = cloneStrings(a.IgnoredResourceGroups)
	out.ScoringStrategy = a.ScoringStrategy.DeepCopy()
	return &out
}

// DeepCopy returns a copy of s that shares no slices or pointers with it.
func (s *ScoringStrategy) DeepCopy() *ScoringStrategy {
	if s == nil {
		return nil
	}
	out := *s
	if s.Resources != nil {
		out.Resources = append([]ResourceSpec(nil), s.Resources...)
	}
	if s.RequestedToCapacityRatio != nil {
		p := *s.RequestedToCapacityRatio
		if p.Shape != nil {
			p.Shape = append([]UtilizationShapePoint(nil), p.Shape...)
		}
		out.RequestedToCapacityRatio = &p
	}
	return &out
}

// DeepCopy returns a copy of a that shares no slices with it.
func (a *NodeResourcesBalancedAllocationArgs) DeepCopy() *NodeResourcesBalancedAllocationArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.Resources != nil {
		out.Resources = append([]ResourceSpec(nil), a.Resources...)
	}
	return &out
}

// DeepCopy returns a copy of a. The added affinity is copied one level
// deep (the NodeAffinity struct); its terms are shared, and are never
// modified by schedkit.
func (a *NodeAffinityArgs) DeepCopy() *NodeAffinityArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.AddedAffinity != nil {
		na := *a.AddedAffinity
		out.AddedAffinity = &na
	}
	return &out
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}
