package cluster

import (
	"fmt"
	"maps"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// NewNodeInfo returns a NodeInfo for node (which may be nil) holding the
// given pods. Allocatable is node.Status.Allocatable exactly, as in
// kube-scheduler, which does not fall back to capacity; see
// AllocatableWithDefault for the API server's defaulting. ImageStates
// lists the node's images with NumNodes 1; a Snapshot counts them across
// its nodes. Pods are added with NewPodInfo, so bad quantities are not
// rejected here (use a Snapshot or NewPodInfoChecked for that).
func NewNodeInfo(node *api.Node, pods ...*api.Pod) *NodeInfo {
	n := &NodeInfo{}
	if node != nil {
		n.setNode(node)
	}
	for _, p := range pods {
		n.addPod(NewPodInfo(p))
	}
	n.Generation++
	return n
}

// AllocatableWithDefault returns node.Status.Allocatable, or
// node.Status.Capacity when the node has no allocatable list: the API
// server's defaulting of node status (SetDefaults_NodeStatus), which
// nodes read from manifests may lack. The scheduler itself uses
// Allocatable only; apply this when building nodes, not when scheduling.
func AllocatableWithDefault(node *api.Node) api.ResourceList {
	if node.Status.Allocatable == nil && node.Status.Capacity != nil {
		return node.Status.Capacity
	}
	return node.Status.Allocatable
}

// SetNode sets the node, its allocatable resources and its image states
// (NumNodes 1 for each; a Snapshot counts them across its nodes).
func (n *NodeInfo) SetNode(node *api.Node) {
	n.setNode(node)
	n.Generation++
}

func (n *NodeInfo) setNode(node *api.Node) {
	n.setNodeObject(node)
	n.Allocatable = ResourceFromList(node.Status.Allocatable)
	m := nodeImageStates(node, nil)
	n.setImageStates(m, newImageIndex(m))
}

// AddPod adds a pod's requests, ports, claims and affinity to the node in
// time proportional to the pod's size.
func (n *NodeInfo) AddPod(p *PodInfo) {
	n.addPod(p)
	n.Generation++
}

func (n *NodeInfo) addPod(p *PodInfo) {
	n.Pods = append(n.Pods, p)
	if p.hasAffinity {
		n.PodsWithAffinity = append(n.PodsWithAffinity, p)
	}
	if p.hasRequiredAntiAffinity {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, p)
	}
	n.Requested.Add(p.Requests)
	n.NonZeroRequested.MilliCPU += p.NonZeroMilliCPU
	n.NonZeroRequested.Memory += p.NonZeroMemory
	for _, hp := range p.HostPorts {
		n.UsedPorts.Add(hp.IP, hp.Protocol, hp.Port)
	}
	if len(p.PVCs) > 0 {
		if n.PVCRefCounts == nil {
			n.PVCRefCounts = make(map[string]int, len(p.PVCs))
		}
		for _, k := range p.PVCs {
			n.PVCRefCounts[k]++
		}
	}
}

// RemovePod removes the pod (matched by UID when both have one, else by
// namespace and name) and subtracts what it added, in time proportional
// to the number of pods on the node plus the pod's size. It returns an
// error if the pod is not on the node.
func (n *NodeInfo) RemovePod(pod *api.Pod) error {
	if _, err := n.removePod(pod); err != nil {
		return err
	}
	n.Generation++
	return nil
}

func (n *NodeInfo) removePod(pod *api.Pod) (*PodInfo, error) {
	i := indexOfPod(n.Pods, pod)
	if i < 0 {
		return nil, fmt.Errorf("pod %s is not on node %q", podName(pod), n.Name())
	}
	return n.removePodAt(i), nil
}

// RemovePodAt removes n.Pods[i] as RemovePod of that pod does, without
// searching for it: the last pod takes position i. It returns the pod
// removed. A caller that knows where its pods are (a preemption dry run
// removing victims from its copy of a node) saves a search by UID per
// pod. It panics if i is out of range, as an index does.
func (n *NodeInfo) RemovePodAt(i int) *PodInfo {
	p := n.removePodAt(i)
	n.Generation++
	return p
}

