package api

import (
	"encoding/json"

	"github.com/schedkit/schedkit/quantity"
)

// The objects of resource.k8s.io/v1 (dynamic resource allocation) as
// Kubernetes v1.37.2 serves them. Field names and omitempty follow
// k8s.io/api/resource/v1 so that a kubectl dump decodes and re-encodes
// unchanged.

// DRA annotations, finalizer and name prefix.
const (
	// ResourceClaimFinalizer protects an allocated or reserved claim
	// from deletion.
	ResourceClaimFinalizer = "resource.kubernetes.io/delete-protection"
	// ExtendedResourceClaimAnnotation marks the claim the scheduler made
	// for a pod's extended resources.
	ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"
	// PodResourceClaimAnnotation on a generated claim names the entry of
	// pod.spec.resourceClaims it was made for.
	PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name"
	// ResourceDeviceClassPrefix prefixes the implicit extended resource
	// name of every DeviceClass: deviceclass.resource.kubernetes.io/<class>.
	ResourceDeviceClassPrefix = "deviceclass.resource.kubernetes.io/"
	// DRAAdminNamespaceLabelKey on a namespace allows adminAccess
	// requests in it.
	DRAAdminNamespaceLabelKey = "resource.kubernetes.io/admin-access"
)

// Limits of resource.k8s.io/v1 that validation and the allocator enforce.
const (
	// DriverNameMaxLength bounds a driver name.
	DriverNameMaxLength = 63
	// PoolNameMaxLength bounds a pool name (a DNS subdomain's length).
	PoolNameMaxLength = 253
	// ResourceSliceMaxSharedCapacity is kept for compatibility with
	// older API versions.
	ResourceSliceMaxSharedCapacity = 128
	// ResourceSliceMaxDevices bounds the devices of a slice.
	ResourceSliceMaxDevices = 128
	// ResourceSliceMaxDevicesWithAdvancedFeatures bounds the devices of
	// a slice that uses taints, counters or per-device node selection.
	ResourceSliceMaxDevicesWithAdvancedFeatures = 64
	// BindingConditionsMaxSize bounds a device's binding conditions.
	BindingConditionsMaxSize = 4
	// BindingFailureConditionsMaxSize bounds its failure conditions.
	BindingFailureConditionsMaxSize = 4
	// ResourceSliceMaxCounterSets bounds the counter sets of a slice.
	ResourceSliceMaxCounterSets = 8
	// ResourceSliceMaxCountersPerCounterSet bounds a counter set.
	ResourceSliceMaxCountersPerCounterSet = 32
	// ResourceSliceMaxDeviceCounterConsumptionsPerDevice bounds the
	// counter sets one device draws from.
	ResourceSliceMaxDeviceCounterConsumptionsPerDevice = 2
	// ResourceSliceMaxCountersPerDeviceCounterConsumption bounds the
	// counters one consumption names.
	ResourceSliceMaxCountersPerDeviceCounterConsumption = 32
	// DeviceCompatibilityGroupsMaxSize bounds a consumption's
	// compatibility groups.
	DeviceCompatibilityGroupsMaxSize = 2
	// ResourceSliceMaxAttributesAndCapacitiesPerDevice bounds a
	// device's attributes and capacities together.
	ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32
	// ResourceSliceMaxAttributeValuesPerDevice bounds the values of a
	// device's attributes, list entries counted one by one.
	ResourceSliceMaxAttributeValuesPerDevice = 48
	// DeviceMaxDomainLength bounds the domain of a qualified name.
	DeviceMaxDomainLength = 63
	// DeviceMaxIDLength bounds the identifier of a qualified name.
	DeviceMaxIDLength = 32
	// DeviceAttributeMaxValueLength bounds a string or version value.
	DeviceAttributeMaxValueLength = 64
	// DeviceTaintsMaxLength bounds a device's taints.
	DeviceTaintsMaxLength = 16
	// DeviceTaintRuleStatusMaxConditions bounds a rule's conditions.
	DeviceTaintRuleStatusMaxConditions = 8
	// AllocationResultsMaxSize bounds the devices of one allocation.
	AllocationResultsMaxSize = 32
	// DeviceRequestsMaxSize bounds the requests of a claim.
	DeviceRequestsMaxSize = AllocationResultsMaxSize
	// DeviceConstraintsMaxSize bounds the constraints of a claim.
	DeviceConstraintsMaxSize = 32
	// DeviceConfigMaxSize bounds the config entries of a claim or class.
	DeviceConfigMaxSize = 32
	// DeviceSelectorsMaxSize bounds the selectors of a request or class.
	DeviceSelectorsMaxSize = 32
	// FirstAvailableDeviceRequestMaxSize bounds a prioritized list.
	FirstAvailableDeviceRequestMaxSize = 8
	// DeviceTolerationsMaxLength bounds a request's tolerations.
	DeviceTolerationsMaxLength = 16
	// DeviceDerivedAttributesMaxSize bounds a request's derived
	// attributes.
	DeviceDerivedAttributesMaxSize = 32
	// CELSelectorExpressionMaxCost is the CEL cost limit of a selector.
	CELSelectorExpressionMaxCost = 1000000
	// DeviceClaimDerivedAttributeCELMaxCost is the CEL cost limit of a
	// derived attribute.
	DeviceClaimDerivedAttributeCELMaxCost = 1000000
	// CELSelectorExpressionMaxLength bounds a selector's length.
	CELSelectorExpressionMaxLength = 10 * 1024
	// OpaqueParametersMaxLength bounds opaque configuration parameters.
	OpaqueParametersMaxLength = 10 * 1024
	// ResourceClaimReservedForMaxSize bounds a claim's consumers.
	ResourceClaimReservedForMaxSize = 256
	// AllocatedDeviceStatusMaxConditions bounds a device status's
	// conditions.
	AllocatedDeviceStatusMaxConditions = 8
	// AllocatedDeviceStatusDataMaxLength bounds its data.
	AllocatedDeviceStatusDataMaxLength = 10 * 1024
	// NetworkDeviceDataMaxIPs bounds the IPs of network data.
	NetworkDeviceDataMaxIPs = 16
	// NetworkDeviceDataInterfaceNameMaxLength bounds an interface name.
	NetworkDeviceDataInterfaceNameMaxLength = 256
	// NetworkDeviceDataHardwareAddressMaxLength bounds a hardware
	// address.
	NetworkDeviceDataHardwareAddressMaxLength = 128
)

