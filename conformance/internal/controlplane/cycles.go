package controlplane

import (
	"context"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// CycleStep is what one step of a scheduling cycle did.
type CycleStep int

const (
	// CycleStart is a cycle's PreFilter: the scheduler took the pod from
	// its queue and began judging it on a fresh snapshot.
	CycleStart CycleStep = iota
	// CycleReserve is a cycle's Reserve: the pod is assumed on Node in
	// the scheduler's cache, and every later cycle sees it there.
	CycleReserve
	// CycleUnreserve undoes a Reserve: binding failed and the pod left
	// the cache, to be scheduled again.
	CycleUnreserve
	// CycleRemoved is a bound pod leaving the scheduler's cache (deleted,
	// or terminal): the first cycle whose snapshot lacks it follows.
	CycleRemoved
)

// Cycle is one step of kube-scheduler's scheduling cycles, in the order
// the scheduler took them.
type Cycle struct {
	Step      CycleStep
	Namespace string
	Name      string
	// Node is the node of a Reserve, an Unreserve or a removal.
	Node string
	// At is when the step ran, on the monotonic clock of this process.
	At time.Time
}

// cycleRecorderName is the out-of-tree plugin that records the cycles.
const cycleRecorderName = "SchedkitCycleRecorder"

// cycleLog is the record of the scheduler's cycles. The scheduler takes
// one pod at a time in its scheduling loop, so the order of PreFilter and
// Reserve calls is the order in which pods were judged and placed; the
// bindings that follow run concurrently and reach the API server in any
// order.
//
// A bound pod's removal is recorded where the cycles first stopped
// seeing it: its deletion start (or its removal, whichever the
// scheduler's informer delivers first) makes it pending, and each cycle's
// PreFilter looks the pending pods up in that cycle's snapshot. The
// informer's handlers run concurrently, so no handler of ours can tell
// whether the scheduler's cache has dropped a pod yet; the snapshot can.
type cycleLog struct {
	mu      sync.Mutex
	cycles  []Cycle
	pending map[string]*removal
	// removed holds the uids whose removal a cycle has recorded. The
	// scheduler's cache and our handlers hear of a deletion
	// independently, so the informer's delete can reach us after a cycle
	// already found the pod gone; it must not record the removal again.
	removed map[types.UID]bool
}

// removal is a bound pod whose deletion started.
type removal struct {
	namespace, name, node string
	uid                   types.UID
	// gone is when the informer delivered the object's removal; zero
	// before.
	gone time.Time
}

func (l *cycleLog) add(step CycleStep, p *v1.Pod, node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addLocked(step, p.Namespace, p.Name, node)
}

func (l *cycleLog) addLocked(step CycleStep, namespace, name, node string) {
	l.cycles = append(l.cycles, Cycle{Step: step, Namespace: namespace, Name: name, Node: node, At: time.Now()})
}

// Cycles returns the scheduler's cycles so far, in the order it ran them.
// The pods removed since the last cycle end the list, removed.
func (c *ControlPlane) Cycles() []Cycle {
	l := &c.cycles
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]Cycle(nil), l.cycles...)
	var last time.Time
	if len(out) > 0 {
		last = out[len(out)-1].At
	}
	var gone []Cycle
	for _, r := range l.pending {
		if !r.gone.IsZero() {
			at := r.gone
			if !at.After(last) {
				at = last.Add(time.Nanosecond)
			}
			gone = append(gone, Cycle{Step: CycleRemoved, Namespace: r.namespace, Name: r.name, Node: r.node, At: at})
		}
	}
	sort.Slice(gone, func(i, j int) bool {
		if !gone[i].At.Equal(gone[j].At) {
			return gone[i].At.Before(gone[j].At)
		}
		return gone[i].Namespace+"/"+gone[i].Name < gone[j].Namespace+"/"+gone[j].Name
	})
	return append(out, gone...)
}

// terminating notes a bound pod whose deletion started, or that was
// removed (gone).
func (l *cycleLog) terminating(p *v1.Pod, gone bool) {
	if p.Spec.NodeName == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.removed[p.UID] {
		return
	}
	if l.pending == nil {
		l.pending = map[string]*removal{}
	}
	key := p.Namespace + "/" + p.Name
	r := l.pending[key]
	if r == nil || r.uid != p.UID {
		r = &removal{namespace: p.Namespace, name: p.Name, node: p.Spec.NodeName, uid: p.UID}
		l.pending[key] = r
	}
	if gone && r.gone.IsZero() {
		r.gone = time.Now()
	}
}

