package api

// ResourceQuotaScope narrows the pods (or claims) a quota counts.
type ResourceQuotaScope string

// Quota scopes.
const (
	// ResourceQuotaScopeTerminating: pods with activeDeadlineSeconds set.
	ResourceQuotaScopeTerminating ResourceQuotaScope = "Terminating"
	// ResourceQuotaScopeNotTerminating: pods without activeDeadlineSeconds.
	ResourceQuotaScopeNotTerminating ResourceQuotaScope = "NotTerminating"
	// ResourceQuotaScopeBestEffort: pods of the BestEffort QoS class.
	ResourceQuotaScopeBestEffort ResourceQuotaScope = "BestEffort"
	// ResourceQuotaScopeNotBestEffort: pods of other QoS classes.
	ResourceQuotaScopeNotBestEffort ResourceQuotaScope = "NotBestEffort"
	// ResourceQuotaScopePriorityClass: pods by priority class name (with
	// a scope selector).
	ResourceQuotaScopePriorityClass ResourceQuotaScope = "PriorityClass"
	// ResourceQuotaScopeCrossNamespacePodAffinity: pods with affinity
	// terms reaching other namespaces.
	ResourceQuotaScopeCrossNamespacePodAffinity ResourceQuotaScope = "CrossNamespacePodAffinity"
	// ResourceQuotaScopeVolumeAttributesClass: claims by volume
	// attributes class (with a scope selector).
	ResourceQuotaScopeVolumeAttributesClass ResourceQuotaScope = "VolumeAttributesClass"
)

// ScopeSelectorOperator relates a scope to values.
type ScopeSelectorOperator string

// Scope selector operators.
const (
	ScopeSelectorOpIn           ScopeSelectorOperator = "In"
	ScopeSelectorOpNotIn        ScopeSelectorOperator = "NotIn"
	ScopeSelectorOpExists       ScopeSelectorOperator = "Exists"
	ScopeSelectorOpDoesNotExist ScopeSelectorOperator = "DoesNotExist"
)

// ResourceQuota caps the resources used in a namespace (core/v1).
type ResourceQuota struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the quota.
	Spec ResourceQuotaSpec `json:"spec,omitempty"`
	// Status is the quota's observed use.
	Status ResourceQuotaStatus `json:"status,omitempty"`
}

// ResourceQuotaSpec is a quota's limits and the objects it counts.
type ResourceQuotaSpec struct {
	// Hard limits per resource name (cpu, requests.memory, pods,
	// count/deployments.apps, ...).
	Hard ResourceList `json:"hard,omitempty"`
	// Scopes must all match an object for the quota to count it.
	Scopes []ResourceQuotaScope `json:"scopes,omitempty"`
	// ScopeSelector is a further set of scope requirements, ANDed with
	// Scopes.
	ScopeSelector *ScopeSelector `json:"scopeSelector,omitempty"`
}

// ScopeSelector ANDs scope requirements.
type ScopeSelector struct {
	// MatchExpressions must all hold.
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty"`
}

// ScopedResourceSelectorRequirement is one scope requirement.
type ScopedResourceSelectorRequirement struct {
	// ScopeName is the scope.
	ScopeName ResourceQuotaScope `json:"scopeName"`
	// Operator relates the scope to the values.
	Operator ScopeSelectorOperator `json:"operator"`
	// Values are the operands of In and NotIn.
	Values []string `json:"values,omitempty"`
}

// ResourceQuotaStatus is a quota's enforced limits and current use.
type ResourceQuotaStatus struct {
	// Hard is the enforced limits.
	Hard ResourceList `json:"hard,omitempty"`
	// Used is the current use.
	Used ResourceList `json:"used,omitempty"`
}