// Condition is a metav1.Condition, the condition type of the newer APIs.
type Condition struct {
	// Type of the condition, CamelCase.
	Type string `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// ObservedGeneration is the object generation the condition was set
	// for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime"`
	// Reason is a CamelCase word for the last transition.
	Reason string `json:"reason"`
	// Message is for humans.
	Message string `json:"message"`
}

// DeviceClass selects devices and configures them for claims that name
// it (resource.k8s.io/v1, cluster-scoped).
type DeviceClass struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the class's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the class.
	Spec DeviceClassSpec `json:"spec"`
}

// DeviceClassSpec is what a class selects and configures.
type DeviceClassSpec struct {
	// Selectors must all match a device for the class to select it.
	Selectors []DeviceSelector `json:"selectors,omitempty"`
	// Config applies to every device allocated through the class.
	Config []DeviceClassConfiguration `json:"config,omitempty"`
	// ExtendedResourceName is the extended resource a pod may request
	// to get a device of this class without a claim.
	ExtendedResourceName *string `json:"extendedResourceName,omitempty"`
}

// DeviceClassConfiguration is one config entry of a class.
type DeviceClassConfiguration struct {
	// DeviceConfiguration is the configuration (inline in JSON).
	DeviceConfiguration `json:",inline"`
}

// ResourceSlice publishes some devices of one pool of one driver
// (resource.k8s.io/v1, cluster-scoped).
type ResourceSlice struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the slice's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the slice.
	Spec ResourceSliceSpec `json:"spec"`
}