// cycleStart records a cycle's start, after the removals of the pending
// pods its snapshot no longer holds.
func (l *cycleLog) cycleStart(p *v1.Pod, snap fwk.SharedLister) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var removed []*removal
	for key, r := range l.pending {
		ni, err := snap.NodeInfos().Get(r.node)
		if err != nil || ni == nil {
			// Not a node of the snapshot: nothing to judge by; Cycles
			// reports the removal after the last cycle.
			continue
		}
		if !holds(ni, r.uid) {
			removed = append(removed, r)
			delete(l.pending, key)
			if l.removed == nil {
				l.removed = map[types.UID]bool{}
			}
			l.removed[r.uid] = true
		}
	}
	sort.Slice(removed, func(i, j int) bool {
		return removed[i].namespace+"/"+removed[i].name < removed[j].namespace+"/"+removed[j].name
	})
	for _, r := range removed {
		l.addLocked(CycleRemoved, r.namespace, r.name, r.node)
	}
	l.addLocked(CycleStart, p.Namespace, p.Name, "")
}

// holds reports whether the node holds the pod of uid.
func holds(ni fwk.NodeInfo, uid types.UID) bool {
	for _, pi := range ni.GetPods() {
		if pi.GetPod().UID == uid {
			return true
		}
	}
	return false
}

// handlers are the handlers, on the informer that feeds the scheduler's
// cache, that note the terminating pods.
func (l *cycleLog) handlers() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			if p, ok := obj.(*v1.Pod); ok && p.DeletionTimestamp != nil {
				l.terminating(p, false)
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if p, ok := obj.(*v1.Pod); ok {
				l.terminating(p, true)
			}
		},
	}
}

// cycleRecorder is a PreFilter and Reserve plugin that decides nothing:
// it always succeeds and only writes the log.
type cycleRecorder struct {
	log    *cycleLog
	handle fwk.Handle
}

var (
	_ fwk.PreFilterPlugin = (*cycleRecorder)(nil)
	_ fwk.ReservePlugin   = (*cycleRecorder)(nil)
)

func (r *cycleRecorder) Name() string { return cycleRecorderName }

func (r *cycleRecorder) PreFilter(_ context.Context, _ fwk.CycleState, p *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	r.log.cycleStart(p, r.handle.SnapshotSharedLister())
	return nil, nil
}

func (r *cycleRecorder) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

func (r *cycleRecorder) Reserve(_ context.Context, _ fwk.CycleState, p *v1.Pod, node string) *fwk.Status {
	r.log.add(CycleReserve, p, node)
	return nil
}

func (r *cycleRecorder) Unreserve(_ context.Context, _ fwk.CycleState, p *v1.Pod, node string) {
	r.log.add(CycleUnreserve, p, node)
}

// registry is the out-of-tree registry holding the recorder.
func (l *cycleLog) registry() frameworkruntime.Registry {
	return frameworkruntime.Registry{
		cycleRecorderName: func(_ context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return &cycleRecorder{log: l, handle: h}, nil
		},
	}
}

// withRecorder returns copies of profiles with the recorder enabled at
// PreFilter and Reserve. A plugin enabled at a specific extension point
// runs before the MultiPoint ones there; it neither filters nor scores,
// so the profiles decide as configured.
func withRecorder(profiles []kconfig.KubeSchedulerProfile) []kconfig.KubeSchedulerProfile {
	out := make([]kconfig.KubeSchedulerProfile, len(profiles))
	for i, p := range profiles {
		var plugins kconfig.Plugins
		if p.Plugins != nil {
			plugins = *p.Plugins.DeepCopy()
		}
		rec := kconfig.Plugin{Name: cycleRecorderName}
		plugins.PreFilter.Enabled = append(plugins.PreFilter.Enabled, rec)
		plugins.Reserve.Enabled = append(plugins.Reserve.Enabled, rec)
		p.Plugins = &plugins
		out[i] = p
	}
	return out
}
