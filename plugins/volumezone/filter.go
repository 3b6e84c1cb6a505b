package volumezone

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const volumeZoneStateKey framework.StateKey = "PreFilter" + config.VolumeZoneName

// PreFilter stores the topology labels of the pod's bound volumes.
func (pl *VolumeZone) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if !hasClaimVolume(pod) {
		return nil, skipStatus
	}
	tops, st := predicates.VolumeZoneTopologies(objectsOf(pl.h), pod)
	if st != nil {
		return nil, st
	}
	if len(tops) == 0 {
		return nil, skipStatus
	}
	state.Write(volumeZoneStateKey, tops)
	return nil, nil
}

// hasClaimVolume reports whether the pod has a persistentVolumeClaim
// volume.
func hasClaimVolume(pod *api.Pod) bool {
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].PersistentVolumeClaim != nil {
			return true
		}
	}
	return false
}

// PreFilterExtensions returns nil.
func (pl *VolumeZone) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if its zone or region labels do not match the
// pod's bound volumes'.
func (pl *VolumeZone) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	var tops predicates.VolumeZoneState
	if d, ok := state.Read(volumeZoneStateKey); ok {
		tops, ok = d.(predicates.VolumeZoneState)
		if !ok {
			return framework.AsStatus(fmt.Errorf("unable to convert state into stateData"))
		}
	} else {
		// As upstream, without PreFilter's state the claims are
		// resolved here.
		var st *framework.Status
		if tops, st = predicates.VolumeZoneTopologies(objectsOf(pl.h), pod); st != nil {
			return st
		}
	}
	if !predicates.VolumeZoneFits(nodeInfo.Node(), tops) {
		return volumeZoneConflictStatus
	}
	return nil
}
