package clustergen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// VolumeCase is a scenario for the VolumeBinding plugin: nodes, the
// storage objects of the object store, and a pod whose volumes use some
// of the claims.
type VolumeCase struct {
	// Nodes carry LabelHostname and LabelZone.
	Nodes []*api.Node
	// Objects are StorageClasses, a CSIDriver, PersistentVolumes,
	// PersistentVolumeClaims (namespace "default") and
	// CSIStorageCapacities, ready for Snapshot.AddObjects.
	Objects []any
	// Pod is in namespace "default", with persistentVolumeClaim volumes
	// and sometimes an emptyDir or a generic ephemeral volume.
	Pod *api.Pod
}

// Names of the classes VolumeCase draws from.
const (
	// VolumeClassWait binds on first consumer and is provisioned by a CSI
	// driver that tracks capacity (CSIStorageCapacity per zone).
	VolumeClassWait = "wffc-csi"
	// VolumeClassWaitUntracked binds on first consumer, provisioned by a
	// driver without capacity tracking, possibly in some zones only.
	VolumeClassWaitUntracked = "wffc-plain"
	// VolumeClassLocal binds on first consumer and cannot be provisioned.
	VolumeClassLocal = "wffc-local"
	// VolumeClassImmediate binds at once.
	VolumeClassImmediate = "immediate"
)

var volumeClasses = []string{VolumeClassWait, VolumeClassWaitUntracked, VolumeClassLocal, VolumeClassImmediate, "missing-class"}

