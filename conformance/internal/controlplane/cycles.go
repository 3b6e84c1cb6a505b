package controlplane

import (
	"context"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	// CycleRemoved is a pod leaving the scheduler's informer (deleted, or
	// terminal): its room on Node is free from the next cycle on.
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
type cycleLog struct {
	mu     sync.Mutex
	cycles []Cycle
}

func (l *cycleLog) add(step CycleStep, p *v1.Pod, node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cycles = append(l.cycles, Cycle{Step: step, Namespace: p.Namespace, Name: p.Name, Node: node, At: time.Now()})
}

// Cycles returns the scheduler's cycles so far, in the order it ran them.
func (c *ControlPlane) Cycles() []Cycle {
	c.cycles.mu.Lock()
	defer c.cycles.mu.Unlock()
	return append([]Cycle(nil), c.cycles.cycles...)
}

// cycleRecorder is a PreFilter and Reserve plugin that decides nothing:
// it always succeeds and only writes the log.
type cycleRecorder struct{ log *cycleLog }

var (
	_ fwk.PreFilterPlugin = (*cycleRecorder)(nil)
	_ fwk.ReservePlugin   = (*cycleRecorder)(nil)
)

func (r *cycleRecorder) Name() string { return cycleRecorderName }

func (r *cycleRecorder) PreFilter(_ context.Context, _ fwk.CycleState, p *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	r.log.add(CycleStart, p, "")
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

// removed records a pod the scheduler's informer deleted. It runs as a
// handler of the informer that feeds the scheduler's cache, so it sees
// the removal when the cache does, before any cycle the removal wakes.
func (l *cycleLog) removed(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	if p, ok := obj.(*v1.Pod); ok {
		l.add(CycleRemoved, p, p.Spec.NodeName)
	}
}

// registry is the out-of-tree registry holding the recorder.
func (l *cycleLog) registry() frameworkruntime.Registry {
	return frameworkruntime.Registry{
		cycleRecorderName: func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
			return &cycleRecorder{log: l}, nil
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