// ResourceSliceSpec holds a slice's devices and where they are
// reachable from. Exactly one of NodeName, NodeSelector, AllNodes and
// PerDeviceNodeSelection is set.
type ResourceSliceSpec struct {
	// Driver is the DNS subdomain of the driver that owns the devices.
	Driver string `json:"driver"`
	// Pool is the pool the slice belongs to.
	Pool ResourcePool `json:"pool"`
	// NodeName is the one node that reaches the devices.
	NodeName *string `json:"nodeName,omitempty"`
	// NodeSelector selects the nodes that reach the devices; it has
	// exactly one term.
	NodeSelector *NodeSelector `json:"nodeSelector,omitempty"`
	// AllNodes: every node reaches the devices.
	AllNodes *bool `json:"allNodes,omitempty"`
	// Devices in the slice.
	Devices []Device `json:"devices,omitempty"`
	// PerDeviceNodeSelection: each device says which nodes reach it.
	PerDeviceNodeSelection *bool `json:"perDeviceNodeSelection,omitempty"`
	// SharedCounters are counter sets the pool's devices draw from.
	SharedCounters []CounterSet `json:"sharedCounters,omitempty"`
	// PartitionTypeAttribute names the attribute that tells a device's
	// partition type (alpha, DRAPartitionableDevicesType).
	PartitionTypeAttribute *FullyQualifiedName `json:"partitionTypeAttribute,omitempty"`
	// SkipNodeOperations are kubelet operations the driver does not
	// need (alpha, DRAOptionalNodeOperations).
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty"`
}

// SkipNodeOperation names a kubelet operation a driver can skip.
type SkipNodeOperation string

// Node operations a driver can skip.
const (
	SkipNodeOperationNodePrepareResources   SkipNodeOperation = "NodePrepareResources"
	SkipNodeOperationNodeUnprepareResources SkipNodeOperation = "NodeUnprepareResources"
	SkipNodeOperationAll                    SkipNodeOperation = "*"
)

// CounterSet is a named set of counters devices consume from.
type CounterSet struct {
	// Name is a DNS label unique among the pool's counter sets.
	Name string `json:"name"`
	// Counters by name (a DNS label).
	Counters map[string]Counter `json:"counters,omitempty"`
}

// ResourcePool names a pool and tells how many slices make it whole.
type ResourcePool struct {
	// Name of the pool, unique per driver.
	Name string `json:"name"`
	// Generation increases when the pool changes; only the slices of
	// the highest generation count.
	Generation int64 `json:"generation"`
	// ResourceSliceCount is how many slices the pool has at this
	// generation.
	ResourceSliceCount int64 `json:"resourceSliceCount"`
}

// Device is one allocatable device of a slice.
type Device struct {
	// Name is a DNS label unique in the pool.
	Name string `json:"name"`
	// Attributes by qualified name.
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty"`
	// Capacity by qualified name.
	Capacity map[QualifiedName]DeviceCapacity `json:"capacity,omitempty"`
	// ConsumesCounters are the shared counters allocating the device
	// uses up.
	ConsumesCounters []DeviceCounterConsumption `json:"consumesCounters,omitempty"`
	// NodeName, with PerDeviceNodeSelection, is the one node that
	// reaches the device.
	NodeName *string `json:"nodeName,omitempty"`
	// NodeSelector, with PerDeviceNodeSelection, selects the nodes that
	// reach the device.
	NodeSelector *NodeSelector `json:"nodeSelector,omitempty"`
	// AllNodes, with PerDeviceNodeSelection: every node reaches it.
	AllNodes *bool `json:"allNodes,omitempty"`
	// Taints on the device.
	Taints []DeviceTaint `json:"taints,omitempty"`
	// BindsToNode: an allocation of the device is limited to the node
	// it was allocated for.
	BindsToNode *bool `json:"bindsToNode,omitempty"`
	// BindingConditions must be true on the device's status before the
	// pod binds.
	BindingConditions []string `json:"bindingConditions,omitempty"`
	// BindingFailureConditions, when true, fail the binding.
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty"`
	// AllowMultipleAllocations: the device may be allocated to several
	// claims at once, each consuming some of its capacity.
	AllowMultipleAllocations *bool `json:"allowMultipleAllocations,omitempty"`
	// NodeAllocatableResources maps the device to node resources (alpha,
	// DRANodeAllocatableResources).
	NodeAllocatableResources map[ResourceName]NodeAllocatableResource `json:"nodeAllocatableResources,omitempty"`
}