func (n *NodeInfo) removePodAt(i int) *PodInfo {
	p := n.Pods[i]
	n.Pods = removeAt(n.Pods, i)
	if p.hasAffinity {
		n.PodsWithAffinity = removeAt(n.PodsWithAffinity, indexOfPodInfo(n.PodsWithAffinity, p))
	}
	if p.hasRequiredAntiAffinity {
		n.PodsWithRequiredAntiAffinity = removeAt(n.PodsWithRequiredAntiAffinity, indexOfPodInfo(n.PodsWithRequiredAntiAffinity, p))
	}
	n.Requested.Sub(p.Requests)
	n.NonZeroRequested.MilliCPU -= p.NonZeroMilliCPU
	n.NonZeroRequested.Memory -= p.NonZeroMemory
	for _, hp := range p.HostPorts {
		n.UsedPorts.Remove(hp.IP, hp.Protocol, hp.Port)
	}
	for _, k := range p.PVCs {
		if n.PVCRefCounts[k]--; n.PVCRefCounts[k] <= 0 {
			delete(n.PVCRefCounts, k)
		}
	}
	if len(n.PVCRefCounts) == 0 {
		n.PVCRefCounts = nil
	}
	return p
}

// samePod reports whether a and b are the same pod: by UID when both
// have one, else by namespace and name.
func samePod(a, b *api.Pod) bool {
	if a == b {
		return true
	}
	if a.UID != "" && b.UID != "" {
		return a.UID == b.UID
	}
	return a.Name == b.Name && podNamespace(a) == podNamespace(b)
}

func indexOfPod(s []*PodInfo, pod *api.Pod) int {
	for i, p := range s {
		if samePod(p.Pod, pod) {
			return i
		}
	}
	return -1
}

func indexOfPodInfo(s []*PodInfo, p *PodInfo) int {
	for i := range s {
		if s[i] == p {
			return i
		}
	}
	return -1
}

// removeAt removes s[i] by moving the last element into its place, as
// upstream; an emptied slice becomes nil.
func removeAt(s []*PodInfo, i int) []*PodInfo {
	if i < 0 {
		return s
	}
	last := len(s) - 1
	s[i] = s[last]
	s[last] = nil
	if last == 0 {
		return nil
	}
	return s[:last]
}

// Clone returns a deep copy of the NodeInfo's aggregates: its slices,
// maps and image summaries are new; the node and the PodInfos (both
// immutable) are shared.
func (n *NodeInfo) Clone() *NodeInfo {
	c := n.cowClone()
	if n.ImageStates != nil {
		m := make(map[string]*ImageStateSummary, len(n.ImageStates))
		for k, v := range n.ImageStates {
			s := *v
			m[k] = &s
		}
		c.setImageStates(m, newImageIndex(m))
	}
	c.cow = 0
	return c
}

// cowClone copies everything a pod or node change modifies in place;
// ImageStates, which is only ever replaced, is shared.
func (n *NodeInfo) cowClone() *NodeInfo {
	c := &NodeInfo{
		node:                         n.node,
		unschedulable:                n.unschedulable,
		taints:                       n.taints,
		Pods:                         clonePods(n.Pods),
		PodsWithAffinity:             clonePods(n.PodsWithAffinity),
		PodsWithRequiredAntiAffinity: clonePods(n.PodsWithRequiredAntiAffinity),
		Requested:                    n.Requested.Clone(),
		NonZeroRequested:             n.NonZeroRequested.Clone(),
		Allocatable:                  n.Allocatable.Clone(),
		UsedPorts:                    n.UsedPorts.Clone(),
		ImageStates:                  n.ImageStates,
		images:                       n.images,
		Generation:                   n.Generation,
		slot:                         n.slot,
	}
	if len(n.PVCRefCounts) > 0 {
		c.PVCRefCounts = maps.Clone(n.PVCRefCounts)
	}
	return c
}

