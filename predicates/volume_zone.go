package predicates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// ErrReasonVolumeZoneConflict is VolumeZone's reason, as upstream's
// volumezone.ErrReasonConflict (the classic NoVolumeZoneConflict
// predicate).
const ErrReasonVolumeZoneConflict = "node(s) had no available volume zone"

// Topology labels VolumeZone matches, current and legacy.
const (
	LabelTopologyZone            = "topology.kubernetes.io/zone"
	LabelTopologyRegion          = "topology.kubernetes.io/region"
	LabelFailureDomainBetaZone   = "failure-domain.beta.kubernetes.io/zone"
	LabelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region"
)

// volumeZoneLabels are the PV labels VolumeZone reads, in upstream's
// order.
var volumeZoneLabels = [...]string{LabelFailureDomainBetaZone, LabelFailureDomainBetaRegion, LabelTopologyZone, LabelTopologyRegion}

// multiZoneDelimiter separates the zones of a multi-zone PV label.
const multiZoneDelimiter = "__"

var volumeZoneConflictStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonVolumeZoneConflict)

// pvTopology is one topology label of a bound volume: its key and the
// zones (or regions) it allows.
type pvTopology struct {
	key    string
	values []string
}

// VolumeZoneState is the topology labels of the pod's bound volumes.
type VolumeZoneState []pvTopology

// Clone returns s: the state is never modified after PreFilter.
func (s VolumeZoneState) Clone() framework.StateData { return s }

// labelZones splits a PV's zone label value ("a__b") into its zones,
// trimmed; ok is false if one is empty (upstream then ignores the label).
func labelZones(value string) (zones []string, ok bool) {
	for z := range strings.SplitSeq(value, multiZoneDelimiter) {
		z = strings.TrimSpace(z)
		if z == "" {
			return nil, false
		}
		if !slices.Contains(zones, z) {
			zones = append(zones, z)
		}
	}
	return zones, true
}

// pvTopologies appends the topology labels of pv VolumeZone matches:
// for each of the legacy zone and region and the current zone and region
// labels pv carries, the key and its values (a "__"-separated list;
// a value with an empty element is ignored, as upstream ignores it).
func pvTopologies(pv *api.PersistentVolume, out []pvTopology) []pvTopology {
	for _, key := range volumeZoneLabels {
		value, ok := pv.Labels[key]
		if !ok {
			continue
		}
		if zones, ok := labelZones(value); ok {
			out = append(out, pvTopology{key: key, values: zones})
		}
	}
	return out
}

// gaLabel returns the current label for a legacy topology key.
func gaLabel(key string) string {
	switch key {
	case LabelFailureDomainBetaRegion:
		return LabelTopologyRegion
	case LabelFailureDomainBetaZone:
		return LabelTopologyZone
	}
	return key
}

// claimClass is the claim's storage class as the volume helpers read it:
// the beta annotation first, then spec.storageClassName; "" is none.
func claimClass(pvc *api.PersistentVolumeClaim) string {
	if c, ok := pvc.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	if pvc.Spec.StorageClassName != nil {
		return *pvc.Spec.StorageClassName
	}
	return ""
}

// VolumeZoneTopologies resolves the pod's claims to their bound volumes'
// topology labels, or a rejection as upstream's getPVbyPod.
func VolumeZoneTopologies(objs *cluster.Objects, pod *api.Pod) (VolumeZoneState, *framework.Status) {
	var out VolumeZoneState
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		if src.ClaimName == "" {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no name")
		}
		pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, src.ClaimName)
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ClaimNotFound(src.ClaimName))
		}
		if pvc.Spec.VolumeName == "" {
			sc := claimClass(pvc)
			if sc == "" {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no pv name and storageClass name")
			}
			class, ok := cluster.GetObject[api.StorageClass](objs, "", sc)
			if !ok {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("storageclass.storage.k8s.io %q not found", sc))
			}
			if class.VolumeBindingMode == nil {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("VolumeBindingMode not set for StorageClass %q", sc))
			}
			if *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer {
				continue
			}
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolume had no name")
		}
		pv, ok := cluster.GetObject[api.PersistentVolume](objs, "", pvc.Spec.VolumeName)
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolume %q not found", pvc.Spec.VolumeName))
		}
		out = pvTopologies(pv, out)
	}
	return out, nil
}

// VolumeZoneFits reports whether node's labels satisfy every topology: a
// node without any zone or region label fits; otherwise each topology's
// key (or its current form) must be a label of the node with one of the
// values.
func VolumeZoneFits(node *api.Node, tops VolumeZoneState) bool {
	if node == nil {
		return true
	}
	constrained := false
	for _, k := range volumeZoneLabels {
		if _, ok := node.Labels[k]; ok {
			constrained = true
			break
		}
	}
	if !constrained {
		return true
	}
	for _, t := range tops {
		v, ok := node.Labels[t.key]
		if !ok {
			v, ok = node.Labels[gaLabel(t.key)]
		}
		if !ok || !slices.Contains(t.values, v) {
			return false
		}
	}
	return true
}

// VolumeZone is the VolumeZone filter as a plain function (the classic
// NoVolumeZoneConflict predicate), looking the pod's claims, volumes and
// classes up in objs: nil if the node's zone and region labels match
// those of every volume bound to the pod's claims, else
// UnschedulableAndUnresolvable with ErrReasonVolumeZoneConflict, or the
// PreFilter rejection of a missing or unbound claim.
func VolumeZone(objs *cluster.Objects, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	tops, st := VolumeZoneTopologies(objs, pod)
	if st != nil {
		return st
	}
	if !VolumeZoneFits(nodeInfo.Node(), tops) {
		return volumeZoneConflictStatus
	}
	return nil
}
