package volumerestrictions

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

const volumeRestrictionsStateKey framework.StateKey = "PreFilter" + config.VolumeRestrictionsName

// PreFilter looks up the pod's claims and counts the uses of its
// ReadWriteOncePod ones among the scheduled pods of nodes.
func (pl *VolumeRestrictions) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if len(pod.Spec.Volumes) == 0 {
		return nil, skipStatus
	}
	needsCheck := false
	var rwop []string
	var objs *cluster.Objects
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		needsCheck = needsCheck || predicates.HasRestrictedVolume(v)
		if v.PersistentVolumeClaim == nil {
			continue
		}
		if objs == nil {
			objs = objectsOf(pl.h)
		}
		name := v.PersistentVolumeClaim.ClaimName
		pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, name)
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ClaimNotFound(name))
		}
		if slices.Contains(pvc.Spec.AccessModes, api.ReadWriteOncePod) && !slices.Contains(rwop, pvc.Name) {
			rwop = append(rwop, pvc.Name)
		}
	}
	conflicts := 0
	for _, name := range rwop {
		if claimInUse(nodes, pod.Namespace+"/"+name) {
			conflicts++
		}
	}
	if !needsCheck && conflicts == 0 {
		return nil, skipStatus
	}
	state.Write(volumeRestrictionsStateKey, &volumeRestrictionsState{rwopClaims: rwop, conflicts: conflicts})
	return nil, nil
}

// claimInUse reports whether a pod on one of nodes uses the claim
// "namespace/name" (upstream's StorageInfos().IsPVCUsedByPods over the
// snapshot). It runs only for pods with ReadWriteOncePod claims.
func claimInUse(nodes []*cluster.NodeInfo, key string) bool {
	for _, ni := range nodes {
		if ni.PVCRefCounts[key] > 0 {
			return true
		}
	}
	return false
}

// PreFilterExtensions returns the plugin: AddPod and RemovePod keep the
// ReadWriteOncePod use count.
func (pl *VolumeRestrictions) PreFilterExtensions() framework.PreFilterExtensions { return pl }

func readVolumeRestrictionsState(state *framework.CycleState) (*volumeRestrictionsState, *framework.Status) {
	d, ok := state.Read(volumeRestrictionsStateKey)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("cannot read %q from cycleState", volumeRestrictionsStateKey))
	}
	s, ok := d.(*volumeRestrictionsState)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("%+v convert to volumerestrictions.state error", d))
	}
	return s, nil
}

// AddPod counts podToAdd's uses of the pod's ReadWriteOncePod claims.
func (pl *VolumeRestrictions) AddPod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToAdd *cluster.PodInfo, _ *cluster.NodeInfo) *framework.Status {
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	s.conflicts += s.usesOf(podToAdd.Pod)
	return nil
}

// RemovePod discounts podToRemove's uses of the pod's ReadWriteOncePod
// claims.
func (pl *VolumeRestrictions) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *cluster.PodInfo, _ *cluster.NodeInfo) *framework.Status {
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	s.conflicts -= s.usesOf(podToRemove.Pod)
	return nil
}

// Filter rejects the node on a disk conflict, and any node while one of
// the pod's ReadWriteOncePod claims is in use.
func (pl *VolumeRestrictions) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if !predicates.NoDiskConflict(pod, nodeInfo) {
		return diskConflictStatus
	}
	s, st := readVolumeRestrictionsState(state)
	if st != nil {
		return st
	}
	if s.conflicts > 0 {
		return rwopConflictStatus
	}
	return nil
}
