package nodevolumelimits

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// upstream: TestCSILimits (rows)
func TestNodeVolumeLimits(t *testing.T) {
	const ebs = predicates.CSIDriverAWSEBS
	boundTo := func(name, pv string) *api.PersistentVolumeClaim {
		c := claim(name)
		c.Spec.VolumeName = pv
		return c
	}
	class := func(name, prov string) *api.StorageClass {
		return &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: prov}
	}
	unboundIn := func(name, sc string) *api.PersistentVolumeClaim {
		c := claim(name)
		c.Spec.StorageClassName = &sc
		return c
	}
	objs := []any{
		csiPV("pv-1", ebs, "h-1"), csiPV("pv-2", ebs, "h-2"), csiPV("pv-3", ebs, "h-3"),
		boundTo("c-1", "pv-1"), boundTo("c-2", "pv-2"), boundTo("c-3", "pv-3"), boundTo("c-1b", "pv-1"),
		class("sc-ebs", ebs), class("sc-gce", predicates.InTreeGCEPD), unboundIn("u-1", "sc-ebs"), unboundIn("u-gce", "sc-gce"),
	}
	maxExceeded := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonMaxVolumeCountExceeded)
	ephemeral := volPod("eph", "", api.Volume{Name: "data", Ephemeral: &api.EphemeralVolumeSource{}})
	yes := true
	ownedClaim := boundTo("eph-data", "pv-3")
	ownedClaim.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: "eph", UID: "uid-eph", Controller: &yes}}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing []*api.Pod
		limits   map[string]int32
		extra    []any
		want     *framework.Status
	}{
		{name: "fits when the node has room", pod: volPod("p", "", pvcVol("c-1")), existing: []*api.Pod{volPod("e", "n", pvcVol("c-2"))}, limits: map[string]int32{ebs: 2}},
		{name: "doesn't fit when node capacity < new pod's volumes", pod: volPod("p", "", pvcVol("c-1"), pvcVol("c-2")), limits: map[string]int32{ebs: 1}, want: maxExceeded},
		{name: "exceeds with an attached volume", pod: volPod("p", "", pvcVol("c-1")), existing: []*api.Pod{volPod("e", "n", pvcVol("c-2"))}, limits: map[string]int32{ebs: 1}, want: maxExceeded},
		{name: "same volume handle counted once", pod: volPod("p", "", pvcVol("c-1")), existing: []*api.Pod{volPod("e", "n", pvcVol("c-1b"))}, limits: map[string]int32{ebs: 1}},
		{name: "no new volumes at a full node", pod: volPod("p", "", pvcVol("c-1")), existing: []*api.Pod{volPod("e", "n", pvcVol("c-1"), pvcVol("c-2"))}, limits: map[string]int32{ebs: 1}},
		{name: "unbound claim counted through its class", pod: volPod("p", "", pvcVol("u-1")), existing: []*api.Pod{volPod("e", "n", pvcVol("c-2"))}, limits: map[string]int32{ebs: 1}, want: maxExceeded},
		{name: "no limit for the driver", pod: volPod("p", "", pvcVol("c-1"), pvcVol("c-2")), limits: map[string]int32{"other": 0}},
		{name: "no CSINode", pod: volPod("p", "", pvcVol("c-1"), pvcVol("c-2"))},
		{name: "missing claim", pod: volPod("p", "", pvcVol("nope")), limits: map[string]int32{ebs: 1},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, `looking up PVC default/nope: persistentvolumeclaim "nope" not found`)},
		{name: "migrated inline gce pd", pod: volPod("p", "", api.Volume{Name: "g", GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "a"}}),
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "g", GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "b"}})}, limits: map[string]int32{predicates.CSIDriverGCEPD: 1}, want: maxExceeded},
		{name: "migrated inline portworx", pod: volPod("p", "", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}}),
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-2"}})}, limits: map[string]int32{predicates.CSIDriverPortworx: 1}, want: maxExceeded},
		{name: "same portworx volume counted once", pod: volPod("p", "", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}}),
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}})}, limits: map[string]int32{predicates.CSIDriverPortworx: 1}},
		{name: "migrated unbound gce class", pod: volPod("p", "", pvcVol("u-gce")), limits: map[string]int32{predicates.CSIDriverGCEPD: 0}, want: maxExceeded},
		{name: "ephemeral volume", pod: ephemeral, extra: []any{ownedClaim}, limits: map[string]int32{ebs: 0}, want: maxExceeded},
		{name: "ephemeral volume not owned", pod: ephemeral, extra: []any{boundTo("eph-data", "pv-3")}, limits: map[string]int32{ebs: 5},
			want: framework.AsStatus(fmt.Errorf("PVC default/eph-data was not created for pod default/eph (pod is not owner)"))},
		{name: "driver required on the node", pod: volPod("p", "", pvcVol("c-1")), limits: map[string]int32{"other": 1},
			extra: []any{&api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: ebs}, Spec: api.CSIDriverSpec{PreventPodSchedulingIfMissing: &yes}}},
			want:  framework.NewStatus(framework.Unschedulable, ebs+" CSI driver is not installed on the node")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			all := append(slices.Clone(objs), tc.extra...)
			if tc.limits != nil {
				all = append(all, csiNodeOf("n", tc.limits))
			}
			s := storageSnap(t, []*api.Node{testNode("n", nil)}, tc.existing, all...)
			p, _ := New(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, nil)
			checkStatus(t, "Filter", got, tc.want)
			ni, _ := s.Get("n")
			checkStatus(t, "NodeVolumeLimits", predicates.NodeVolumeLimits(s.Objects(), tc.pod, ni), tc.want)
		})
	}
	t.Run("pod without volumes skips", func(t *testing.T) {
		p, _ := New(nil, nil)
		_, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), framework.NewCycleState(), volPod("p", ""), nil)
		checkStatus(t, "PreFilter", st, framework.NewStatus(framework.Skip))
	})
}

