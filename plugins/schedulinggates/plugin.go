package schedulinggates

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.SchedulingGatesName

// SchedulingGates is kube-scheduler's PreEnqueue plugin that holds back
// pods with spec.schedulingGates.
type SchedulingGates struct{}

var (
	_ framework.PreEnqueuePlugin  = SchedulingGates{}
	_ framework.EnqueueExtensions = SchedulingGates{}
)

// New is the SchedulingGates factory. SchedulingGates takes no arguments.
func New(_ any, _ framework.Handle) (framework.Plugin, error) { return SchedulingGates{}, nil }

// Name returns "SchedulingGates".
func (pl SchedulingGates) Name() string { return Name }

// PreEnqueue rejects a pod that has scheduling gates with
// UnschedulableAndUnresolvable "waiting for scheduling gates: [a b]".
func (pl SchedulingGates) PreEnqueue(_ context.Context, pod *api.Pod) *framework.Status {
	if len(pod.Spec.SchedulingGates) == 0 {
		return nil
	}
	gates := make([]string, 0, len(pod.Spec.SchedulingGates))
	for _, g := range pod.Spec.SchedulingGates {
		gates = append(gates, g.Name)
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("waiting for scheduling gates: %v", gates))
}

// EventsToRegister returns no cluster event. Only removing the pod's
// gates, a new Add of the pod, admits it.
func (pl SchedulingGates) EventsToRegister() framework.ClusterEvent { return 0 }
