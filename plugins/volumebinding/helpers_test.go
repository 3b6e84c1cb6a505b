package volumebinding

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

const (
	vbHostname = "kubernetes.io/hostname"
	vbNodeKey  = "topology.hostpath.csi/node"
	vbZone     = "topology.kubernetes.io/zone"
	vbRegion   = "topology.kubernetes.io/region"
)

var (
	vbImmediate = api.VolumeBindingImmediate
	vbWait      = api.VolumeBindingWaitForFirstConsumer
	vbTrue      = true

	// The classes and driver of upstream's TestVolumeBinding.
	immediateSC   = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "immediate-sc"}, VolumeBindingMode: &vbImmediate}
	waitSC        = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-sc"}, VolumeBindingMode: &vbWait}
	waitHDDSC     = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-hdd-sc"}, VolumeBindingMode: &vbWait}
	waitSCWithCap = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-sc-with-storage-capacity"},
		Provisioner: "driver-with-storage-capacity", VolumeBindingMode: &vbWait}
	driverWithCap = &api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: "driver-with-storage-capacity"},
		Spec: api.CSIDriverSpec{StorageCapacity: &vbTrue}}
)

type vbNode struct{ *api.Node }

func makeVBNode(name string) vbNode {
	return vbNode{&api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{vbHostname: name}}}}
}

func (b vbNode) label(k, v string) vbNode { b.Labels[k] = v; return b }

type vbPV struct{ *api.PersistentVolume }

func makePV(name, class string) vbPV {
	return vbPV{&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{StorageClassName: class}}}
}

// affinity sets a one-term required node affinity of In requirements.
func (b vbPV) affinity(kv ...string) vbPV {
	var exprs []api.NodeSelectorRequirement
	for i := 0; i+1 < len(kv); i += 2 {
		exprs = append(exprs, api.NodeSelectorRequirement{Key: kv[i], Operator: api.NodeSelectorOpIn, Values: []string{kv[i+1]}})
	}
	b.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: exprs}}}}
	return b
}

func (b vbPV) capacity(q string) vbPV {
	b.Spec.Capacity = api.ResourceList{api.ResourceStorage: resource.MustParse(q)}
	return b
}

func (b vbPV) phase(p api.PersistentVolumePhase) vbPV { b.Status.Phase = p; return b }

func (b vbPV) available() vbPV { return b.phase(api.VolumeAvailable) }

type vbPVC struct{ *api.PersistentVolumeClaim }

func makePVC(name, class string) vbPVC {
	return vbPVC{&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class}}}
}

func (b vbPVC) boundTo(pv string) vbPVC {
	b.Spec.VolumeName = pv
	b.annotate(api.AnnBindCompleted, "true")
	return b
}

func (b vbPVC) annotate(k, v string) vbPVC {
	if b.Annotations == nil {
		b.Annotations = map[string]string{}
	}
	b.Annotations[k] = v
	return b
}

func (b vbPVC) request(q string) vbPVC {
	b.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: resource.MustParse(q)}
	return b
}

func (b vbPVC) phase(p api.PersistentVolumeClaimPhase) vbPVC { b.Status.Phase = p; return b }

func makeVBPod(name string) vbPod {
	return vbPod{&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name}}}
}

// makeCapacity mirrors upstream's makeCapacity: the capacity of class
// reachable from nodes labelled vbNodeKey=node.
func makeCapacity(name, class, node, capacity, maxVolumeSize string) *api.CSIStorageCapacity {
	c := &api.CSIStorageCapacity{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "kube-system"}, StorageClassName: class,
		NodeTopology: &api.LabelSelector{MatchLabels: map[string]string{vbNodeKey: node}}}
	if capacity != "" {
		q := resource.MustParse(capacity)
		c.Capacity = &q
	}
	if maxVolumeSize != "" {
		q := resource.MustParse(maxVolumeSize)
		c.MaximumVolumeSize = &q
	}
	return c
}

// vbHandle is a framework.Handle over a snapshot.
type vbHandle struct{ s *cluster.Snapshot }

func (h vbHandle) Snapshot() *cluster.Snapshot { return h.s }

// vbSnapshot builds a snapshot of nodes holding upstream's four classes
// and driver and the given objects.
func vbSnapshot(nodes []*api.Node, objs ...any) (*cluster.Snapshot, error) {
	s, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		return nil, err
	}
	all := append([]any{immediateSC, waitSC, waitHDDSC, waitSCWithCap, driverWithCap}, objs...)
	if err := s.AddObjects(all...); err != nil {
		return nil, err
	}
	return s, nil
}

func gcePDVolume(labels map[string]string, na *api.VolumeNodeAffinity) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "gcepd", Labels: labels},
		Spec: api.PersistentVolumeSpec{NodeAffinity: na,
			PersistentVolumeSource: api.PersistentVolumeSource{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "disk"}}}}
}

type vbPod struct{ *api.Pod }

func (b vbPod) pvc(claim string) vbPod {
	b.Spec.Volumes = append(b.Spec.Volumes, api.Volume{Name: "v-" + claim,
		PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}})
	return b
}
