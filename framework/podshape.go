package framework

import (
	"github.com/schedkit/schedkit/api"
)

// PodShape holds a pod's shape, for memos of per-node verdicts that hold
// for every pod of that shape (see FastPath.NodeLocalFilter): the pod
// without the fields a node-local filter does not read, those naming one
// pod and its nomination (name, generateName, UID, resourceVersion,
// generation, creationTimestamp, status.nominatedNodeName). Its zero
// value holds no shape. It is not safe for concurrent use.
type PodShape struct {
	// shape is the shape (shapeOf of a deep copy, its maps stripped);
	// nil when none is held.
	shape *api.Pod
	// maps are the maps stripped from shape (see Alike).
	maps podMaps
	// ref and refContainers hold the shape Refer makes (shape then
	// points at ref): pod's own lists and maps, not copies. referred is
	// whether shape is Refer's.
	ref           api.Pod
	refContainers []api.Container
	referred      bool
	// probe, probeContainers and probeMaps hold the shape of the pod
	// being compared, then are cleared.
	probe           api.Pod
	probeContainers []api.Container
	probeMaps       podMaps
}

// shapeOf is pod without the fields a node-local filter does not read.
func shapeOf(pod *api.Pod) api.Pod {
	s := *pod
	s.Name, s.GenerateName, s.UID, s.ResourceVersion = "", "", "", ""
	s.Generation = 0
	s.CreationTimestamp = api.Time{}
	s.Status.NominatedNodeName = ""
	return s
}

// Set makes pod's shape the one held, from a deep copy of pod.
func (ps *PodShape) Set(pod *api.Pod) {
	s := shapeOf(pod.DeepCopy())
	var kept []api.Container
	ps.maps.strip(&s, &kept)
	ps.shape = &s
	ps.dropRef()
}

// Refer makes pod's shape the one held without copying pod: the shape
// held is then pod's own lists and maps, and changes if they do, until
// Set or Clear; Referred reports it. It serves a memo that keeps
// nothing under the first cycle of a shape: when Alike holds for a
// later pod, the memo Sets that pod's shape before it keeps a verdict,
// so that a pod changed in between can only make Alike hold for a shape
// the memo then copies, never keep a verdict under another shape. Refer
// saves the copy for a shape decided once.
func (ps *PodShape) Refer(pod *api.Pod) {
	ps.ref = shapeOf(pod)
	ps.maps.strip(&ps.ref, &ps.refContainers)
	ps.shape, ps.referred = &ps.ref, true
}

// Referred reports whether the shape held is Refer's, not a copy.
func (ps *PodShape) Referred() bool { return ps.referred }

// dropRef drops Refer's references to a pod.
func (ps *PodShape) dropRef() {
	ps.ref = api.Pod{}
	clear(ps.refContainers)
	ps.referred = false
}

// Clear drops the shape held.
func (ps *PodShape) Clear() {
	ps.shape, ps.maps = nil, podMaps{}
	ps.dropRef()
}

// Held reports whether a shape is held.
func (ps *PodShape) Held() bool { return ps.shape != nil }

// Alike reports whether pod has the shape held (false when none is).
// The maps most pods have (labels, annotations, the node selector, the
// overhead and the containers' requests and limits) are compared
// directly, the rest of the pod by api.Pod.DeepEqual with those maps
// left out. Quantities compare with ==, which holds only for identical
// ones (a pod with equal but differently written quantities is taken
// for another shape).
func (ps *PodShape) Alike(pod *api.Pod) bool {
	if ps.shape == nil {
		return false
	}
	ps.probe = shapeOf(pod)
	ps.probeMaps.strip(&ps.probe, &ps.probeContainers)
	eq := ps.probeMaps.equal(&ps.maps) && ps.probe.DeepEqual(ps.shape)
	ps.probe = api.Pod{}
	clear(ps.probeContainers)
	ps.probeMaps.clear()
	return eq
}

// podMaps are the maps strip takes out of a pod's shape.
type podMaps struct {
	labels, annotations, nodeSelector map[string]string
	overhead                          api.ResourceList
	// requests and limits are the containers', then the init
	// containers'.
	requests, limits []api.ResourceList
}

// strip moves p's maps into pm, p's containers into copies in *buf
// first (p is a shallow copy whose lists belong to its pod).
func (pm *podMaps) strip(p *api.Pod, buf *[]api.Container) {
	pm.labels, pm.annotations, pm.nodeSelector, pm.overhead = p.Labels, p.Annotations, p.Spec.NodeSelector, p.Spec.Overhead
	p.Labels, p.Annotations, p.Spec.NodeSelector, p.Spec.Overhead = nil, nil, nil, nil
	n := len(p.Spec.Containers)
	*buf = append(append((*buf)[:0], p.Spec.Containers...), p.Spec.InitContainers...)
	cs := *buf
	pm.requests, pm.limits = pm.requests[:0], pm.limits[:0]
	for i := range cs {
		pm.requests = append(pm.requests, cs[i].Resources.Requests)
		pm.limits = append(pm.limits, cs[i].Resources.Limits)
		cs[i].Resources.Requests, cs[i].Resources.Limits = nil, nil
	}
	if p.Spec.Containers != nil {
		p.Spec.Containers = cs[:n:n]
	}
	if p.Spec.InitContainers != nil {
		p.Spec.InitContainers = cs[n:]
	}
}

// clear drops pm's references to a pod's maps, keeping its lists.
func (pm *podMaps) clear() {
	clear(pm.requests)
	clear(pm.limits)
	pm.labels, pm.annotations, pm.nodeSelector, pm.overhead = nil, nil, nil, nil
}

func (pm *podMaps) equal(o *podMaps) bool {
	if !mapsEqual(pm.labels, o.labels) || !mapsEqual(pm.annotations, o.annotations) || !mapsEqual(pm.nodeSelector, o.nodeSelector) ||
		!mapsEqual(pm.overhead, o.overhead) || len(pm.requests) != len(o.requests) {
		return false
	}
	for i := range pm.requests {
		if !mapsEqual(pm.requests[i], o.requests[i]) || !mapsEqual(pm.limits[i], o.limits[i]) {
			return false
		}
	}
	return true
}

// mapsEqual is maps.Equal, telling a nil map from an empty one as
// reflect.DeepEqual does.
func mapsEqual[M ~map[K]V, K, V comparable](a, b M) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
