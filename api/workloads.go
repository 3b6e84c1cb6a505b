package api

import "encoding/json"

// PodTemplateSpec is the pod a controller makes copies of.
type PodTemplateSpec struct {
	// ObjectMeta holds the labels and annotations of the pods.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec of the pods.
	Spec PodSpec `json:"spec,omitempty"`
}

// WorkloadCondition is one condition of a ReplicaSet, ReplicationController,
// StatefulSet or DaemonSet (their condition types share this shape).
type WorkloadCondition struct {
	// Type of the condition.
	Type string `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable detail.
	Message string `json:"message,omitempty"`
}

// ServiceType is ClusterIP, NodePort, LoadBalancer or ExternalName.
type ServiceType string

// Service types.
const (
	ServiceTypeClusterIP    ServiceType = "ClusterIP"
	ServiceTypeNodePort     ServiceType = "NodePort"
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer"
	ServiceTypeExternalName ServiceType = "ExternalName"
)

// Service exposes a set of pods (core/v1); the scheduler's default
// topology spreading counts the pods its selector matches.
type Service struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the service.
	Spec ServiceSpec `json:"spec,omitempty"`
}

// ServiceSpec describes a service.
type ServiceSpec struct {
	// Ports the service exposes.
	Ports []ServicePort `json:"ports,omitempty"`
	// Selector over pods in the namespace; empty selects none (the
	// endpoints are managed elsewhere).
	Selector map[string]string `json:"selector,omitempty"`
	// ClusterIP is the service's virtual IP, or "None" (headless).
	ClusterIP string `json:"clusterIP,omitempty"`
	// ClusterIPs are the service's IPs, one per family.
	ClusterIPs []string `json:"clusterIPs,omitempty"`
	// Type of service; empty means ClusterIP.
	Type ServiceType `json:"type,omitempty"`
	// ExternalIPs also routed to the service.
	ExternalIPs []string `json:"externalIPs,omitempty"`
	// SessionAffinity is None or ClientIP.
	SessionAffinity string `json:"sessionAffinity,omitempty"`
	// LoadBalancerIP is deprecated.
	LoadBalancerIP string `json:"loadBalancerIP,omitempty"`
	// LoadBalancerSourceRanges restrict the load balancer's clients.
	LoadBalancerSourceRanges []string `json:"loadBalancerSourceRanges,omitempty"`
	// ExternalName is the CNAME of an ExternalName service.
	ExternalName string `json:"externalName,omitempty"`
	// ExternalTrafficPolicy is Cluster or Local.
	ExternalTrafficPolicy string `json:"externalTrafficPolicy,omitempty"`
	// HealthCheckNodePort of a Local LoadBalancer service.
	HealthCheckNodePort int32 `json:"healthCheckNodePort,omitempty"`
	// PublishNotReadyAddresses includes pods that are not ready.
	PublishNotReadyAddresses bool `json:"publishNotReadyAddresses,omitempty"`
	// SessionAffinityConfig configures ClientIP affinity.
	SessionAffinityConfig *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty"`
	// IPFamilies are IPv4 and/or IPv6.
	IPFamilies []string `json:"ipFamilies,omitempty"`
	// IPFamilyPolicy is SingleStack, PreferDualStack or RequireDualStack.
	IPFamilyPolicy *string `json:"ipFamilyPolicy,omitempty"`
	// AllocateLoadBalancerNodePorts allocates node ports for load
	// balancers.
	AllocateLoadBalancerNodePorts *bool `json:"allocateLoadBalancerNodePorts,omitempty"`
	// LoadBalancerClass picks the load balancer implementation.
	LoadBalancerClass *string `json:"loadBalancerClass,omitempty"`
	// InternalTrafficPolicy is Cluster or Local.
	InternalTrafficPolicy *string `json:"internalTrafficPolicy,omitempty"`
	// TrafficDistribution is a routing preference.
	TrafficDistribution *string `json:"trafficDistribution,omitempty"`
}

