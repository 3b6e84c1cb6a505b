package cluster

import (
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// Resource is a resource vector in the scheduler's integer units: CPU in
// millicores, memory and ephemeral storage in bytes, a pod count, and the
// remaining (extended, hugepages, ...) resources as a short slice sorted
// by name. It mirrors kube-scheduler's framework.Resource.
//
// Scalars never holds an entry whose value is zero: Add and Sub drop
// entries that reach zero, so two equal vectors compare equal with
// reflect.DeepEqual or cmp.Diff once empty slices are treated as nil.
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
// terms. A PodInfo is immutable after creation; NodeInfos of different
// snapshot versions share it.
type PodInfo struct {
	// Pod is the pod itself; do not modify it.
	Pod *api.Pod
	// priority is Pod.Spec.Priority (0 when nil), read once by
	// NewPodInfo: a preemption dry run reads it for every pod of every
	// node it tries, and the pod is three pointers away. priorityKnown
	// is false in a PodInfo built as a literal.
	priority      int32
	priorityKnown bool
	// start and hasStart are Pod.Status.StartTime, read by NewPodInfo
	// beside the priority for the same reason: a dry run orders and
	// scores the victims of every node it tries by them.
	start    time.Time
	hasStart bool
	// Requests are the pod's effective requests (resource.PodRequests).
	Requests Resource
	// NonZeroMilliCPU is the CPU request with the scheduler's default for
	// containers that request none.
	NonZeroMilliCPU int64
	// NonZeroMemory is the memory request with the scheduler's default.
	NonZeroMemory int64
	// HostPorts are the host ports the pod's containers and sidecar init
	// containers bind, with the defaults applied (empty IP is 0.0.0.0,
	// empty protocol is TCP), in container order.
	HostPorts []HostPort
	// PVCs are the "namespace/claim" keys of the persistent volume claims
	// the pod's volumes reference.
	PVCs []string

	// RequiredAffinityTerms are the pod's required pod affinity terms,
	// compiled (affinity.CompilePodAffinity); a group that failed to
	// compile is empty, as upstream.
	RequiredAffinityTerms []affinity.AffinityTerm
	// RequiredAntiAffinityTerms are the required anti-affinity terms.
	RequiredAntiAffinityTerms []affinity.AffinityTerm
	// PreferredAffinityTerms are the weighted preferred affinity terms.
	PreferredAffinityTerms []affinity.WeightedAffinityTerm
	// PreferredAntiAffinityTerms are the weighted preferred
	// anti-affinity terms.
	PreferredAntiAffinityTerms []affinity.WeightedAffinityTerm

	hasAffinity             bool
	hasRequiredAntiAffinity bool
}

// Priority is the pod's spec.priority, 0 when it has none (as
// kube-scheduler's corev1helpers.PodPriority).
func (p *PodInfo) Priority() int32 {
	if p.priorityKnown {
		return p.priority
	}
	if pr := p.Pod.Spec.Priority; pr != nil {
		return *pr
	}
	return 0
}

// StartTime is the pod's status.startTime, and false when it has none.
func (p *PodInfo) StartTime() (time.Time, bool) {
	if p.priorityKnown {
		return p.start, p.hasStart
	}
	if st := p.Pod.Status.StartTime; st != nil {
		return st.Time, true
	}
	return time.Time{}, false
}

// HasAffinity reports whether the pod has any inter-pod affinity or
// anti-affinity (pod.Spec.Affinity.PodAffinity or PodAntiAffinity set),
// the upstream test for NodeInfo.PodsWithAffinity.
func (p *PodInfo) HasAffinity() bool { return p.hasAffinity }

// HasRequiredAntiAffinity reports whether the pod has at least one
// required anti-affinity term.
func (p *PodInfo) HasRequiredAntiAffinity() bool { return p.hasRequiredAntiAffinity }

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
//
// A NodeInfo obtained from a Snapshot is immutable: the snapshot copies a
// NodeInfo before changing it (copy on write), so plugins may read it from
// many goroutines without locks. A NodeInfo built with NewNodeInfo belongs
// to its caller and is not safe for concurrent mutation.
type NodeInfo struct {
	// The fields a scheduling cycle reads for every node come first, so
	// that they share the NodeInfo's first three cache lines: the node,
	// its image states, the pod count and the resource sums.

	node *api.Node
	// unschedulable and taints are node.Spec's, kept here because every
	// cycle reads them for every node: filtering a node then need not
	// touch the Node object.
	unschedulable bool
	// slot is 1 + the node's slot in its snapshot (see Topology), 0
	// for a NodeInfo no snapshot made. (It sits in unschedulable's
	// padding.)
	slot int32
	// Generation changes whenever the NodeInfo changes. It and Pods sit
	// next to the node and its slot: a pass that follows the nodes of a
	// view by NodeInfo and generation (a plugin's per-node counts) then
	// reads one cache line of each node.
	Generation int64
	// Pods on the node.
	Pods   []*PodInfo
	taints []api.Taint
	// ImageStates maps each image name the node reports (as in
	// node.Status.Images, not normalized) to its summary. The map is
	// replaced, never modified, when the node's images change, and a
	// snapshot's nodes that report the same images may share one; do not
	// modify it. Look container images up with ImageState, which
	// normalizes the name as the ImageLocality plugin does.
	ImageStates map[string]*ImageStateSummary
	// images indexes ImageStates for LookupImage.
	images *imageIndex
	// Requested is the sum of the pods' requests.
	Requested Resource
	// Allocatable is the node's allocatable resources.
	Allocatable Resource
	// NonZeroRequested is the sum of the pods' non-zero requests (only
	// MilliCPU and Memory are meaningful, as upstream).
	NonZeroRequested Resource
	// PodsWithAffinity are the pods with any inter-pod (anti-)affinity.
	PodsWithAffinity []*PodInfo
	// PodsWithRequiredAntiAffinity are the pods with required
	// anti-affinity.
	PodsWithRequiredAntiAffinity []*PodInfo
	// UsedPorts are the host ports the pods bind.
	UsedPorts HostPortInfo
	// PVCRefCounts maps "namespace/claim" to the number of pods on the
	// node using the claim; nil when no pod uses one.
	PVCRefCounts map[string]int
	// cow is the snapshot epoch in which the snapshot's writer created
	// this NodeInfo and may still change it in place; see Snapshot.
	cow uint64
}

// Node returns the node; nil if the NodeInfo holds only pods.
func (n *NodeInfo) Node() *api.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// Name returns the node's name, or "" when the NodeInfo has no node.
func (n *NodeInfo) Name() string {
	if n == nil || n.node == nil {
		return ""
	}
	return n.node.Name
}

// NumPods returns the number of pods on the node.
func (n *NodeInfo) NumPods() int { return len(n.Pods) }

// Slot returns the node's slot in the snapshot that made the NodeInfo: a
// small number no other node of the snapshot holds while this node is in
// it (a removed node's slot is given to a node added later), kept by the
// NodeInfo's copies. It is -1 for a NodeInfo no snapshot made. Plugins
// index per-node memos by it, keyed by the NodeInfo and its Generation.
func (n *NodeInfo) Slot() int {
	if n == nil {
		return -1
	}
	return int(n.slot) - 1
}

// Unschedulable reports the node's spec.unschedulable; false without a
// node.
func (n *NodeInfo) Unschedulable() bool { return n != nil && n.unschedulable }

// Taints returns the node's spec.taints; nil without a node.
func (n *NodeInfo) Taints() []api.Taint {
	if n == nil {
		return nil
	}
	return n.taints
}

// setNodeObject sets the node and what is kept of its spec.
func (n *NodeInfo) setNodeObject(node *api.Node) {
	n.node = node
	if node == nil {
		n.unschedulable, n.taints = false, nil
		return
	}
	n.unschedulable, n.taints = node.Spec.Unschedulable, node.Spec.Taints
}
