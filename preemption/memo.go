package preemption

import (
	"reflect"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// verdicts keeps, by node slot, what the dry run found on each node it
// tried for one preemptor shape, so that the next attempt of a pod of
// that shape reads a node that did not change instead of trying it
// again. A verdict is a function of the shape, the node, the snapshot's
// objects (the budgets among them), the active filters and the pods
// nominated to the node: so the memo holds only while every active
// filter is node-local (framework.FastPath.NodeLocalFilter), no PreFilter
// extension is active (they change the state as victims are removed),
// and for nodes without nominated pods; it is keyed by the shape, the
// profile, the active filters' names and the objects, and each verdict
// by its NodeInfo and Generation. Errors are not kept.
type verdicts struct {
	// shape is the preemptor the verdicts are for (shapeOf of a deep
	// copy); nil for an empty memo.
	shape   *api.Pod
	prof    *framework.Profile
	filters []string
	objects *cluster.Objects
	bySlot  []verdict
	// slab holds the kept victims, carved as scratch.pods carves; a
	// verdict's list is never changed once kept.
	slab []*api.Pod
	// shapeMaps are the maps stripped from shape (see alike).
	shapeMaps podMaps
	// probe, probeContainers and probeMaps hold the shape of the pod
	// being compared, then are cleared.
	probe           api.Pod
	probeContainers []api.Container
	probeMaps       podMaps
	// hits counts the verdicts read (for tests).
	hits int

	// localProf is the profile whose node-local filters local lists.
	localProf *framework.Profile
	local     map[string]bool
}

// verdict is one node's: valid while the node is ni at generation gen.
type verdict struct {
	ni         *cluster.NodeInfo
	gen        int64
	name       string
	victims    []*api.Pod
	violations int
	st         *framework.Status
	score      candidateScore
}

// shapeOf is pod without the fields a node-local filter does not read:
// those naming one pod and its nomination.
func shapeOf(pod *api.Pod) api.Pod {
	s := *pod
	s.Name, s.GenerateName, s.UID, s.ResourceVersion = "", "", "", ""
	s.Generation = 0
	s.CreationTimestamp = api.Time{}
	s.Status.NominatedNodeName = ""
	return s
}

// alike reports whether pod has the memo's shape. The maps most pods
// have (labels, annotations, the node selector, the overhead and the
// containers' requests and limits) are compared directly, the rest of
// the pod by reflect.DeepEqual with those maps left out: DeepEqual
// allocates for each entry of a map. Quantities compare with ==, which
// holds only for identical ones (a pod with equal but differently
// written quantities is taken for another shape).
func (m *verdicts) alike(pod *api.Pod) bool {
	m.probe = shapeOf(pod)
	m.probeMaps.strip(&m.probe, &m.probeContainers)
	eq := m.probeMaps.equal(&m.shapeMaps) && reflect.DeepEqual(&m.probe, m.shape)
	m.probe = api.Pod{}
	clear(m.probeContainers)
	m.probeMaps.clear()
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

// usable reports whether the verdicts of f's filters can be kept: no
// extension active, every filter node-local.
func (m *verdicts) usable(prof *framework.Profile, f *fitter) bool {
	if len(f.exts) != 0 {
		return false
	}
	if m.localProf != prof {
		m.localProf, m.local = prof, map[string]bool{}
		for _, pl := range prof.FilterPlugins() {
			m.local[pl.Name()] = framework.FastPathOf(pl).NodeLocalFilter
		}
	}
	for _, name := range f.filterNames {
		if !m.local[name] {
			return false
		}
	}
	return true
}

// prepare readies the memo for an attempt of pod with f's filters over
// objects, emptying it when the key changed. It returns nil when the
// verdicts cannot be kept.
func (m *verdicts) prepare(prof *framework.Profile, f *fitter, objects *cluster.Objects, pod *api.Pod) *verdicts {
	if !m.usable(prof, f) {
		return nil
	}
	if m.shape != nil && m.prof == prof && m.objects == objects && equalStrings(m.filters, f.filterNames) && m.alike(pod) {
		return m
	}
	m.setShape(pod)
	m.prof, m.objects = prof, objects
	m.filters = append(m.filters[:0], f.filterNames...)
	clear(m.bySlot)
	m.slab = nil
	return m
}

// setShape makes pod's shape the memo's, from a copy of pod.
func (m *verdicts) setShape(pod *api.Pod) {
	s := shapeOf(pod.DeepCopy())
	var kept []api.Container
	m.shapeMaps.strip(&s, &kept)
	m.shape = &s
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// get returns ni's kept verdict, nil when there is none for ni as it
// is. m may be nil. The caller still checks that no pod is nominated to
// the node (by the verdict's name, which saves reading the node).
func (m *verdicts) get(ni *cluster.NodeInfo) *verdict {
	if m == nil {
		return nil
	}
	sl := ni.Slot()
	if sl < 0 || sl >= len(m.bySlot) {
		return nil
	}
	if v := &m.bySlot[sl]; v.ni == ni && v.gen == ni.Generation {
		return v
	}
	return nil
}

// put keeps ni's verdict unless it is an error or pods are nominated to
// ni. m may be nil.
func (m *verdicts) put(ni *cluster.NodeInfo, name string, nominated []*cluster.PodInfo, victims []*api.Pod, violations int, st *framework.Status, score *candidateScore) {
	sl := ni.Slot()
	if m == nil || len(nominated) != 0 || sl < 0 || st.Code() == framework.Error {
		return
	}
	if sl >= len(m.bySlot) {
		m.bySlot = append(m.bySlot, make([]verdict, sl+1-len(m.bySlot))...)
	}
	v := verdict{ni: ni, gen: ni.Generation, name: name, violations: violations, st: st, score: *score}
	if len(victims) != 0 {
		if cap(m.slab)-len(m.slab) < len(victims) {
			m.slab = make([]*api.Pod, 0, max(len(victims), 256))
		}
		l := len(m.slab)
		m.slab = append(m.slab, victims...)
		v.victims = m.slab[l : l+len(victims) : l+len(victims)]
	}
	m.bySlot[sl] = v
}