// SessionAffinityConfig configures session affinity.
type SessionAffinityConfig struct {
	// ClientIP affinity settings.
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig configures ClientIP session affinity.
type ClientIPConfig struct {
	// TimeoutSeconds of the sticky session.
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// ServicePort is one port of a service.
type ServicePort struct {
	// Name of the port.
	Name string `json:"name,omitempty"`
	// Protocol is TCP (default), UDP or SCTP.
	Protocol Protocol `json:"protocol,omitempty"`
	// AppProtocol is the application protocol.
	AppProtocol *string `json:"appProtocol,omitempty"`
	// Port the service exposes.
	Port int32 `json:"port"`
	// TargetPort on the pods, a number or a named container port.
	TargetPort IntOrString `json:"targetPort,omitzero"`
	// NodePort on every node, for NodePort and LoadBalancer services.
	NodePort int32 `json:"nodePort,omitempty"`
}

// ReplicationController keeps replicas of a pod running (core/v1).
type ReplicationController struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the controller.
	Spec ReplicationControllerSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status ReplicationControllerStatus `json:"status,omitempty"`
}

// ReplicationControllerSpec describes a replication controller.
type ReplicationControllerSpec struct {
	// Replicas wanted; nil means 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// MinReadySeconds before a pod counts as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Selector over pods (equality only); empty means the template's
	// labels.
	Selector map[string]string `json:"selector,omitempty"`
	// Template of the pods.
	Template *PodTemplateSpec `json:"template,omitempty"`
}

// ReplicationControllerStatus is what a replication controller reports.
type ReplicationControllerStatus struct {
	// Replicas observed.
	Replicas int32 `json:"replicas"`
	// FullyLabeledReplicas carry the template's labels.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	// ReadyReplicas are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas are ready for MinReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions of the controller.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
}

// ReplicaSet keeps replicas of a pod running (apps/v1).
type ReplicaSet struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the replica set.
	Spec ReplicaSetSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status ReplicaSetStatus `json:"status,omitempty"`
}

// ReplicaSetSpec describes a replica set.
type ReplicaSetSpec struct {
	// Replicas wanted; nil means 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// MinReadySeconds before a pod counts as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Selector over pods; it must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template of the pods.
	Template PodTemplateSpec `json:"template,omitempty"`
}

// ReplicaSetStatus is what a replica set reports.
type ReplicaSetStatus struct {
	// Replicas observed.
	Replicas int32 `json:"replicas"`
	// FullyLabeledReplicas carry the template's labels.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	// ReadyReplicas are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas are ready for MinReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// TerminatingReplicas are being deleted.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions of the replica set.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
}

// PodManagementPolicyType is OrderedReady or Parallel.
type PodManagementPolicyType string

// StatefulSet pod management policies.
const (
	OrderedReadyPodManagement PodManagementPolicyType = "OrderedReady"
	ParallelPodManagement     PodManagementPolicyType = "Parallel"
)

// StatefulSet runs pods with stable identities and storage (apps/v1).
type StatefulSet struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the stateful set.
	Spec StatefulSetSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status StatefulSetStatus `json:"status,omitempty"`
}

// StatefulSetSpec describes a stateful set.
type StatefulSetSpec struct {
	// Replicas wanted; nil means 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector over pods; it must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template of the pods, named <set>-<ordinal>.
	Template PodTemplateSpec `json:"template"`
	// VolumeClaimTemplates make one claim per pod, named
	// <template>-<set>-<ordinal>.
	VolumeClaimTemplates []PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// ServiceName is the governing headless service.
	ServiceName string `json:"serviceName"`
	// PodManagementPolicy is OrderedReady (default) or Parallel.
	PodManagementPolicy PodManagementPolicyType `json:"podManagementPolicy,omitempty"`
	// UpdateStrategy replaces pods when the template changes.
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitzero"`
	// RevisionHistoryLimit of kept revisions.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// MinReadySeconds before a pod counts as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// PersistentVolumeClaimRetentionPolicy says what happens to the
	// claims when the set is deleted or scaled down.
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	// Ordinals sets the first ordinal; nil starts at 0.
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty"`
}

// StatefulSetUpdateStrategy is how a stateful set replaces pods.
type StatefulSetUpdateStrategy struct {
	// Type is RollingUpdate (default), OnDelete or Recreate.
	Type string `json:"type,omitempty"`
	// RollingUpdate parameters.
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy parameterises a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition: ordinals below it are not updated.
	Partition *int32 `json:"partition,omitempty"`
	// MaxUnavailable pods during the update.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy is Retain or Delete,
// on deletion and on scale-down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	// WhenDeleted the set.
	WhenDeleted string `json:"whenDeleted,omitempty"`
	// WhenScaled down.
	WhenScaled string `json:"whenScaled,omitempty"`
}