// NodeAllocatableResource maps a device to a node-allocatable resource
// (alpha).
type NodeAllocatableResource struct {
	// Mapping tells how much of the node resource the device stands for.
	Mapping *NodeAllocatableMapping `json:"mapping,omitempty"`
	// Overhead is added per pod or per container.
	Overhead *NodeAllocatableOverhead `json:"overhead,omitempty"`
}

// NodeAllocatableMapping is the amount a device stands for (alpha).
type NodeAllocatableMapping struct {
	// CapacityKey names the device capacity the amount comes from.
	CapacityKey *QualifiedName `json:"capacityKey,omitempty"`
	// CapacityMultiplier multiplies that capacity.
	CapacityMultiplier *quantity.Quantity `json:"capacityMultiplier,omitempty"`
	// DeviceMultiplier is the amount per device.
	DeviceMultiplier *quantity.Quantity `json:"deviceMultiplier,omitempty"`
}

// NodeAllocatableOverhead is a fixed extra amount (alpha).
type NodeAllocatableOverhead struct {
	// PerPod is added once per pod.
	PerPod *quantity.Quantity `json:"perPod,omitempty"`
	// PerContainer is added per container.
	PerContainer *quantity.Quantity `json:"perContainer,omitempty"`
}

// DeviceCounterConsumption is what a device consumes from one counter
// set.
type DeviceCounterConsumption struct {
	// CounterSet names a counter set of the pool.
	CounterSet string `json:"counterSet"`
	// Counters consumed, by name.
	Counters map[string]Counter `json:"counters,omitempty"`
	// CompatibilityGroups (alpha, DRADeviceCompatibilityGroups).
	CompatibilityGroups []string `json:"compatibilityGroups,omitempty"`
}

// DeviceCapacity is one capacity of a device.
type DeviceCapacity struct {
	// Value is the total.
	Value quantity.Quantity `json:"value"`
	// RequestPolicy tells what a claim may consume of a device that
	// allows multiple allocations.
	RequestPolicy *CapacityRequestPolicy `json:"requestPolicy,omitempty"`
}

// Counter is one counter's amount.
type Counter struct {
	// Value is the amount.
	Value quantity.Quantity `json:"value"`
}

// CapacityRequestPolicy limits what one allocation consumes of a
// capacity. At most one of ValidValues and ValidRange is set.
type CapacityRequestPolicy struct {
	// Default is consumed when the claim requests nothing of the
	// capacity.
	Default *quantity.Quantity `json:"default"`
	// ValidValues are the only amounts one allocation may consume,
	// ascending; a request is rounded up to the next one.
	ValidValues []quantity.Quantity `json:"validValues,omitempty"`
	// ValidRange bounds and steps the amount one allocation consumes.
	ValidRange *CapacityRequestPolicyRange `json:"validRange,omitempty"`
}

// CapacityRequestPolicyRange is a range Min..Max in Step increments.
type CapacityRequestPolicyRange struct {
	// Min is the least an allocation consumes.
	Min *quantity.Quantity `json:"min,omitempty"`
	// Max is the most an allocation may consume.
	Max *quantity.Quantity `json:"max,omitempty"`
	// Step: an allocation consumes Min plus a multiple of Step.
	Step *quantity.Quantity `json:"step,omitempty"`
}

// QualifiedName is an attribute or capacity name, "<domain>/<id>" or
// "<id>" (then in the driver's domain).
type QualifiedName string

// FullyQualifiedName is "<domain>/<id>".
type FullyQualifiedName string

