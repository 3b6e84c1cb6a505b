package predicates

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
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

const volumeZoneStateKey framework.StateKey = "PreFilter" + config.VolumeZoneName

// pvTopology is one topology label of a bound volume: its key and the
// zones (or regions) it allows.
type pvTopology struct {
	key    string
	values []string
}

// volumeZoneState is the topology labels of the pod's bound volumes.
type volumeZoneState []pvTopology

// Clone returns s: the state is never modified after PreFilter.
func (s volumeZoneState) Clone() framework.StateData { return s }

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

// volumeZoneTopologies resolves the pod's claims to their bound volumes'
// topology labels, or a rejection as upstream's getPVbyPod.
func volumeZoneTopologies(objs *cluster.Objects, pod *api.Pod) (volumeZoneState, *framework.Status) {
	var out volumeZoneState
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
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, claimNotFound(src.ClaimName))
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

// volumeZoneFits reports whether node's labels satisfy every topology: a
// node without any zone or region label fits; otherwise each topology's
// key (or its current form) must be a label of the node with one of the
// values.
func volumeZoneFits(node *api.Node, tops volumeZoneState) bool {
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
	tops, st := volumeZoneTopologies(objs, pod)
	if st != nil {
		return st
	}
	if !volumeZoneFits(nodeInfo.Node(), tops) {
		return volumeZoneConflictStatus
	}
	return nil
}

// VolumeZonePlugin is the VolumeZone plugin (classic name
// NoVolumeZoneConflict). PreFilter resolves the pod's claims to their
// bound volumes' zone and region labels (topology.kubernetes.io and the
// legacy failure-domain.beta.kubernetes.io ones), skipping
// WaitForFirstConsumer claims not yet bound, and rejecting the pod,
// UnschedulableAndUnresolvable, for a missing claim, volume or class, a
// class without a binding mode, or an unbound Immediate claim, with
// upstream's texts. It returns Skip when no bound volume carries such a
// label. Filter rejects nodes whose labels do not match,
// UnschedulableAndUnresolvable with ErrReasonVolumeZoneConflict; a node
// without any zone or region label matches.
type VolumeZonePlugin struct {
	h framework.Handle
}

var (
	_ framework.PreFilterPlugin = (*VolumeZonePlugin)(nil)
	_ framework.FilterPlugin    = (*VolumeZonePlugin)(nil)
)

// NewVolumeZone is the VolumeZone plugin factory; it takes no arguments.
// Objects are looked up in h's snapshot's object store.
func NewVolumeZone(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeZonePlugin{h: h}, nil
}

// Name returns config.VolumeZoneName.
func (*VolumeZonePlugin) Name() string { return config.VolumeZoneName }

// PreFilter stores the topology labels of the pod's bound volumes.
func (pl *VolumeZonePlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if !hasClaimVolume(pod) {
		return nil, skipStatus
	}
	tops, st := volumeZoneTopologies(objectsOf(pl.h), pod)
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
func (*VolumeZonePlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if its zone or region labels do not match the
// pod's bound volumes'.
func (pl *VolumeZonePlugin) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	var tops volumeZoneState
	if d, ok := state.Read(volumeZoneStateKey); ok {
		tops, ok = d.(volumeZoneState)
		if !ok {
			return framework.AsStatus(fmt.Errorf("unable to convert state into stateData"))
		}
	} else {
		// As upstream, without PreFilter's state the claims are
		// resolved here.
		var st *framework.Status
		if tops, st = volumeZoneTopologies(objectsOf(pl.h), pod); st != nil {
			return st
		}
	}
	if !volumeZoneFits(nodeInfo.Node(), tops) {
		return volumeZoneConflictStatus
	}
	return nil
}
