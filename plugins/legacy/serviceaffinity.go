package legacy

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const serviceAffinityStateKey framework.StateKey = "PreFilter" + config.ServiceAffinityName

// ServiceAffinity is the ServiceAffinity plugin, removed upstream in
// v1.23, with v1.22's semantics. Its score half spreads a service's pods
// over the affinity labels' values (ServiceAntiAffinity). PreFilter lists
// the services selecting the pod and the pods of its namespace that
// carry all its labels; Filter (see predicates.ServiceAffinity) keeps the pods of a
// service on nodes with equal values of the affinity labels. Without
// affinity labels PreFilter returns Skip.
type ServiceAffinity struct {
	args *config.ServiceAffinityArgs
	h    framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*ServiceAffinity)(nil)
	_ framework.PreFilterExtensions = (*ServiceAffinity)(nil)
	_ framework.FilterPlugin        = (*ServiceAffinity)(nil)
	_ framework.PreScorePlugin      = (*ServiceAffinity)(nil)
	_ framework.ScorePlugin         = (*ServiceAffinity)(nil)
	_ framework.ScoreExtensions     = (*ServiceAffinity)(nil)
)

// NewServiceAffinity is the ServiceAffinity filter factory; args are
// config.ServiceAffinityArgs. Pods, nodes and services are read from h's
// snapshot.
func NewServiceAffinity(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.ServiceAffinityArgs](args)
	if err != nil {
		return nil, err
	}
	return &ServiceAffinity{args: a, h: h}, nil
}

// Name returns config.ServiceAffinityName.
func (pl *ServiceAffinity) Name() string { return config.ServiceAffinityName }

// view returns the snapshot's current view (an empty one without a
// handle).
func (pl *ServiceAffinity) view() *cluster.View {
	if pl.h != nil {
		if s := pl.h.Snapshot(); s != nil {
			return s.View()
		}
	}
	s, _ := cluster.NewSnapshot(nil, nil)
	return s.View()
}

// PreFilter computes the pod's services and peers.
func (pl *ServiceAffinity) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if len(pl.args.AffinityLabels) == 0 {
		return nil, skipStatus
	}
	state.Write(serviceAffinityStateKey, predicates.NewServiceAffinityState(pl.view(), pl.args.AffinityLabels, pod))
	return nil, nil
}

// PreFilterExtensions returns the plugin, or nil without affinity
// labels.
func (pl *ServiceAffinity) PreFilterExtensions() framework.PreFilterExtensions {
	if len(pl.args.AffinityLabels) == 0 {
		return nil
	}
	return pl
}

func readServiceAffinityState(state *framework.CycleState) (*predicates.ServiceAffinityState, *framework.Status) {
	d, ok := state.Read(serviceAffinityStateKey)
	if !ok {
		return nil, serviceAffinityStateMissing
	}
	s, ok := d.(*predicates.ServiceAffinityState)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("%+v  convert to interpodaffinity.state error", d))
	}
	return s, nil
}

// AddPod adds podToAdd to the peers if it is in the pod's namespace and
// carries all the pod's labels. Its node is the one it runs on if the
// snapshot holds it there, else its spec.nodeName (empty for a
// nominated pod, as upstream reads it).
func (pl *ServiceAffinity) AddPod(_ context.Context, state *framework.CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, st := readServiceAffinityState(state)
	if st != nil {
		return st
	}
	s.AddPod(podToSchedule, podToAdd, nodeInfo)
	return nil
}

// RemovePod removes the first peer with podToRemove's namespace and
// name.
func (pl *ServiceAffinity) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *cluster.PodInfo, _ *cluster.NodeInfo) *framework.Status {
	s, st := readServiceAffinityState(state)
	if st != nil {
		return st
	}
	s.RemovePod(podToRemove)
	return nil
}

// Filter is ServiceAffinity with PreFilter's state; without it, an
// error, as upstream.
func (pl *ServiceAffinity) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(pl.args.AffinityLabels) == 0 {
		return nil
	}
	if nodeInfo.Node() == nil {
		return serviceAffinityNoNode
	}
	s, st := readServiceAffinityState(state)
	if st != nil {
		return st
	}
	return s.Filter(pl.args.AffinityLabels, pod, nodeInfo)
}

var (
	serviceAffinityStateMissing = framework.AsStatus(fmt.Errorf("error reading %q from cycleState: not found", serviceAffinityStateKey))
	serviceAffinityNoNode       = framework.AsStatus(errors.New("node not found"))
)

var skipStatus = framework.NewStatus(framework.Skip)