// DeviceAttribute holds exactly one value.
type DeviceAttribute struct {
	// IntValue is a number.
	IntValue *int64 `json:"int,omitempty"`
	// BoolValue is true or false.
	BoolValue *bool `json:"bool,omitempty"`
	// StringValue is a string of at most 64 characters.
	StringValue *string `json:"string,omitempty"`
	// VersionValue is a semantic version 2.0.0 string.
	VersionValue *string `json:"version,omitempty"`
	// IntValues is a list of numbers (alpha, DRAListTypeAttributes).
	IntValues []int64 `json:"ints,omitempty"`
	// BoolValues is a list of booleans (alpha).
	BoolValues []bool `json:"bools,omitempty"`
	// StringValues is a list of strings (alpha).
	StringValues []string `json:"strings,omitempty"`
	// VersionValues is a list of versions (alpha).
	VersionValues []string `json:"versions,omitempty"`
}

// DeviceTaint keeps claims that do not tolerate it off a device.
type DeviceTaint struct {
	// Key is a qualified name.
	Key string `json:"key"`
	// Value is a label value.
	Value string `json:"value,omitempty"`
	// Effect is None, NoSchedule or NoExecute.
	Effect DeviceTaintEffect `json:"effect"`
	// TimeAdded is when the taint was added.
	TimeAdded *Time `json:"timeAdded,omitempty"`
}

// DeviceTaintEffect is what a taint does to claims that do not tolerate
// it.
type DeviceTaintEffect string

// Device taint effects.
const (
	// DeviceTaintEffectNone has no effect (it informs).
	DeviceTaintEffectNone DeviceTaintEffect = "None"
	// DeviceTaintEffectNoSchedule keeps new allocations off the device.
	DeviceTaintEffectNoSchedule DeviceTaintEffect = "NoSchedule"
	// DeviceTaintEffectNoExecute also evicts the pods using it.
	DeviceTaintEffectNoExecute DeviceTaintEffect = "NoExecute"
)

// DeviceTaintRule adds a taint to the devices it selects
// (resource.k8s.io/v1, cluster-scoped; GA in 1.37 behind
// DRADeviceTaintRules, on by default).
type DeviceTaintRule struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the rule's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the rule.
	Spec DeviceTaintRuleSpec `json:"spec"`
	// Status is the observed eviction state.
	Status DeviceTaintRuleStatus `json:"status,omitempty"`
}

// DeviceTaintRuleSpec selects devices and names the taint.
type DeviceTaintRuleSpec struct {
	// DeviceSelector selects the devices; a rule without one selects
	// none.
	DeviceSelector *DeviceTaintSelector `json:"deviceSelector,omitempty"`
	// Taint is added to every selected device.
	Taint DeviceTaint `json:"taint,omitempty"`
}

// DeviceTaintSelector ANDs its set fields.
type DeviceTaintSelector struct {
	// Driver selects the devices of one driver.
	Driver *string `json:"driver,omitempty"`
	// Pool selects the devices of one pool.
	Pool *string `json:"pool,omitempty"`
	// Device selects devices of one name.
	Device *string `json:"device,omitempty"`
}

// DeviceTaintRuleStatus holds the rule's conditions.
type DeviceTaintRuleStatus struct {
	// Conditions, such as EvictionInProgress.
	Conditions []Condition `json:"conditions,omitempty"`
}

// DeviceTaintConditionEvictionInProgress is the condition a rule's
// controller sets while it evicts pods.
const DeviceTaintConditionEvictionInProgress = "EvictionInProgress"

// ResourceClaim is a request for devices (resource.k8s.io/v1,
// namespaced). The core/v1 type of the same name, a container's
// reference to a pod's claim, is ContainerResourceClaim here.
type ResourceClaim struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the claim's name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is what is requested.
	Spec ResourceClaimSpec `json:"spec"`
	// Status is the allocation and its consumers.
	Status ResourceClaimStatus `json:"status,omitempty"`
}

// ResourceClaimSpec is what a claim requests.
type ResourceClaimSpec struct {
	// Devices are the requested devices.
	Devices DeviceClaim `json:"devices"`
}

// DeviceClaim holds a claim's requests, constraints and config.
type DeviceClaim struct {
	// Requests are satisfied together or not at all.
	Requests []DeviceRequest `json:"requests"`
	// Constraints across the devices of several requests.
	Constraints []DeviceConstraint `json:"constraints,omitempty"`
	// Config for the allocated devices.
	Config []DeviceClaimConfiguration `json:"config,omitempty"`
}

