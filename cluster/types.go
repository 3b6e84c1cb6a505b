package cluster

import (
	"github.com/schedkit/schedkit/api"
)

// Resource is a resource vector in the scheduler's integer units: CPU in
// millicores, memory and ephemeral storage in bytes, a pod count, and the
// remaining (extended, hugepages, ...) resources as a short slice sorted
// by name. It mirrors kube-scheduler's framework.Resource.
type Resource struct {
	// MilliCPU is CPU in thousandths of a core.
	MilliCPU int64
	// Memory in bytes.
	Memory int64
	// EphemeralStorage in bytes.
	EphemeralStorage int64
	// AllowedPodNumber is the pods resource (allocatable pod count).
	AllowedPodNumber int64
	// Scalars are the other resources, sorted by name, at most one entry
	// per name.
	Scalars []Scalar
}

// Scalar is one named resource amount of a Resource.
type Scalar struct {
	// Name of the resource, such as nvidia.com/gpu or hugepages-2Mi.
	Name api.ResourceName
	// Value in the resource's base unit (Quantity.Value()).
	Value int64
}

// PodInfo is a pod with what the scheduler derives from it once: its
// resource requests, non-zero requests, host ports and compiled affinity
// terms. A PodInfo is immutable after creation.
type PodInfo struct {
	// Pod is the pod itself; do not modify it.
	Pod *api.Pod
	// Requests are the pod's effective requests (resource.PodRequests).
	Requests Resource
	// NonZeroMilliCPU is the CPU request with the scheduler's default for
	// containers that request none.
	NonZeroMilliCPU int64
	// NonZeroMemory is the memory request with the scheduler's default.
	NonZeroMemory int64
}

// ImageStateSummary is what a node knows of an image: its size and on how
// many nodes of the snapshot it is present.
type ImageStateSummary struct {
	// Size of the image in bytes.
	Size int64
	// NumNodes is the number of nodes in the snapshot holding the image.
	NumNodes int
}

// NodeInfo is one node of a snapshot with the aggregate state of the pods
// bound or assumed on it.
type NodeInfo struct {
	node *api.Node
	// Pods on the node.
	Pods []*PodInfo
	// PodsWithAffinity are the pods with any inter-pod (anti-)affinity.
	PodsWithAffinity []*PodInfo
	// PodsWithRequiredAntiAffinity are the pods with required
	// anti-affinity.
	PodsWithRequiredAntiAffinity []*PodInfo
	// Requested is the sum of the pods' requests.
	Requested Resource
	// NonZeroRequested is the sum of the pods' non-zero requests (only
	// MilliCPU and Memory are meaningful, as upstream).
	NonZeroRequested Resource
	// Allocatable is the node's allocatable resources.
	Allocatable Resource
	// ImageStates maps each image name on the node to its summary.
	ImageStates map[string]*ImageStateSummary
	// Generation changes whenever the NodeInfo changes.
	Generation int64
}

// Node returns the node; nil if the NodeInfo holds only pods.
func (n *NodeInfo) Node() *api.Node { return n.node }
