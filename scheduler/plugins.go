package scheduler

import (
	"context"
	"fmt"
	"maps"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Names of the queue-side plugins this package implements (plugin names
// are spelled once, in package framework/config).
const (
	PrioritySortName    = config.PrioritySortName
	SchedulingGatesName = config.SchedulingGatesName
	DefaultBinderName   = config.DefaultBinderName
)

// PrioritySort is kube-scheduler's QueueSort plugin: higher priority
// first, then earlier queue timestamp.
type PrioritySort struct{}

// Name returns "PrioritySort".
func (PrioritySort) Name() string { return PrioritySortName }

// Less reports whether a goes before b.
func (PrioritySort) Less(a, b *framework.QueuedPodInfo) bool {
	p1, p2 := a.Priority(), b.Priority()
	return p1 > p2 || (p1 == p2 && a.Timestamp.Before(b.Timestamp))
}

// SchedulingGates is kube-scheduler's PreEnqueue plugin that holds back
// pods with spec.schedulingGates.
type SchedulingGates struct{}

// Name returns "SchedulingGates".
func (SchedulingGates) Name() string { return SchedulingGatesName }

// PreEnqueue rejects a pod that has scheduling gates with
// UnschedulableAndUnresolvable "waiting for scheduling gates: [a b]".
func (SchedulingGates) PreEnqueue(_ context.Context, pod *api.Pod) *framework.Status {
	if len(pod.Spec.SchedulingGates) == 0 {
		return nil
	}
	gates := make([]string, 0, len(pod.Spec.SchedulingGates))
	for _, g := range pod.Spec.SchedulingGates {
		gates = append(gates, g.Name)
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("waiting for scheduling gates: %v", gates))
}

// EventsToRegister returns no cluster event: only removing the pod's
// gates (a new Add of the pod) admits it.
func (SchedulingGates) EventsToRegister() framework.ClusterEvent { return 0 }

// DefaultBinder stands for kube-scheduler's binder; it has no extension
// point here because Scheduler.Assume binds.
type DefaultBinder struct{}

// Name returns "DefaultBinder".
func (DefaultBinder) Name() string { return DefaultBinderName }

// DefaultRegistry returns the factories of the plugins this build has,
// under kube-scheduler's names. Add to it (or use WithPlugin) to make
// plugins of your own available to profiles.
func DefaultRegistry() framework.Registry {
	r := framework.Registry{
		PrioritySortName:    func(any, framework.Handle) (framework.Plugin, error) { return PrioritySort{}, nil },
		SchedulingGatesName: func(any, framework.Handle) (framework.Plugin, error) { return SchedulingGates{}, nil },
		DefaultBinderName:   func(any, framework.Handle) (framework.Plugin, error) { return DefaultBinder{}, nil },
	}
	maps.Copy(r, inTreeRegistry())
	return r
}

// defaultEvents are the events kube-scheduler's in-tree plugins register
// (EventsToRegister), coarsened to framework.ClusterEvent; used for those
// plugins when they do not implement framework.EnqueueExtensions.
var defaultEvents = map[string]framework.ClusterEvent{
	config.NodeNameName:           framework.NodeAdd,
	config.NodeUnschedulableName:  framework.NodeAdd | framework.NodeUpdate,
	config.TaintTolerationName:    framework.NodeAdd | framework.NodeUpdate,
	config.NodeAffinityName:       framework.NodeAdd | framework.NodeUpdate,
	config.NodePortsName:          framework.NodeAdd | framework.AssignedPodDelete,
	config.NodeResourcesFitName:   framework.NodeAdd | framework.NodeUpdate | framework.AssignedPodDelete | framework.AssignedPodUpdate,
	config.InterPodAffinityName:   framework.NodeAdd | framework.NodeUpdate | framework.AssignedPodAdd | framework.AssignedPodUpdate | framework.AssignedPodDelete,
	config.PodTopologySpreadName:  framework.NodeAdd | framework.NodeUpdate | framework.NodeDelete | framework.AssignedPodAdd | framework.AssignedPodUpdate | framework.AssignedPodDelete,
	config.VolumeRestrictionsName: framework.NodeAdd | framework.AssignedPodDelete,
	config.NodeVolumeLimitsName:   framework.AssignedPodDelete,
	config.VolumeBindingName:      framework.NodeAdd | framework.NodeUpdate,
	config.VolumeZoneName:         framework.NodeAdd | framework.NodeUpdate,
	config.DynamicResourcesName:   framework.NodeAdd | framework.NodeUpdate,
	"NodeDeclaredFeatures":        framework.NodeAdd | framework.NodeUpdate,
	config.SchedulingGatesName:    0,
}

// eventsOf returns the events that may make a pod rejected by plugin
// schedulable: the plugin's own registration, the in-tree default, or
// every event.
func eventsOf(prof *framework.Profile, plugin string) framework.ClusterEvent {
	if e, ok := prof.EventsOf(plugin); ok {
		return e
	}
	if e, ok := defaultEvents[plugin]; ok {
		return e
	}
	return framework.AllEvents
}