// DeviceRequest is one request of a claim: exactly one of Exactly and
// FirstAvailable is set.
type DeviceRequest struct {
	// Name is a DNS label unique in the claim.
	Name string `json:"name"`
	// Exactly is a request for devices of one class.
	Exactly *ExactDeviceRequest `json:"exactly,omitempty"`
	// FirstAvailable are alternatives tried in order; the first that can
	// be satisfied is used.
	FirstAvailable []DeviceSubRequest `json:"firstAvailable,omitempty"`
}

// ExactDeviceRequest asks for devices of one class.
type ExactDeviceRequest struct {
	// DeviceClassName names the class.
	DeviceClassName string `json:"deviceClassName"`
	// Selectors must all match a device, with the class's.
	Selectors []DeviceSelector `json:"selectors,omitempty"`
	// AllocationMode is ExactCount (the default) or All.
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty"`
	// Count is how many devices ExactCount allocates (default 1).
	Count int64 `json:"count,omitempty"`
	// AdminAccess asks for monitoring access to devices that may be in
	// use; such an allocation does not make devices unavailable.
	AdminAccess *bool `json:"adminAccess,omitempty"`
	// Tolerations of device taints.
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`
	// Capacity is what the request consumes of a shared device.
	Capacity *CapacityRequirements `json:"capacity,omitempty"`
	// DerivedAttributes (alpha, DRADerivedAttributes).
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty"`
}

// DeviceSubRequest is one alternative of a FirstAvailable list.
type DeviceSubRequest struct {
	// Name is a DNS label unique in the list; results name it
	// "<request>/<subrequest>".
	Name string `json:"name"`
	// DeviceClassName names the class.
	DeviceClassName string `json:"deviceClassName"`
	// Selectors must all match a device, with the class's.
	Selectors []DeviceSelector `json:"selectors,omitempty"`
	// AllocationMode is ExactCount (the default) or All.
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty"`
	// Count is how many devices ExactCount allocates (default 1).
	Count int64 `json:"count,omitempty"`
	// Tolerations of device taints.
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`
	// Capacity is what the subrequest consumes of a shared device.
	Capacity *CapacityRequirements `json:"capacity,omitempty"`
	// DerivedAttributes (alpha, DRADerivedAttributes).
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty"`
}

// CapacityRequirements are the capacities a request consumes.
type CapacityRequirements struct {
	// Requests by capacity name.
	Requests map[QualifiedName]quantity.Quantity `json:"requests,omitempty"`
}

// DeviceAllocationMode is ExactCount or All.
type DeviceAllocationMode string

// Allocation modes.
const (
	// DeviceAllocationModeExactCount allocates Count devices.
	DeviceAllocationModeExactCount DeviceAllocationMode = "ExactCount"
	// DeviceAllocationModeAll allocates every matching device of the
	// node's pools, and at least one.
	DeviceAllocationModeAll DeviceAllocationMode = "All"
)

// DeviceSelector is one device selector.
type DeviceSelector struct {
	// CEL is a CEL expression over the device.
	CEL *CELDeviceSelector `json:"cel,omitempty"`
}

// CELDeviceSelector is a CEL expression that must evaluate to true.
type CELDeviceSelector struct {
	// Expression over device.driver, device.attributes and
	// device.capacity.
	Expression string `json:"expression"`
}

// DeviceDerivedAttribute computes an attribute for the claim (alpha).
type DeviceDerivedAttribute struct {
	// Name of the derived attribute.
	Name FullyQualifiedName `json:"name"`
	// Expression computes the value.
	Expression string `json:"expression"`
}

// DeviceConstraint constrains the devices of several requests.
type DeviceConstraint struct {
	// Requests it applies to; empty is all of the claim's.
	Requests []string `json:"requests,omitempty"`
	// MatchAttribute: every device has the attribute with one value.
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty"`
	// DistinctAttribute: every device has the attribute with a value of
	// its own (alpha in v1.37, DRAConsumableCapacity).
	DistinctAttribute *FullyQualifiedName `json:"distinctAttribute,omitempty"`
}

