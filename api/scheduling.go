package api

// Workload describes the pod groups of an application and how each is
// scheduled (scheduling.k8s.io/v1beta1, served with GenericWorkload on).
type Workload struct {
	TypeMeta `json:",inline"`
	// ObjectMeta names the workload.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec holds the pod group templates.
	Spec WorkloadSpec `json:"spec"`
}

// Workload limits, as v1beta1 declares them.
const (
	// WorkloadMaxPodGroupTemplates bounds spec.podGroupTemplates.
	WorkloadMaxPodGroupTemplates = 8
	// MaxPodGroupResourceClaims bounds a pod group's resourceClaims.
	MaxPodGroupResourceClaims = 4
)

// WorkloadSpec is a Workload's desired state.
type WorkloadSpec struct {
	// ControllerRef names the object that manages the workload, such as
	// a Job; it is immutable.
	ControllerRef *WorkloadControllerReference `json:"controllerRef,omitempty"`
	// PodGroupTemplates are the templates PodGroups are made from.
	PodGroupTemplates []PodGroupTemplate `json:"podGroupTemplates"`
	// CompositePodGroupTemplates need the CompositePodGroup gate
	// (alpha); the API server drops them with it off.
	CompositePodGroupTemplates []CompositePodGroupTemplate `json:"compositePodGroupTemplates,omitempty"`
}

// WorkloadControllerReference names an object in the same namespace
// (scheduling/v1beta1 TypedLocalObjectReference, whose apiGroup is a
// string).
type WorkloadControllerReference struct {
	// APIGroup is the object's group; empty is the core group.
	APIGroup string `json:"apiGroup,omitempty"`
	// Kind is the object's kind.
	Kind string `json:"kind"`
	// Name is the object's name.
	Name string `json:"name"`
}