// CopyInto makes dst a copy of n that its caller may change, as Clone
// does, in dst's memory: the pod lists, resources, ports and claim
// counts reuse dst's slices and map. A dry run that tries node after
// node then allocates nothing per node. ImageStates is shared, as it is
// only ever replaced. dst belongs to no snapshot: its Slot is -1, so
// that no per-node memo takes it, or its changes, for n's.
func (n *NodeInfo) CopyInto(dst *NodeInfo) {
	*dst = NodeInfo{
		node:                         n.node,
		unschedulable:                n.unschedulable,
		taints:                       n.taints,
		ImageStates:                  n.ImageStates,
		images:                       n.images,
		Pods:                         append(dst.Pods[:0], n.Pods...),
		PodsWithAffinity:             append(dst.PodsWithAffinity[:0], n.PodsWithAffinity...),
		PodsWithRequiredAntiAffinity: append(dst.PodsWithRequiredAntiAffinity[:0], n.PodsWithRequiredAntiAffinity...),
		Requested:                    copyResource(dst.Requested, n.Requested),
		NonZeroRequested:             copyResource(dst.NonZeroRequested, n.NonZeroRequested),
		Allocatable:                  copyResource(dst.Allocatable, n.Allocatable),
		UsedPorts:                    HostPortInfo{entries: append(dst.UsedPorts.entries[:0], n.UsedPorts.entries...)},
		PVCRefCounts:                 dst.PVCRefCounts,
		Generation:                   n.Generation,
	}
	clear(dst.PVCRefCounts)
	if len(n.PVCRefCounts) == 0 {
		dst.PVCRefCounts = nil
		return
	}
	if dst.PVCRefCounts == nil {
		dst.PVCRefCounts = make(map[string]int, len(n.PVCRefCounts))
	}
	maps.Copy(dst.PVCRefCounts, n.PVCRefCounts)
}

// copyResource is src with its scalars copied into dst's memory.
func copyResource(dst, src Resource) Resource {
	scalars := append(dst.Scalars[:0], src.Scalars...)
	dst = src
	dst.Scalars = scalars
	if len(scalars) == 0 {
		dst.Scalars = nil
	}
	return dst
}

// clonePods copies s with a little room to grow, so that the writer's
// next append does not copy again.
func clonePods(s []*PodInfo) []*PodInfo {
	if len(s) == 0 {
		return nil
	}
	return append(make([]*PodInfo, 0, len(s)+1+len(s)/8), s...)
}

// String summarizes the NodeInfo for debugging.
func (n *NodeInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "NodeInfo{%s pods:%d requested:%+v nonzero:{cpu:%d mem:%d} allocatable:%+v ports:%d gen:%d}",
		n.Name(), len(n.Pods), n.Requested, n.NonZeroRequested.MilliCPU, n.NonZeroRequested.Memory,
		n.Allocatable, n.UsedPorts.Len(), n.Generation)
	return b.String()
}

// NormalizedImageName returns the name kube-scheduler's ImageLocality
// plugin looks a container image up by: ":latest" is appended when the
// name has neither a tag nor a digest (no ':' after the last '/').
func NormalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		return name + ":latest"
	}
	return name
}

// ImageState returns the summary of a container image on the node,
// looking up NormalizedImageName(image) as the ImageLocality plugin does.
func (n *NodeInfo) ImageState(image string) (*ImageStateSummary, bool) {
	s, ok := n.ImageStates[NormalizedImageName(image)]
	return s, ok
}

// nodeImageStates builds a node's image map: each name of each image in
// node.Status.Images with NumNodes and size from count (a snapshot's
// count of nodes and the size first seen), or, when count is nil,
// NumNodes 1 and that image's size (the first image listing a name
// wins). Summaries are allocated in one block.
func nodeImageStates(node *api.Node, count func(string) (int, int64)) map[string]*ImageStateSummary {
	total := 0
	for i := range node.Status.Images {
		total += len(node.Status.Images[i].Names)
	}
	if total == 0 {
		return nil
	}
	m := make(map[string]*ImageStateSummary, total)
	block := make([]ImageStateSummary, 0, total)
	for i := range node.Status.Images {
		img := &node.Status.Images[i]
		for _, name := range img.Names {
			if _, dup := m[name]; dup {
				continue
			}
			num, size := 1, img.SizeBytes
			if count != nil {
				num, size = count(name)
			}
			block = append(block, ImageStateSummary{Size: size, NumNodes: num})
			m[name] = &block[len(block)-1]
		}
	}
	return m
}