// DeviceClaimConfiguration is a config entry of a claim.
type DeviceClaimConfiguration struct {
	// Requests it applies to; empty is all.
	Requests []string `json:"requests,omitempty"`
	// DeviceConfiguration is the configuration (inline in JSON).
	DeviceConfiguration `json:",inline"`
}

// DeviceConfiguration is one configuration for a driver.
type DeviceConfiguration struct {
	// Opaque is driver-specific.
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty"`
}

// OpaqueDeviceConfiguration is parameters only a driver reads.
type OpaqueDeviceConfiguration struct {
	// Driver the parameters are for.
	Driver string `json:"driver"`
	// Parameters as JSON.
	Parameters json.RawMessage `json:"parameters"`
}

// DeviceToleration tolerates device taints it matches.
type DeviceToleration struct {
	// Key matched; empty with Exists matches every key.
	Key string `json:"key,omitempty"`
	// Operator is Exists or Equal (the default).
	Operator DeviceTolerationOperator `json:"operator,omitempty"`
	// Value matched with Equal.
	Value string `json:"value,omitempty"`
	// Effect matched; empty matches every effect.
	Effect DeviceTaintEffect `json:"effect,omitempty"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// DeviceTolerationOperator is Exists or Equal.
type DeviceTolerationOperator string

// Toleration operators.
const (
	DeviceTolerationOpExists DeviceTolerationOperator = "Exists"
	DeviceTolerationOpEqual  DeviceTolerationOperator = "Equal"
)

// ResourceClaimStatus is a claim's allocation and consumers.
type ResourceClaimStatus struct {
	// Allocation is set once devices are allocated.
	Allocation *AllocationResult `json:"allocation,omitempty"`
	// ReservedFor are the consumers (pods) allowed to use the claim.
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty"`
	// Devices are the drivers' reports on the allocated devices.
	Devices []AllocatedDeviceStatus `json:"devices,omitempty"`
}

// ResourceClaimConsumerReference names a consumer of a claim.
type ResourceClaimConsumerReference struct {
	// APIGroup of the consumer; empty for the core group.
	APIGroup string `json:"apiGroup,omitempty"`
	// Resource of the consumer, such as "pods".
	Resource string `json:"resource"`
	// Name of the consumer.
	Name string `json:"name"`
	// UID of the consumer.
	UID string `json:"uid"`
}

// AllocationResult is what the scheduler allocated for a claim.
type AllocationResult struct {
	// Devices allocated.
	Devices DeviceAllocationResult `json:"devices,omitempty"`
	// NodeSelector selects the nodes the allocation is usable from; nil
	// is every node.
	NodeSelector *NodeSelector `json:"nodeSelector,omitempty"`
	// AllocationTimestamp is when the allocation was made.
	AllocationTimestamp *Time `json:"allocationTimestamp,omitempty"`
}

// DeviceAllocationResult holds the allocated devices and their config.
type DeviceAllocationResult struct {
	// Results, one per allocated device.
	Results []DeviceRequestAllocationResult `json:"results,omitempty"`
	// Config copied from the classes and the claim.
	Config []DeviceAllocationConfiguration `json:"config,omitempty"`
}

// DeviceRequestAllocationResult is one allocated device.
type DeviceRequestAllocationResult struct {
	// Request is the request name, or "<request>/<subrequest>" for a
	// FirstAvailable alternative.
	Request string `json:"request"`
	// Driver of the device.
	Driver string `json:"driver"`
	// Pool of the device.
	Pool string `json:"pool"`
	// Device name in the pool.
	Device string `json:"device"`
	// AdminAccess is copied from the request.
	AdminAccess *bool `json:"adminAccess,omitempty"`
	// Tolerations of the request that the device's taints needed.
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`
	// BindingConditions copied from the device.
	BindingConditions []string `json:"bindingConditions,omitempty"`
	// BindingFailureConditions copied from the device.
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty"`
	// ShareID tells apart the allocations of a shared device.
	ShareID *string `json:"shareID,omitempty"`
	// ConsumedCapacity is what the allocation consumes of the device.
	ConsumedCapacity map[QualifiedName]quantity.Quantity `json:"consumedCapacity,omitempty"`
	// SkipNodeOperations copied from the slice (alpha).
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty"`
}