// StatefulSetOrdinals sets a stateful set's first ordinal.
type StatefulSetOrdinals struct {
	// Start is the first ordinal.
	Start int32 `json:"start"`
}

// StatefulSetStatus is what a stateful set reports.
type StatefulSetStatus struct {
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas observed.
	Replicas int32 `json:"replicas"`
	// ReadyReplicas are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// CurrentReplicas are at the current revision.
	CurrentReplicas int32 `json:"currentReplicas,omitempty"`
	// UpdatedReplicas are at the update revision.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// CurrentRevision of the set.
	CurrentRevision string `json:"currentRevision,omitempty"`
	// UpdateRevision of the set.
	UpdateRevision string `json:"updateRevision,omitempty"`
	// CollisionCount of revision hashes.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// Conditions of the set.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
	// AvailableReplicas are ready for MinReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas"`
}

// ControllerRevision is an immutable snapshot of a controller's state
// (apps/v1): the StatefulSet and DaemonSet controllers record each pod
// template they roll out in one, and label their pods with its name.
type ControllerRevision struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name, namespace, labels and the owning
	// controller's reference.
	ObjectMeta `json:"metadata,omitempty"`
	// Data is the state, as JSON: for a StatefulSet or DaemonSet, the
	// strategic merge patch {"spec":{"template":{...,"$patch":"replace"}}}
	// that restores its pod template.
	Data json.RawMessage `json:"data,omitempty"`
	// Revision orders the revisions of one controller.
	Revision int64 `json:"revision"`
}

// Deployment manages replica sets for declarative updates (apps/v1).
type Deployment struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the deployment.
	Spec DeploymentSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec describes a deployment.
