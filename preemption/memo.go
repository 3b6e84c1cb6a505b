package preemption

import (
	"slices"

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
	// shape is the preemptor's the verdicts are for; none for an empty
	// memo.
	shape   framework.PodShape
	prof    *framework.Profile
	filters []string
	objects *cluster.Objects
	bySlot  []verdict
	// slab holds the kept victims, carved as scratch.pods carves; a
	// verdict's list is never changed once kept.
	slab []*api.Pod
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
	if m.shape.Held() && m.prof == prof && m.objects == objects && slices.Equal(m.filters, f.filterNames) && m.shape.Alike(pod) {
		return m
	}
	m.shape.Set(pod)
	m.prof, m.objects = prof, objects
	m.filters = append(m.filters[:0], f.filterNames...)
	clear(m.bySlot)
	m.slab = nil
	return m
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
