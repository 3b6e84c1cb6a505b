package api

// LimitType is Container, Pod or PersistentVolumeClaim.
type LimitType string

// Limit types.
const (
	LimitTypePod                   LimitType = "Pod"
	LimitTypeContainer             LimitType = "Container"
	LimitTypePersistentVolumeClaim LimitType = "PersistentVolumeClaim"
)

// LimitRange sets defaults and bounds on resources in a namespace
// (core/v1).
type LimitRange struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec holds the limits.
	Spec LimitRangeSpec `json:"spec,omitempty"`
}

// LimitRangeSpec is the list of limits.
type LimitRangeSpec struct {
	// Limits, each for one kind of object.
	Limits []LimitRangeItem `json:"limits"`
}

// LimitRangeItem bounds one kind of object.
type LimitRangeItem struct {
	// Type of object the item applies to.
	Type LimitType `json:"type"`
	// Max usage per resource.
	Max ResourceList `json:"max,omitempty"`
	// Min usage per resource.
	Min ResourceList `json:"min,omitempty"`
	// Default limits for containers that set none.
	Default ResourceList `json:"default,omitempty"`
	// DefaultRequest for containers that set none.
	DefaultRequest ResourceList `json:"defaultRequest,omitempty"`
	// MaxLimitRequestRatio bounds limit/request.
	MaxLimitRequestRatio ResourceList `json:"maxLimitRequestRatio,omitempty"`
}

// PriorityClass maps a class name to a priority (scheduling/v1).
type PriorityClass struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the class name.
	ObjectMeta `json:"metadata,omitempty"`
	// Value is the priority.
	Value int32 `json:"value"`
	// GlobalDefault makes this the class of pods that name none.
	GlobalDefault bool `json:"globalDefault,omitempty"`
	// Description is free text.
	Description string `json:"description,omitempty"`
	// PreemptionPolicy for pods of this class.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

// PodDisruptionBudget limits voluntary disruption of matching pods
// (policy/v1).
type PodDisruptionBudget struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the budget.
	Spec PodDisruptionBudgetSpec `json:"spec,omitempty"`
	// Status is the observed budget.
	Status PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// PodDisruptionBudgetSpec is the desired budget.
type PodDisruptionBudgetSpec struct {
	// MinAvailable pods, as a count or percentage.
	MinAvailable *IntOrString `json:"minAvailable,omitempty"`
	// Selector over pods in the namespace.
	Selector *LabelSelector `json:"selector,omitempty"`
	// MaxUnavailable pods, as a count or percentage.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// UnhealthyPodEvictionPolicy is IfHealthyBudget or AlwaysAllow.
	UnhealthyPodEvictionPolicy *string `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// PodDisruptionBudgetStatus is the observed budget.
type PodDisruptionBudgetStatus struct {
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// DisruptedPods maps pod names to the time of their eviction.
	DisruptedPods map[string]Time `json:"disruptedPods,omitempty"`
	// DisruptionsAllowed is how many pods may be disrupted now.
	DisruptionsAllowed int32 `json:"disruptionsAllowed"`
	// CurrentHealthy pods.
	CurrentHealthy int32 `json:"currentHealthy"`
	// DesiredHealthy pods.
	DesiredHealthy int32 `json:"desiredHealthy"`
	// ExpectedPods counted.
	ExpectedPods int32 `json:"expectedPods"`
}
