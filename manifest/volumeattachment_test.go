package manifest

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestReadVolumeAttachments reads VolumeAttachments alone and in a typed
// list into Objects and the snapshot's object store, indexed by node.
func TestReadVolumeAttachments(t *testing.T) {
	const in = `apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: va-0}
spec:
  attacher: ebs.csi.aws.com
  nodeName: n1
  source: {persistentVolumeName: pv-0}
status: {attached: true}
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachmentList
items:
- metadata: {name: va-1}
  spec:
    attacher: ebs.csi.aws.com
    nodeName: n1
    source:
      inlineVolumeSpec:
        csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
- metadata: {name: va-2}
  spec: {attacher: pd.csi.storage.gke.io, nodeName: n2, source: {persistentVolumeName: pv-2}}
---
kind: Node
apiVersion: v1
metadata: {name: n1}
`
	r := NewReader()
	if err := r.Read("in.yaml", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	objs := r.Objects()
	if len(objs.VolumeAttachments) != 3 {
		t.Fatalf("read %d VolumeAttachments", len(objs.VolumeAttachments))
	}
	va0 := objs.VolumeAttachments[0]
	if va0.Spec.Source.PersistentVolumeName == nil || *va0.Spec.Source.PersistentVolumeName != "pv-0" || !va0.Status.Attached {
		t.Errorf("va-0 = %+v", va0)
	}
	if s := objs.VolumeAttachments[1].Spec.Source.InlineVolumeSpec; s == nil || s.CSI == nil || s.CSI.VolumeHandle != "vol-1" {
		t.Errorf("va-1 inline spec = %+v", s)
	}
	if len(r.Report().Warnings) != 0 || len(r.Report().Skipped) != 0 {
		t.Errorf("report = %+v", r.Report())
	}
	c, err := NewCluster(objs, r.Report(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	store := c.Snapshot.Objects()
	if got := cluster.VolumeAttachmentsOnNode(store, "n1"); len(got) != 2 || got[0].Name != "va-0" || got[1].Name != "va-1" {
		t.Errorf("n1 attachments = %v", got)
	}
	if _, ok := cluster.GetObject[api.VolumeAttachment](store, "", "va-2"); !ok {
		t.Error("va-2 not in the store")
	}
}