// PodGroupTemplate is the shape of the PodGroups a Workload makes.
type PodGroupTemplate struct {
	// Name identifies the template within the workload.
	Name string `json:"name"`
	// SchedulingPolicy is basic or gang.
	SchedulingPolicy PodGroupSchedulingPolicy `json:"schedulingPolicy"`
	// SchedulingConstraints are topology constraints
	// (TopologyAwareWorkloadScheduling).
	SchedulingConstraints *PodGroupSchedulingConstraints `json:"schedulingConstraints,omitempty"`
	// ResourceClaims are claims the group's pods share
	// (DRAWorkloadResourceClaims).
	ResourceClaims []PodGroupResourceClaim `json:"resourceClaims,omitempty"`
	// DisruptionMode says whether the group's pods are disrupted one by
	// one or all together.
	DisruptionMode *DisruptionMode `json:"disruptionMode,omitempty"`
	// PriorityClassName names the groups' priority class.
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority is resolved from PriorityClassName by admission.
	Priority *int32 `json:"priority,omitempty"`
	// PreemptionPolicy is the groups' preemption policy.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

// CompositePodGroupTemplate groups templates (CompositePodGroup, alpha).
// schedkit reads it so that a v1beta1 Workload that names one reads, and
// schedules no composite groups: v1beta1 does not serve CompositePodGroup.
type CompositePodGroupTemplate struct {
	// Name identifies the template within the workload.
	Name string `json:"name"`
	// SchedulingPolicy is basic or gang over child groups.
	SchedulingPolicy CompositePodGroupSchedulingPolicy `json:"schedulingPolicy"`
	// SchedulingConstraints are topology constraints.
	SchedulingConstraints *PodGroupSchedulingConstraints `json:"schedulingConstraints,omitempty"`
	// DisruptionMode of the composite group.
	DisruptionMode *DisruptionMode `json:"disruptionMode,omitempty"`
	// PriorityClassName names the group's priority class.
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority is resolved from PriorityClassName by admission.
	Priority *int32 `json:"priority,omitempty"`
	// PreemptionPolicy is the group's preemption policy.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	// PodGroupTemplates are the child pod groups.
	PodGroupTemplates []PodGroupTemplate `json:"podGroupTemplates,omitempty"`
	// CompositePodGroupTemplates are the child composite groups.
	CompositePodGroupTemplates []CompositePodGroupTemplate `json:"compositePodGroupTemplates,omitempty"`
}

// CompositePodGroupSchedulingPolicy is basic or gang over child groups.
type CompositePodGroupSchedulingPolicy struct {
	// Basic schedules the children independently.
	Basic *BasicSchedulingPolicy `json:"basic,omitempty"`
	// Gang needs MinGroupCount children scheduled.
	Gang *CompositeGangSchedulingPolicy `json:"gang,omitempty"`
}

// CompositeGangSchedulingPolicy is a composite group's quorum.
type CompositeGangSchedulingPolicy struct {
	// MinGroupCount is how many child groups must be scheduled.
	MinGroupCount int32 `json:"minGroupCount"`
}

// PodGroupSchedulingPolicy says how a group's pods are scheduled:
// exactly one of Basic and Gang is set.
type PodGroupSchedulingPolicy struct {
	// Basic schedules the pods as if they were independent.
	Basic *BasicSchedulingPolicy `json:"basic,omitempty"`
	// Gang schedules MinCount pods or none.
	Gang *GangSchedulingPolicy `json:"gang,omitempty"`
}

// BasicSchedulingPolicy schedules a group's pods one by one.
type BasicSchedulingPolicy struct{}

// GangSchedulingPolicy needs MinCount pods placed together.
type GangSchedulingPolicy struct {
	// MinCount is the quorum: the fewest pods that must be placed.
	MinCount int32 `json:"minCount"`
}

// PodGroupResourceClaim names a claim shared by a group's pods.
type PodGroupResourceClaim struct {
	// Name identifies the claim within the group.
	Name string `json:"name"`
	// ResourceClaimName names an existing claim.
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
	// ResourceClaimTemplateName names a template a claim is made from.
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty"`
}

// DisruptionMode is Single or All: exactly one is set.
type DisruptionMode struct {
	// Single disrupts pods one at a time.
	Single *SingleDisruptionMode `json:"single,omitempty"`
	// All disrupts the whole group together.
	All *AllDisruptionMode `json:"all,omitempty"`
}

// SingleDisruptionMode disrupts a group's pods one at a time.
type SingleDisruptionMode struct{}

// AllDisruptionMode disrupts a group's pods all together.
type AllDisruptionMode struct{}

// PodGroupSchedulingConstraints are a group's topology constraints.
type PodGroupSchedulingConstraints struct {
	// Topology lists the node label keys the group must share a value of.
	Topology []TopologyConstraint `json:"topology,omitempty"`
}

// TopologyConstraint is one topology key.
type TopologyConstraint struct {
	// Key is a node label key.
	Key string `json:"key"`
}

// PodGroup is the runtime group of pods scheduled together
// (scheduling.k8s.io/v1beta1, served with GenericWorkload on).
type PodGroup struct {
	TypeMeta `json:",inline"`
	// ObjectMeta names the group.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the group's policy.
	Spec PodGroupSpec `json:"spec"`
	// Status is what the scheduler reports.
	Status PodGroupStatus `json:"status,omitempty"`
}

// PodGroupSpec is a PodGroup's desired state; it is immutable.
type PodGroupSpec struct {
	// ParentCompositePodGroupName needs CompositePodGroup (alpha).
	ParentCompositePodGroupName *string `json:"parentCompositePodGroupName,omitempty"`
	// WorkloadRef names the Workload and template the group was made
	// from.
	WorkloadRef *WorkloadReference `json:"workloadRef,omitempty"`
	// SchedulingPolicy is basic or gang.
	SchedulingPolicy PodGroupSchedulingPolicy `json:"schedulingPolicy"`
	// SchedulingConstraints are topology constraints.
	SchedulingConstraints *PodGroupSchedulingConstraints `json:"schedulingConstraints,omitempty"`
	// ResourceClaims are claims the group's pods share.
	ResourceClaims []PodGroupResourceClaim `json:"resourceClaims,omitempty"`
	// DisruptionMode of the group.
	DisruptionMode *DisruptionMode `json:"disruptionMode,omitempty"`
	// PriorityClassName names the group's priority class.
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority is resolved from PriorityClassName by admission; the
	// scheduler's queue orders groups by it (nil is 0).
	Priority *int32 `json:"priority,omitempty"`
	// PreemptionPolicy of the group.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

// WorkloadReference names a Workload and one of its templates.
type WorkloadReference struct {
	// WorkloadName is the Workload in the group's namespace.
	WorkloadName string `json:"workloadName"`
	// TemplateName is the PodGroupTemplate's name.
	TemplateName string `json:"templateName"`
}

// PodGroupStatus is what the scheduler reports of a group.
type PodGroupStatus struct {
	// Conditions include PodGroupInitiallyScheduled.
	Conditions []Condition `json:"conditions,omitempty"`
	// ResourceClaimStatuses name the claims made for the group.
	ResourceClaimStatuses []PodGroupResourceClaimStatus `json:"resourceClaimStatuses,omitempty"`
}

// PodGroupResourceClaimStatus names the claim made for one of a group's
// resourceClaims.
type PodGroupResourceClaimStatus struct {
	// Name is the entry of spec.resourceClaims.
	Name string `json:"name"`
	// ResourceClaimName is the claim made for it.
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
}

// PodGroup condition types and reasons, as v1beta1 declares them.
const (
	// PodGroupInitiallyScheduled is True once the group was scheduled.
	PodGroupInitiallyScheduled = "PodGroupInitiallyScheduled"
	// PodGroupReasonUnschedulable: the group did not fit.
	PodGroupReasonUnschedulable = "Unschedulable"
	// PodGroupReasonSchedulerError: scheduling failed with an error.
	PodGroupReasonSchedulerError = "SchedulerError"
)

// MinCount is the group's quorum: Gang's minCount, 1 for a basic group
// (as the GangScheduling plugin counts it).
func (g *PodGroup) MinCount() int {
	if g.Spec.SchedulingPolicy.Gang != nil {
		return int(g.Spec.SchedulingPolicy.Gang.MinCount)
	}
	return 1
}

// PriorityValue is the group's priority, 0 when unset (the scheduler's
// PodGroupPriority).
func (g *PodGroup) PriorityValue() int32 {
	if g.Spec.Priority != nil {
		return *g.Spec.Priority
	}
	return 0
}