// VolumeAttachments count as volumes attached to their node
// (getNodeVolumeAttachmentInfo).
func TestNodeVolumeLimitsVolumeAttachments(t *testing.T) {
	const ebs = predicates.CSIDriverAWSEBS
	// upstream: TestCSILimits' fixtures: claims csi-<driver>-<i> bound to
	// CSI volumes of the same name and handle, attachments va-<driver>-<i>
	// of those volumes on the node.
	var objs []any
	for i := range 4 {
		n := fmt.Sprintf("csi-%s-%d", ebs, i)
		c := claim(n)
		c.Spec.VolumeName = n
		objs = append(objs, csiPV(n, ebs, n), c)
	}
	vaOf := func(i int) *api.VolumeAttachment {
		return attachment(fmt.Sprintf("va-%s-%d", ebs, i), "n", ebs, strptr(fmt.Sprintf("csi-%s-%d", ebs, i)))
	}
	onePV := volPod("p", "", pvcVol("csi-"+ebs+"-0"))
	gcePV := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "gce"},
		Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "pd"}}}}
	other := csiPV("other-driver", "other.csi", "h-9")
	maxExceeded := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonMaxVolumeCountExceeded)
	tests := []struct {
		name     string
		existing []*api.Pod
		limit    int32
		vas      []any
		want     *framework.Status
	}{
		// upstream: TestCSILimits "should count VolumeAttachments towards volume limit when no pods exist"
		// (the pod's own volume is attached already and still counts twice)
		{name: "attachments count", limit: 2, vas: []any{vaOf(0), vaOf(1)}, want: maxExceeded},
		// upstream: TestCSILimits "should schedule pod when VolumeAttachments count does not exceed limit"
		{name: "attachments within the limit", limit: 2, vas: []any{vaOf(0)}},
		{name: "attachment of another node", limit: 1, vas: []any{attachment("va", "m", ebs, strptr("csi-"+ebs+"-1"))}},
		{name: "no attacher", limit: 1, vas: []any{attachment("va", "n", "", strptr("csi-"+ebs+"-1"))}},
		{name: "inline source", limit: 1, vas: []any{attachment("va", "n", ebs, nil)}},
		{name: "missing volume", limit: 1, vas: []any{attachment("va", "n", ebs, strptr("gone"))}},
		{name: "in-tree volume not translated", limit: 1, vas: []any{gcePV, attachment("va", "n", ebs, strptr("gce"))}},
		{name: "counted against the attacher, not the volume's driver", limit: 1, vas: []any{other, attachment("va", "n", ebs, strptr("other-driver"))}, want: maxExceeded},
		{name: "status not read", limit: 1, vas: []any{func() any { v := vaOf(1); v.Status.Attached = false; return v }()}, want: maxExceeded},
		{name: "two attachments of one volume count once", limit: 2, vas: []any{vaOf(1), attachment("va-dup", "n", ebs, strptr("csi-"+ebs+"-1"))}},
		{name: "volume a pod on the node uses counts once", limit: 2, existing: []*api.Pod{volPod("e", "n", pvcVol("csi-"+ebs+"-1"))}, vas: []any{vaOf(1)}},
		{name: "pod volumes and attachments add up", limit: 2, existing: []*api.Pod{volPod("e", "n", pvcVol("csi-"+ebs+"-1"))}, vas: []any{vaOf(2)}, want: maxExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			all := append(append(slices.Clone(objs), tc.vas...), csiNodeOf("n", map[string]int32{ebs: tc.limit}))
			s := storageSnap(t, []*api.Node{testNode("n", nil), testNode("m", nil)}, tc.existing, all...)
			p, _ := New(nil, storageHandle{s})
			_, got := runFilter(t, p, s, onePV, "n")
			checkStatus(t, "Filter", got, tc.want)
		})
	}
}
