package api_test

import (
	"encoding/json"
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestDecodePersistentVolume decodes a `kubectl get pv -o json` document
// of a CSI volume with node affinity.
func TestDecodePersistentVolume(t *testing.T) {
	var pv api.PersistentVolume
	decode(t, "pv.json", &pv)
	wantEq(t, "name", pv.Name, "pvc-3f1c9a7e-52d4-4b0e-8d2a-6c1e9f0b7a21")
	wantEq(t, "provisioned-by", pv.Annotations[api.AnnDynamicallyProvisioned], "pd.csi.storage.gke.io")
	s := pv.Spec
	wantQuantity(t, "capacity", s.Capacity, api.ResourceStorage, "10Gi")
	wantEq(t, "access mode", s.AccessModes[0], api.ReadWriteOnce)
	if s.ClaimRef == nil || s.ClaimRef.Namespace+"/"+s.ClaimRef.Name != "shop/data-db-0" {
		t.Errorf("claimRef = %+v", s.ClaimRef)
	}
	if s.CSI == nil || s.CSI.Driver != "pd.csi.storage.gke.io" || s.CSI.FSType != "ext4" || len(s.CSI.VolumeAttributes) != 1 {
		t.Fatalf("csi = %+v", s.CSI)
	}
	wantEq(t, "volumeHandle", s.CSI.VolumeHandle, "projects/shop/zones/europe-west1-b/disks/pvc-3f1c9a7e")
	req := s.NodeAffinity.Required.NodeSelectorTerms[0].MatchExpressions[0]
	wantEq(t, "node affinity", req.Key+" "+string(req.Operator)+" "+req.Values[0], "topology.gke.io/zone In europe-west1-b")
	wantEq(t, "reclaim", s.PersistentVolumeReclaimPolicy, api.PersistentVolumeReclaimDelete)
	wantEq(t, "class", s.StorageClassName, "standard-rwo")
	if s.VolumeMode == nil || *s.VolumeMode != api.PersistentVolumeFilesystem {
		t.Errorf("volumeMode = %v", s.VolumeMode)
	}
	wantEq(t, "phase", pv.Status.Phase, api.VolumeBound)
	if pv.Status.LastPhaseTransitionTime == nil {
		t.Error("lastPhaseTransitionTime missing")
	}
}

// TestDecodePersistentVolumeClaim decodes a bound claim with the binder's
// annotations.
func TestDecodePersistentVolumeClaim(t *testing.T) {
	var pvc api.PersistentVolumeClaim
	decode(t, "pvc.json", &pvc)
	wantEq(t, "name", pvc.Namespace+"/"+pvc.Name, "shop/data-db-0")
	wantEq(t, "bind-completed", pvc.Annotations[api.AnnBindCompleted], "yes")
	wantEq(t, "selected-node", pvc.Annotations[api.AnnSelectedNode], "node-b-2")
	wantEq(t, "provisioner", pvc.Annotations[api.AnnStorageProvisioner], "pd.csi.storage.gke.io")
	s := pvc.Spec
	wantQuantity(t, "request", s.Resources.Requests, api.ResourceStorage, "10Gi")
	if s.StorageClassName == nil || *s.StorageClassName != "standard-rwo" {
		t.Errorf("storageClassName = %v", s.StorageClassName)
	}
	wantEq(t, "volumeName", s.VolumeName, "pvc-3f1c9a7e-52d4-4b0e-8d2a-6c1e9f0b7a21")
	if s.DataSource == nil || s.DataSource.APIGroup == nil || *s.DataSource.APIGroup != "snapshot.storage.k8s.io" || s.DataSource.Kind != "VolumeSnapshot" {
		t.Errorf("dataSource = %+v", s.DataSource)
	}
	if s.DataSourceRef == nil || s.DataSourceRef.Name != "db-nightly" || s.DataSourceRef.Namespace != nil {
		t.Errorf("dataSourceRef = %+v", s.DataSourceRef)
	}
	wantEq(t, "phase", pvc.Status.Phase, api.ClaimBound)
	wantQuantity(t, "status capacity", pvc.Status.Capacity, api.ResourceStorage, "10Gi")
}

// TestDecodeStorageClass decodes a default WaitForFirstConsumer class.
func TestDecodeStorageClass(t *testing.T) {
	var sc api.StorageClass
	decode(t, "storageclass.json", &sc)
	wantEq(t, "name", sc.Name, "standard-rwo")
	wantEq(t, "default", sc.Annotations[api.IsDefaultStorageClassAnnotation], "true")
	wantEq(t, "provisioner", sc.Provisioner, "pd.csi.storage.gke.io")
	wantEq(t, "parameter", sc.Parameters["type"], "pd-balanced")
	if sc.VolumeBindingMode == nil || *sc.VolumeBindingMode != api.VolumeBindingWaitForFirstConsumer {
		t.Errorf("volumeBindingMode = %v", sc.VolumeBindingMode)
	}
	if sc.ReclaimPolicy == nil || *sc.ReclaimPolicy != api.PersistentVolumeReclaimDelete {
		t.Errorf("reclaimPolicy = %v", sc.ReclaimPolicy)
	}
	if sc.AllowVolumeExpansion == nil || !*sc.AllowVolumeExpansion {
		t.Errorf("allowVolumeExpansion = %v", sc.AllowVolumeExpansion)
	}
	req := sc.AllowedTopologies[0].MatchLabelExpressions[0]
	wantEq(t, "topology", req.Key, "topology.gke.io/zone")
	wantEq(t, "topology values", len(req.Values), 2)
}

// TestDecodeStatefulSet decodes a stateful set with claim templates and
// a template using configMap, ephemeral and projected volumes.
func TestDecodeStatefulSet(t *testing.T) {
	var ss api.StatefulSet
	decode(t, "statefulset.json", &ss)
	s := ss.Spec
	if s.Replicas == nil || *s.Replicas != 3 {
		t.Errorf("replicas = %v", s.Replicas)
	}
	wantEq(t, "serviceName", s.ServiceName, "db")
	wantEq(t, "podManagementPolicy", s.PodManagementPolicy, api.ParallelPodManagement)
	if s.Ordinals == nil || s.Ordinals.Start != 1 {
		t.Errorf("ordinals = %+v", s.Ordinals)
	}
	wantEq(t, "selector", s.Selector.MatchLabels["app"], "db")
	wantEq(t, "template label", s.Template.Labels["app"], "db")
	wantQuantity(t, "template requests", s.Template.Spec.Containers[0].Resources.Requests, api.ResourceMemory, "1Gi")
	vols := s.Template.Spec.Volumes
	if len(vols) != 3 || vols[0].ConfigMap == nil || vols[1].Ephemeral == nil || vols[2].Projected == nil {
		t.Fatalf("volumes = %+v", vols)
	}
	wantEq(t, "configMap name", vols[0].ConfigMap.Name, "db-config")
	if vols[0].ConfigMap.DefaultMode == nil || *vols[0].ConfigMap.DefaultMode != 420 {
		t.Errorf("configMap defaultMode = %v", vols[0].ConfigMap.DefaultMode)
	}
	eph := vols[1].Ephemeral.VolumeClaimTemplate
	wantEq(t, "ephemeral access mode", eph.Spec.AccessModes[0], api.ReadWriteOncePod)
	wantEq(t, "ephemeral label", eph.Labels["kind"], "scratch")
	wantEq(t, "projected secret", vols[2].Projected.Sources[0].Secret.Name, "db-tls")
	wantEq(t, "projected token", vols[2].Projected.Sources[1].ServiceAccountToken.Path, "token")
	ct := s.VolumeClaimTemplates[0]
	wantEq(t, "claim template", ct.Name, "data")
	wantQuantity(t, "claim template request", ct.Spec.Resources.Requests, api.ResourceStorage, "10Gi")
	wantEq(t, "status ready", ss.Status.ReadyReplicas, int32(3))
	wantEq(t, "status revision", ss.Status.UpdateRevision, "db-6c9f8d7b5")
}

// TestDecodeResourceQuota decodes a scoped quota.
func TestDecodeResourceQuota(t *testing.T) {
	var rq api.ResourceQuota
	decode(t, "resourcequota.json", &rq)
	wantEq(t, "name", rq.Namespace+"/"+rq.Name, "shop/shop-high")
	wantQuantity(t, "hard", rq.Spec.Hard, "requests.cpu", "20")
	wantQuantity(t, "hard", rq.Spec.Hard, "count/deployments.apps", "10")
	wantEq(t, "scope", rq.Spec.Scopes[0], api.ResourceQuotaScopeNotBestEffort)
	e := rq.Spec.ScopeSelector.MatchExpressions[0]
	wantEq(t, "scope selector", string(e.ScopeName)+" "+string(e.Operator)+" "+e.Values[0], "PriorityClass In shop-critical")
	wantQuantity(t, "used", rq.Status.Used, "requests.cpu", "3250m")
}

// TestDecodeCSINode decodes a CSINode with and without a volume limit.
func TestDecodeCSINode(t *testing.T) {
	var n api.CSINode
	decode(t, "csinode.json", &n)
	wantEq(t, "name", n.Name, "node-b-2")
	if len(n.Spec.Drivers) != 2 {
		t.Fatalf("drivers = %+v", n.Spec.Drivers)
	}
	d := n.Spec.Drivers[0]
	wantEq(t, "driver", d.Name, "pd.csi.storage.gke.io")
	wantEq(t, "topologyKeys", d.TopologyKeys[0], "topology.gke.io/zone")
	if d.Allocatable == nil || d.Allocatable.Count == nil || *d.Allocatable.Count != 15 {
		t.Errorf("allocatable = %+v", d.Allocatable)
	}
	if n.Spec.Drivers[1].Allocatable != nil || n.Spec.Drivers[1].TopologyKeys != nil {
		t.Errorf("second driver = %+v", n.Spec.Drivers[1])
	}
}

// TestDecodeService decodes a NodePort service with named and numbered
// target ports.
func TestDecodeService(t *testing.T) {
	var s api.Service
	decode(t, "service.json", &s)
	wantEq(t, "type", s.Spec.Type, api.ServiceTypeNodePort)
	wantEq(t, "selector", s.Spec.Selector["app.kubernetes.io/name"], "web")
	wantEq(t, "clusterIP", s.Spec.ClusterIP, "10.96.14.7")
	p := s.Spec.Ports
	wantEq(t, "nodePort", p[0].NodePort, int32(30080))
	wantEq(t, "targetPort name", p[0].TargetPort, api.FromString("http"))
	wantEq(t, "targetPort number", p[1].TargetPort, api.FromInt(9090))
	wantEq(t, "protocol", p[1].Protocol, api.ProtocolTCP)
}

// TestObjectsJSONRoundTrip: each sample decodes, encodes and decodes to
// the same encoding.
func TestObjectsJSONRoundTrip(t *testing.T) {
	for _, c := range []struct {
		file string
		obj  func() any
	}{
		{"pv.json", func() any { return new(api.PersistentVolume) }},
		{"pvc.json", func() any { return new(api.PersistentVolumeClaim) }},
		{"storageclass.json", func() any { return new(api.StorageClass) }},
		{"statefulset.json", func() any { return new(api.StatefulSet) }},
		{"resourcequota.json", func() any { return new(api.ResourceQuota) }},
		{"csinode.json", func() any { return new(api.CSINode) }},
		{"service.json", func() any { return new(api.Service) }},
		{"node.json", func() any { return new(api.Node) }},
		{"limitrange.json", func() any { return new(api.LimitRange) }},
		{"pdb.json", func() any { return new(api.PodDisruptionBudget) }},
		{"priorityclass.json", func() any { return new(api.PriorityClass) }},
	} {
		t.Run(c.file, func(t *testing.T) {
			first := c.obj()
			decode(t, c.file, first)
			b, err := json.Marshal(first)
			if err != nil {
				t.Fatal(err)
			}
			second := c.obj()
			if err := json.Unmarshal(b, second); err != nil {
				t.Fatal(err)
			}
			b2, err := json.Marshal(second)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != string(b2) {
				t.Errorf("round trip differs:\n%s\n%s", b, b2)
			}
		})
	}
}

// TestDecodeVolumeAttachment decodes an attached CSI volume's
// VolumeAttachment, as the external attacher leaves it.
func TestDecodeVolumeAttachment(t *testing.T) {
	var va api.VolumeAttachment
	decode(t, "volumeattachment.json", &va)
	wantEq(t, "attacher", va.Spec.Attacher, "pd.csi.storage.gke.io")
	wantEq(t, "nodeName", va.Spec.NodeName, "node-b-2")
	if pv := va.Spec.Source.PersistentVolumeName; pv == nil || *pv != "pvc-3f1c9a7e-52d4-4b0e-8d2a-6c1e9f0b7a21" {
		t.Errorf("persistentVolumeName = %v", pv)
	}
	if va.Spec.Source.InlineVolumeSpec != nil {
		t.Errorf("inlineVolumeSpec = %+v", va.Spec.Source.InlineVolumeSpec)
	}
	wantEq(t, "attached", va.Status.Attached, true)
	wantEq(t, "devicePath", va.Status.AttachmentMetadata["devicePath"], "/dev/disk/by-id/google-pvc-3f1c9a7e")
	if e := va.Status.DetachError; e == nil || e.ErrorCode == nil || *e.ErrorCode != 14 || e.Message != "rpc error: code = Unavailable" || e.Time.IsZero() {
		t.Errorf("detachError = %+v", e)
	}
	var inline api.VolumeAttachment
	if err := json.Unmarshal([]byte(`{"spec":{"attacher":"ebs.csi.aws.com","nodeName":"n","source":{"inlineVolumeSpec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}}}}}`), &inline); err != nil {
		t.Fatal(err)
	}
	if s := inline.Spec.Source.InlineVolumeSpec; s == nil || s.CSI == nil || s.CSI.VolumeHandle != "vol-1" {
		t.Errorf("inlineVolumeSpec = %+v", s)
	}
}