// DeviceAllocationConfiguration is one config entry of an allocation.
type DeviceAllocationConfiguration struct {
	// Source is FromClass or FromClaim.
	Source AllocationConfigSource `json:"source"`
	// Requests it applies to; empty is all.
	Requests []string `json:"requests,omitempty"`
	// DeviceConfiguration is the configuration (inline in JSON).
	DeviceConfiguration `json:",inline"`
}

// AllocationConfigSource tells where a config entry came from.
type AllocationConfigSource string

// Config sources.
const (
	AllocationConfigSourceClass AllocationConfigSource = "FromClass"
	AllocationConfigSourceClaim AllocationConfigSource = "FromClaim"
)

// ResourceClaimTemplate is the template of the claims made for pods
// that name it (resource.k8s.io/v1, namespaced).
type ResourceClaimTemplate struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the template's name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the claim to make.
	Spec ResourceClaimTemplateSpec `json:"spec"`
}

// ResourceClaimTemplateSpec is the metadata and spec of a generated
// claim.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta: labels and annotations copied into the claim.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec of the claim.
	Spec ResourceClaimSpec `json:"spec"`
}

// AllocatedDeviceStatus is a driver's report on an allocated device.
type AllocatedDeviceStatus struct {
	// Driver of the device.
	Driver string `json:"driver"`
	// Pool of the device.
	Pool string `json:"pool"`
	// Device name.
	Device string `json:"device"`
	// ShareID of the allocation of a shared device.
	ShareID *string `json:"shareID,omitempty"`
	// Conditions, such as the binding conditions.
	Conditions []Condition `json:"conditions"`
	// Data is driver-specific.
	Data json.RawMessage `json:"data,omitempty"`
	// NetworkData describes a network device.
	NetworkData *NetworkDeviceData `json:"networkData,omitempty"`
}

// NetworkDeviceData describes a network device.
type NetworkDeviceData struct {
	// InterfaceName in the pod.
	InterfaceName string `json:"interfaceName,omitempty"`
	// IPs in CIDR notation.
	IPs []string `json:"ips,omitempty"`
	// HardwareAddress of the interface.
	HardwareAddress string `json:"hardwareAddress,omitempty"`
}

// PodResourceClaim is an entry of pod.spec.resourceClaims: exactly one
// of ResourceClaimName and ResourceClaimTemplateName is set.
type PodResourceClaim struct {
	// Name identifies the entry in the pod; containers refer to it.
	Name string `json:"name"`
	// ResourceClaimName names an existing claim in the pod's namespace.
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
	// ResourceClaimTemplateName names a template the claim is made
	// from for this pod.
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty"`
}

// PodResourceClaimStatus is an entry of pod.status.resourceClaimStatuses:
// the claim made for a template entry.
type PodResourceClaimStatus struct {
	// Name of the entry in pod.spec.resourceClaims.
	Name string `json:"name"`
	// ResourceClaimName is the generated claim's name; nil when no
	// claim was needed.
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
}

// PodExtendedResourceClaimStatus is the claim the scheduler made for a
// pod's extended resources backed by DRA.
type PodExtendedResourceClaimStatus struct {
	// RequestMappings map container resources to claim requests.
	RequestMappings []ContainerExtendedResourceRequest `json:"requestMappings"`
	// ResourceClaimName is the claim's name.
	ResourceClaimName string `json:"resourceClaimName"`
}

// ContainerExtendedResourceRequest maps one container's extended
// resource to a request of the extended-resource claim.
type ContainerExtendedResourceRequest struct {
	// ContainerName is the container.
	ContainerName string `json:"containerName"`
	// ResourceName is the extended resource.
	ResourceName string `json:"resourceName"`
	// RequestName is the claim's request.
	RequestName string `json:"requestName"`
}
