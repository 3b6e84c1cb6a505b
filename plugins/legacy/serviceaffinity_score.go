package legacy

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const serviceAntiAffinityStateKey framework.StateKey = "PreScore" + config.ServiceAffinityName

// serviceAntiAffinityState is the selector of the pod's service and the
// view nodes are looked up in.
type serviceAntiAffinityState struct {
	selector map[string]string
	view     *cluster.View
}

// Clone returns s: the state is never modified after PreScore.
func (s *serviceAntiAffinityState) Clone() framework.StateData { return s }

// newState reads the snapshot's current view (an empty one without a
// handle) and the pod's service selector in it.
func (pl *ServiceAffinity) newState(pod *api.Pod) *serviceAntiAffinityState {
	var v *cluster.View
	if pl.h != nil && pl.h.Snapshot() != nil {
		v = pl.h.Snapshot().View()
	} else {
		s, _ := cluster.NewSnapshot(nil, nil)
		v = s.View()
	}
	return &serviceAntiAffinityState{selector: priorities.ServiceSelector(v.Objects(), pod), view: v}
}

func (pl *ServiceAffinity) state(state *framework.CycleState, pod *api.Pod) *serviceAntiAffinityState {
	if d, ok := state.Read(serviceAntiAffinityStateKey); ok {
		if s, ok := d.(*serviceAntiAffinityState); ok {
			return s
		}
	}
	// Without PreScore (a profile that enables only Score), the
	// service is looked up for each node, as upstream does.
	return pl.newState(pod)
}

// PreScore finds the selector of the pod's first service.
func (pl *ServiceAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	state.Write(serviceAntiAffinityStateKey, pl.newState(pod))
	return nil
}

// Score counts the node's pods of the pod's service.
func (pl *ServiceAffinity) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	if nodeInfo.Node() == nil {
		return 0, framework.AsStatus(fmt.Errorf("node not found"))
	}
	return priorities.ServiceAntiAffinity(pl.state(state, pod).selector, pod, nodeInfo), nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *ServiceAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore is NormalizeServiceAntiAffinity over the plugin's
// antiAffinityLabelsPreference.
func (pl *ServiceAffinity) NormalizeScore(_ context.Context, state *framework.CycleState, pod *api.Pod, scores framework.NodeScoreList) *framework.Status {
	if err := priorities.NormalizeServiceAntiAffinity(pl.state(state, pod).view, pl.args.AntiAffinityLabelsPreference, scores); err != nil {
		return framework.AsStatus(err)
	}
	return nil
}
