package nodevolumelimits

import (
	"context"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const volumeLimitsStateKey framework.StateKey = "PreFilter" + config.NodeVolumeLimitsName

// PreFilter resolves the pod's volumes once, or returns Skip.
func (pl *NodeVolumeLimits) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if !slices.ContainsFunc(pod.Spec.Volumes, func(v api.Volume) bool { return predicates.CountsVolume(&v) }) {
		return nil, skipStatus
	}
	state.Write(volumeLimitsStateKey, predicates.NewCachedVolumeLimitsState(objectsOf(pl.h), pod, &pl.attached))
	return nil, nil
}

// PreFilterExtensions returns nil.
func (pl *NodeVolumeLimits) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if the pod's volumes would exceed one of its
// CSI drivers' limits.
func (pl *NodeVolumeLimits) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	var s *predicates.VolumeLimitsState
	if d, ok := state.Read(volumeLimitsStateKey); ok {
		if s, ok = d.(*predicates.VolumeLimitsState); !ok {
			return framework.AsStatus(fmt.Errorf("%+v convert to nodevolumelimits state error", d))
		}
	} else {
		// Upstream keeps no state: without PreFilter, resolve here.
		s = predicates.NewCachedVolumeLimitsState(objectsOf(pl.h), pod, &pl.attached)
	}
	return s.Filter(nodeInfo)
}