type DeploymentSpec struct {
	// Replicas wanted; nil means 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector over pods; it must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template of the pods.
	Template PodTemplateSpec `json:"template"`
	// Strategy replaces old pods with new ones.
	Strategy DeploymentStrategy `json:"strategy,omitzero"`
	// MinReadySeconds before a pod counts as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit of kept replica sets.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused stops rollouts.
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds before a rollout counts as failed.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategy is how a deployment replaces pods.
type DeploymentStrategy struct {
	// Type is RollingUpdate (default) or Recreate.
	Type string `json:"type,omitempty"`
	// RollingUpdate parameters.
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment parameterises a rolling update.
type RollingUpdateDeployment struct {
	// MaxUnavailable pods during the update.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge pods above the replica count.
	MaxSurge *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentCondition is one condition of a deployment.
type DeploymentCondition struct {
	// Type of the condition.
	Type string `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// LastUpdateTime is when the condition was last updated.
	LastUpdateTime Time `json:"lastUpdateTime,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable detail.
	Message string `json:"message,omitempty"`
}

// DeploymentStatus is what a deployment reports.
type DeploymentStatus struct {
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas observed.
	Replicas int32 `json:"replicas,omitempty"`
	// UpdatedReplicas are at the latest template.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// ReadyReplicas are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas are ready for MinReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// UnavailableReplicas are missing or not available.
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty"`
	// TerminatingReplicas are being deleted.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// Conditions of the deployment.
	Conditions []DeploymentCondition `json:"conditions,omitempty"`
	// CollisionCount of template hashes.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// DaemonSet runs a pod on every eligible node (apps/v1).
type DaemonSet struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the daemon set.
	Spec DaemonSetSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status DaemonSetStatus `json:"status,omitempty"`
}

// DaemonSetSpec describes a daemon set.
type DaemonSetSpec struct {
	// Selector over pods; it must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template of the pods.
	Template PodTemplateSpec `json:"template"`
	// UpdateStrategy replaces pods when the template changes.
	UpdateStrategy DaemonSetUpdateStrategy `json:"updateStrategy,omitzero"`
	// MinReadySeconds before a pod counts as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit of kept revisions.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategy is how a daemon set replaces pods.
type DaemonSetUpdateStrategy struct {
	// Type is RollingUpdate (default) or OnDelete.
	Type string `json:"type,omitempty"`
	// RollingUpdate parameters.
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet parameterises a rolling update.
type RollingUpdateDaemonSet struct {
	// MaxUnavailable nodes during the update.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge nodes running an old and a new pod.
	MaxSurge *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus is what a daemon set reports.
type DaemonSetStatus struct {
	// CurrentNumberScheduled nodes run a pod that should.
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	// NumberMisscheduled nodes run a pod that should not.
	NumberMisscheduled int32 `json:"numberMisscheduled"`
	// DesiredNumberScheduled nodes should run a pod.
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	// NumberReady nodes run a ready pod.
	NumberReady int32 `json:"numberReady"`
	// ObservedGeneration of the spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// UpdatedNumberScheduled nodes run the updated pod.
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty"`
	// NumberAvailable nodes run an available pod.
	NumberAvailable int32 `json:"numberAvailable,omitempty"`
	// NumberUnavailable nodes should run an available pod and do not.
	NumberUnavailable int32 `json:"numberUnavailable,omitempty"`
	// CollisionCount of revision hashes.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// Conditions of the daemon set.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
}

// CompletionMode is NonIndexed or Indexed.
type CompletionMode string

// Job completion modes.
const (
	NonIndexedCompletion CompletionMode = "NonIndexed"
	IndexedCompletion    CompletionMode = "Indexed"
)

// Job runs pods to completion (batch/v1).
type Job struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the job.
	Spec JobSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status JobStatus `json:"status,omitempty"`
}

// JobSpec describes a job. The alpha spec.scheduling (workload pod
// groups) is not modelled.
type JobSpec struct {
	// Parallelism is the most pods running at once; nil means 1.
	Parallelism *int32 `json:"parallelism,omitempty"`
	// Completions wanted; nil means any one success (with parallelism).
	Completions *int32 `json:"completions,omitempty"`
	// ActiveDeadlineSeconds bounds the job's run time.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// PodFailurePolicy decides what pod failures mean.
	PodFailurePolicy *PodFailurePolicy `json:"podFailurePolicy,omitempty"`
	// SuccessPolicy decides when an indexed job has succeeded.
	SuccessPolicy *SuccessPolicy `json:"successPolicy,omitempty"`
	// BackoffLimit of retries; nil means 6.
	BackoffLimit *int32 `json:"backoffLimit,omitempty"`
	// BackoffLimitPerIndex of retries per index.
	BackoffLimitPerIndex *int32 `json:"backoffLimitPerIndex,omitempty"`
	// MaxFailedIndexes before the job fails.
	MaxFailedIndexes *int32 `json:"maxFailedIndexes,omitempty"`
	// Selector over pods; set by the API server unless ManualSelector.
	Selector *LabelSelector `json:"selector,omitempty"`
	// ManualSelector: the user set Selector.
	ManualSelector *bool `json:"manualSelector,omitempty"`
	// Template of the pods.
	Template PodTemplateSpec `json:"template"`
	// TTLSecondsAfterFinished before the job is deleted.
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty"`
	// CompletionMode is NonIndexed (default) or Indexed.
	CompletionMode *CompletionMode `json:"completionMode,omitempty"`
	// Suspend stops the job from creating pods.
	Suspend *bool `json:"suspend,omitempty"`
	// PodReplacementPolicy is TerminatingOrFailed or Failed.
	PodReplacementPolicy *string `json:"podReplacementPolicy,omitempty"`
	// ManagedBy names the controller of the job.
	ManagedBy *string `json:"managedBy,omitempty"`
}

// PodFailurePolicy is a list of rules over failed pods.
type PodFailurePolicy struct {
	// Rules, evaluated in order.
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule is one rule of a pod failure policy.
type PodFailurePolicyRule struct {
	// Action is FailJob, FailIndex, Ignore or Count.
	Action string `json:"action"`
	// OnExitCodes matches container exit codes.
	OnExitCodes *PodFailurePolicyOnExitCodesRequirement `json:"onExitCodes,omitempty"`
	// OnPodConditions matches pod conditions.
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty"`
}

// PodFailurePolicyOnExitCodesRequirement matches exit codes.
type PodFailurePolicyOnExitCodesRequirement struct {
	// ContainerName restricts the rule to one container.
	ContainerName *string `json:"containerName,omitempty"`
	// Operator is In or NotIn.
	Operator string `json:"operator"`
	// Values are the exit codes.
	Values []int32 `json:"values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition.
type PodFailurePolicyOnPodConditionsPattern struct {
	// Type of the condition.
	Type PodConditionType `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
}

// SuccessPolicy is a list of rules for an indexed job's success.
type SuccessPolicy struct {
	// Rules, any of which succeeds the job.
	Rules []SuccessPolicyRule `json:"rules"`
}

// SuccessPolicyRule is one success rule.
type SuccessPolicyRule struct {
	// SucceededIndexes that must succeed, such as "1,3-5".
	SucceededIndexes *string `json:"succeededIndexes,omitempty"`
	// SucceededCount of indexes that must succeed.
	SucceededCount *int32 `json:"succeededCount,omitempty"`
}

// JobCondition is one condition of a job.
type JobCondition struct {
	// Type such as Complete or Failed.
	Type string `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// LastProbeTime is when the condition was probed.
	LastProbeTime Time `json:"lastProbeTime,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable detail.
	Message string `json:"message,omitempty"`
}

// JobStatus is what a job reports.
type JobStatus struct {
	// Conditions of the job.
	Conditions []JobCondition `json:"conditions,omitempty"`
	// StartTime is when the job started.
	StartTime *Time `json:"startTime,omitempty"`
	// CompletionTime is when the job completed.
	CompletionTime *Time `json:"completionTime,omitempty"`
	// Active pods.
	Active int32 `json:"active,omitempty"`
	// Succeeded pods.
	Succeeded int32 `json:"succeeded,omitempty"`
	// Failed pods.
	Failed int32 `json:"failed,omitempty"`
	// Terminating pods.
	Terminating *int32 `json:"terminating,omitempty"`
	// CompletedIndexes of an indexed job, such as "1,3-5".
	CompletedIndexes string `json:"completedIndexes,omitempty"`
	// FailedIndexes of an indexed job.
	FailedIndexes *string `json:"failedIndexes,omitempty"`
	// Ready pods.
	Ready *int32 `json:"ready,omitempty"`
}

// ConcurrencyPolicy is Allow, Forbid or Replace.
type ConcurrencyPolicy string

// CronJob concurrency policies.
const (
	AllowConcurrent   ConcurrencyPolicy = "Allow"
	ForbidConcurrent  ConcurrencyPolicy = "Forbid"
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// CronJob runs a job on a schedule (batch/v1).
type CronJob struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the cron job.
	Spec CronJobSpec `json:"spec,omitempty"`
	// Status is what the controller reports.
	Status CronJobStatus `json:"status,omitempty"`
}

// CronJobSpec describes a cron job.
type CronJobSpec struct {
	// Schedule in cron format.
	Schedule string `json:"schedule"`
	// TimeZone of the schedule.
	TimeZone *string `json:"timeZone,omitempty"`
	// StartingDeadlineSeconds for a missed run.
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// ConcurrencyPolicy is Allow (default), Forbid or Replace.
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	// Suspend stops future runs.
	Suspend *bool `json:"suspend,omitempty"`
	// JobTemplate is the job to run.
	JobTemplate JobTemplateSpec `json:"jobTemplate"`
	// SuccessfulJobsHistoryLimit of kept jobs.
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	// FailedJobsHistoryLimit of kept jobs.
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplateSpec is the job a cron job makes.
type JobTemplateSpec struct {
	// ObjectMeta holds the labels and annotations of the jobs.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec of the jobs.
	Spec JobSpec `json:"spec,omitempty"`
}

// CronJobStatus is what a cron job reports.
type CronJobStatus struct {
	// Active jobs.
	Active []ObjectReference `json:"active,omitempty"`
	// LastScheduleTime is when a job was last scheduled.
	LastScheduleTime *Time `json:"lastScheduleTime,omitempty"`
	// LastSuccessfulTime is when a job last succeeded.
	LastSuccessfulTime *Time `json:"lastSuccessfulTime,omitempty"`
}
