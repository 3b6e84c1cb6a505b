package api

// Node is a Kubernetes node (core/v1).
type Node struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and labels.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the node's desired state.
	Spec NodeSpec `json:"spec,omitempty"`
	// Status is the node's observed state.
	Status NodeStatus `json:"status,omitempty"`
}

// NodeSpec is the configurable part of a node.
type NodeSpec struct {
	// PodCIDR is the node's pod address range.
	PodCIDR string `json:"podCIDR,omitempty"`
	// ProviderID is the cloud provider's ID.
	ProviderID string `json:"providerID,omitempty"`
	// Unschedulable cordons the node.
	Unschedulable bool `json:"unschedulable,omitempty"`
	// Taints repel pods that do not tolerate them.
	Taints []Taint `json:"taints,omitempty"`
}

// NodeStatus is the observed state of a node.
type NodeStatus struct {
	// Capacity is the node's total resources.
	Capacity ResourceList `json:"capacity,omitempty"`
	// Allocatable is what pods may use; when absent, capacity is used.
	Allocatable ResourceList `json:"allocatable,omitempty"`
	// Phase is deprecated.
	Phase string `json:"phase,omitempty"`
	// Conditions such as Ready and MemoryPressure.
	Conditions []NodeCondition `json:"conditions,omitempty"`
	// Addresses of the node.
	Addresses []NodeAddress `json:"addresses,omitempty"`
	// Images on the node, with sizes.
	Images []ContainerImage `json:"images,omitempty"`
	// NodeInfo is general information about the node.
	NodeInfo NodeSystemInfo `json:"nodeInfo,omitempty"`
	// DeclaredFeatures are the feature-gated features the node declares
	// (NodeDeclaredFeatures); the NodeDeclaredFeatures filter matches
	// pods' requirements against them.
	DeclaredFeatures []string `json:"declaredFeatures,omitempty"`
}

// NodeConditionType names a node condition.
type NodeConditionType string

// Node condition types.
const (
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one condition of a node.
type NodeCondition struct {
	// Type of the condition.
	Type NodeConditionType `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// LastHeartbeatTime is when the condition was last reported.
	LastHeartbeatTime Time `json:"lastHeartbeatTime,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable detail.
	Message string `json:"message,omitempty"`
}

// NodeAddress is one address of a node.
type NodeAddress struct {
	// Type such as InternalIP or Hostname.
	Type string `json:"type"`
	// Address text.
	Address string `json:"address"`
}

// ContainerImage is an image present on a node.
type ContainerImage struct {
	// Names (references) of the image.
	Names []string `json:"names"`
	// SizeBytes is the image size.
	SizeBytes int64 `json:"sizeBytes,omitempty"`
}

// NodeSystemInfo describes the node's software.
type NodeSystemInfo struct {
	// OperatingSystem such as linux.
	OperatingSystem string `json:"operatingSystem,omitempty"`
	// Architecture such as amd64.
	Architecture string `json:"architecture,omitempty"`
	// KubeletVersion reported by the kubelet.
	KubeletVersion string `json:"kubeletVersion,omitempty"`
	// ContainerRuntimeVersion reported by the runtime.
	ContainerRuntimeVersion string `json:"containerRuntimeVersion,omitempty"`
}