// VolumeBindingCase draws a VolumeCase with up to maxNodes nodes (at
// least 1). Volumes of one class have distinct capacities and each zone
// has at most one capacity object per class, so that no choice
// kube-scheduler leaves to map order matters.
func VolumeBindingCase(maxNodes int) *rapid.Generator[VolumeCase] {
	return rapid.Custom(func(t *rapid.T) VolumeCase {
		var c VolumeCase
		n := rapid.IntRange(1, max(1, maxNodes)).Draw(t, "nodes")
		for i := range n {
			name := fmt.Sprintf("node-%d", i)
			labels := map[string]string{LabelHostname: name}
			if rapid.IntRange(0, 5).Draw(t, "zoneless") != 0 {
				labels[LabelZone] = rapid.SampledFrom(Zones).Draw(t, "zone")
			}
			c.Nodes = append(c.Nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
				Status: api.NodeStatus{Allocatable: api.ResourceList{api.ResourcePods: quantity.MustParse("110")}}})
		}
		wait, imm := api.VolumeBindingWaitForFirstConsumer, api.VolumeBindingImmediate
		tracked := rapid.IntRange(0, 3).Draw(t, "tracked") != 0
		untracked := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: VolumeClassWaitUntracked}, Provisioner: "plain.csi.example.com", VolumeBindingMode: &wait}
		if rapid.Bool().Draw(t, "allowedTopologies") {
			zones := rapid.SliceOfNDistinct(rapid.SampledFrom(Zones), 1, 2, rapid.ID[string]).Draw(t, "allowedZones")
			untracked.AllowedTopologies = []api.TopologySelectorTerm{{MatchLabelExpressions: []api.TopologySelectorLabelRequirement{{Key: LabelZone, Values: zones}}}}
		}
		c.Objects = append(c.Objects,
			&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: VolumeClassWait}, Provisioner: "tracked.csi.example.com", VolumeBindingMode: &wait},
			untracked,
			&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: VolumeClassLocal}, Provisioner: "kubernetes.io/no-provisioner", VolumeBindingMode: &wait},
			&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: VolumeClassImmediate}, Provisioner: "tracked.csi.example.com", VolumeBindingMode: &imm},
			&api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: "tracked.csi.example.com"}, Spec: api.CSIDriverSpec{StorageCapacity: &tracked}},
		)
		// Capacities: at most one per zone for the tracked class.
		for i, z := range Zones {
			if !rapid.Bool().Draw(t, "hasCapacity") {
				continue
			}
			gi := rapid.IntRange(0, 200).Draw(t, "capacityGi")
			q := quantity.MustParse(fmt.Sprintf("%dGi", gi))
			capObj := &api.CSIStorageCapacity{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cap-%d", i), Namespace: "kube-system"},
				StorageClassName: VolumeClassWait, Capacity: &q,
				NodeTopology: &api.LabelSelector{MatchLabels: map[string]string{LabelZone: z}}}
			if rapid.IntRange(0, 3).Draw(t, "hasMaxSize") == 0 {
				m := quantity.MustParse(fmt.Sprintf("%dGi", rapid.IntRange(0, gi).Draw(t, "maxGi")))
				capObj.MaximumVolumeSize = &m
			}
			c.Objects = append(c.Objects, capObj)
		}
		// Volumes: distinct sizes within a class.
		usedSize := map[string]map[int]bool{}
		var pvNames []string
		for i := range rapid.IntRange(0, 8).Draw(t, "volumes") {
			class := rapid.SampledFrom([]string{VolumeClassLocal, VolumeClassWait, VolumeClassWaitUntracked, VolumeClassImmediate}).Draw(t, "pvClass")
			if usedSize[class] == nil {
				usedSize[class] = map[int]bool{}
			}
			gi := rapid.IntRange(1, 64).Filter(func(g int) bool { return !usedSize[class][g] }).Draw(t, "pvGi")
			usedSize[class][gi] = true
			name := fmt.Sprintf("pv-%d", i)
			pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{
				StorageClassName: class,
				Capacity:         api.ResourceList{api.ResourceStorage: quantity.MustParse(fmt.Sprintf("%dGi", gi))},
				AccessModes:      accessModes(t),
			}, Status: api.PersistentVolumeStatus{Phase: rapid.SampledFrom([]api.PersistentVolumePhase{api.VolumeAvailable, api.VolumeAvailable, api.VolumeAvailable, api.VolumeReleased}).Draw(t, "phase")}}
			switch rapid.IntRange(0, 3).Draw(t, "pvAffinity") {
			case 1:
				pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
					MatchExpressions: []api.NodeSelectorRequirement{{Key: LabelZone, Operator: api.NodeSelectorOpIn, Values: []string{rapid.SampledFrom(Zones).Draw(t, "pvZone")}}}}}}}
			case 2:
				pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
					MatchExpressions: []api.NodeSelectorRequirement{{Key: LabelHostname, Operator: api.NodeSelectorOpIn,
						Values: []string{fmt.Sprintf("node-%d", rapid.IntRange(0, n-1).Draw(t, "pvNode"))}}}}}}}
			}
			if rapid.IntRange(0, 3).Draw(t, "pvLabelled") == 0 {
				pv.Labels = map[string]string{"tier": rapid.SampledFrom([]string{"gold", "silver"}).Draw(t, "tier")}
			}
			if rapid.IntRange(0, 5).Draw(t, "block") == 0 {
				m := api.PersistentVolumeBlock
				pv.Spec.VolumeMode = &m
			}
			c.Objects = append(c.Objects, pv)
			pvNames = append(pvNames, name)
		}
		// Claims.
		var claims []string
		for i := range rapid.IntRange(0, 4).Draw(t, "claims") {
			name := fmt.Sprintf("claim-%d", i)
			class := rapid.SampledFrom(volumeClasses).Draw(t, "claimClass")
			pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
				Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, AccessModes: accessModes(t)}}
			if rapid.IntRange(0, 5).Draw(t, "noRequest") != 0 {
				pvc.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: quantity.MustParse(fmt.Sprintf("%dGi", rapid.IntRange(1, 64).Draw(t, "claimGi")))}
			}
			switch rapid.IntRange(0, 5).Draw(t, "claimState") {
			case 0: // bound
				if len(pvNames) > 0 {
					pvc.Spec.VolumeName = rapid.SampledFrom(append(pvNames, "pv-missing")).Draw(t, "boundTo")
					pvc.Annotations = map[string]string{api.AnnBindCompleted: "yes"}
				}
			case 1: // selected node
				pvc.Annotations = map[string]string{api.AnnSelectedNode: fmt.Sprintf("node-%d", rapid.IntRange(0, n-1).Draw(t, "selected"))}
			case 2: // selector
				pvc.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"tier": rapid.SampledFrom([]string{"gold", "silver"}).Draw(t, "wantTier")}}
			}
			if rapid.IntRange(0, 7).Draw(t, "claimBlock") == 0 {
				m := api.PersistentVolumeBlock
				pvc.Spec.VolumeMode = &m
			}
			c.Objects = append(c.Objects, pvc)
			claims = append(claims, name)
		}
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod", Namespace: "default", UID: "uid-pod"}}
		pod.Spec.Containers = []api.Container{{Name: "c", Image: "busybox"}}
		for i := range rapid.IntRange(0, 3).Draw(t, "podVolumes") {
			vol := api.Volume{Name: fmt.Sprintf("vol-%d", i)}
			switch k := rapid.IntRange(0, 9).Draw(t, "volumeKind"); {
			case k == 0:
				vol.EmptyDir = &api.EmptyDirVolumeSource{}
			case k == 1:
				vol.Ephemeral = &api.EphemeralVolumeSource{}
			case k == 2 || len(claims) == 0:
				vol.PersistentVolumeClaim = &api.PersistentVolumeClaimVolumeSource{ClaimName: "claim-missing"}
			default:
				vol.PersistentVolumeClaim = &api.PersistentVolumeClaimVolumeSource{ClaimName: rapid.SampledFrom(claims).Draw(t, "podClaim")}
			}
			pod.Spec.Volumes = append(pod.Spec.Volumes, vol)
		}
		c.Pod = pod
		return c
	})
}
