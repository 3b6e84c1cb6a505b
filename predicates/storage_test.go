package predicates

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// storageHandle is a framework.Handle over a snapshot.
type storageHandle struct{ s *cluster.Snapshot }

func (h storageHandle) Snapshot() *cluster.Snapshot { return h.s }

// storageSnap builds a snapshot of nodes, pods and objects.
func storageSnap(t interface{ Fatal(...any) }, nodes []*api.Node, pods []*api.Pod, objs ...any) *cluster.Snapshot {
	s, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := s.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func volPod(name, node string, vols ...api.Volume) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: node, Volumes: vols, Containers: []api.Container{{Name: "c"}}}}
}

func pvcVol(claim string) api.Volume {
	return api.Volume{Name: claim, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}
}

func claim(name string, modes ...api.PersistentVolumeAccessMode) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: modes}}
}

func testNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

// runFilter runs PreFilter and, unless it returns Skip or rejects,
// Filter on the named node.
func runFilter(t *testing.T, p framework.Plugin, s *cluster.Snapshot, pod *api.Pod, node string) (pre, filter *framework.Status) {
	t.Helper()
	state := framework.NewCycleState()
	view := s.View()
	_, pre = p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, view.Nodes())
	if !pre.IsSuccess() {
		return pre, nil
	}
	ni, ok := view.Get(node)
	if !ok {
		t.Fatalf("no node %s", node)
	}
	return nil, p.(framework.FilterPlugin).Filter(context.Background(), state, pod, ni)
}

func TestVolumeRestrictionsDiskConflicts(t *testing.T) {
	skip := framework.NewStatus(framework.Skip)
	conflict := framework.NewStatus(framework.Unschedulable, ErrReasonDiskConflict)
	gce := func(pd string, ro bool) api.Volume {
		return api.Volume{Name: "g", GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: pd, ReadOnly: ro}}
	}
	ebs := func(id string) api.Volume {
		return api.Volume{Name: "e", AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: id}}
	}
	rbd := func(mons []string, image string, ro bool) api.Volume {
		return api.Volume{Name: "r", RBD: &api.RBDVolumeSource{CephMonitors: mons, RBDPool: "rbd", RBDImage: image, ReadOnly: ro}}
	}
	iscsi := func(iqn string, ro bool) api.Volume {
		return api.Volume{Name: "i", ISCSI: &api.ISCSIVolumeSource{TargetPortal: "127.0.0.1:3260", IQN: iqn, ReadOnly: ro}}
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing []*api.Pod
		pre      *framework.Status
		want     *framework.Status
	}{
		// Upstream's four disk conflict tests are ported row by row in
		// TestDiskConflictsUpstream; these rows add the read-only rules.
		{name: "nothing", pod: volPod("p", ""), pre: skip},
		{name: "gce one state", pod: volPod("p", "", gce("foo", false)), existing: []*api.Pod{volPod("e", "n", gce("foo", false))}, want: conflict},
		{name: "gce other disk", pod: volPod("p", "", gce("bar", false)), existing: []*api.Pod{volPod("e", "n", gce("foo", false))}},
		{name: "gce both read-only", pod: volPod("p", "", gce("foo", true)), existing: []*api.Pod{volPod("e", "n", gce("foo", true))}},
		{name: "gce one read-only", pod: volPod("p", "", gce("foo", true)), existing: []*api.Pod{volPod("e", "n", gce("foo", false))}, want: conflict},
		{name: "no restrictions", pod: volPod("p", "", api.Volume{Name: "x", EmptyDir: &api.EmptyDirVolumeSource{}}), pre: skip},
		{name: "ebs same id", pod: volPod("p", "", ebs("foo")), existing: []*api.Pod{volPod("e", "n", ebs("foo"))}, want: conflict},
		{name: "ebs other id", pod: volPod("p", "", ebs("bar")), existing: []*api.Pod{volPod("e", "n", ebs("foo"))}},
		{name: "rbd shared monitor", pod: volPod("p", "", rbd([]string{"a", "b"}, "foo", false)), existing: []*api.Pod{volPod("e", "n", rbd([]string{"b", "c"}, "foo", false))}, want: conflict},
		{name: "rbd other image", pod: volPod("p", "", rbd([]string{"a"}, "bar", false)), existing: []*api.Pod{volPod("e", "n", rbd([]string{"a"}, "foo", false))}},
		{name: "rbd disjoint monitors", pod: volPod("p", "", rbd([]string{"a"}, "foo", false)), existing: []*api.Pod{volPod("e", "n", rbd([]string{"b"}, "foo", false))}},
		{name: "rbd both read-only", pod: volPod("p", "", rbd([]string{"a"}, "foo", true)), existing: []*api.Pod{volPod("e", "n", rbd([]string{"a"}, "foo", true))}},
		{name: "iscsi same iqn", pod: volPod("p", "", iscsi("iqn.1", false)), existing: []*api.Pod{volPod("e", "n", iscsi("iqn.1", false))}, want: conflict},
		{name: "iscsi other iqn", pod: volPod("p", "", iscsi("iqn.2", false)), existing: []*api.Pod{volPod("e", "n", iscsi("iqn.1", false))}},
		{name: "iscsi both read-only", pod: volPod("p", "", iscsi("iqn.1", true)), existing: []*api.Pod{volPod("e", "n", iscsi("iqn.1", true))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storageSnap(t, []*api.Node{testNode("n", nil)}, tc.existing)
			p, _ := NewVolumeRestrictions(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
			ni, _ := s.Get("n")
			if NoDiskConflict(tc.pod, ni) != (tc.want == nil) {
				t.Errorf("NoDiskConflict = %v", !(tc.want == nil))
			}
		})
	}
}

// upstream: TestAccessModeConflicts
func TestVolumeRestrictionsAccessModeConflicts(t *testing.T) {
	one := volPod("pod-with-one-pvc", "n", pvcVol("claim-with-rwop-1"))
	two := volPod("pod-with-two-pvcs", "n", pvcVol("claim-with-rwop-1"), pvcVol("claim-with-rwop-2"))
	rwx := volPod("pod-with-rwx", "n", pvcVol("claim-with-rwx"))
	claims := []any{claim("claim-with-rwop-1", api.ReadWriteOncePod), claim("claim-with-rwop-2", api.ReadWriteOncePod), claim("claim-with-rwx", api.ReadWriteMany)}
	conflict := framework.NewStatus(framework.Unschedulable, ErrReasonReadWriteOncePodConflict)
	tests := []struct {
		name     string
		pod      *api.Pod
		existing []*api.Pod
		claims   []any
		pre      *framework.Status
		want     *framework.Status
	}{
		{name: "nothing", pod: &api.Pod{}, pre: framework.NewStatus(framework.Skip)},
		{name: "failed to get PVC", pod: volPod("p", "", pvcVol("claim-with-rwop-1")),
			pre: framework.NewStatus(framework.UnschedulableAndUnresolvable, `persistentvolumeclaim "claim-with-rwop-1" not found`)},
		{name: "no access mode conflict", pod: volPod("p", "", pvcVol("claim-with-rwop-1")), existing: []*api.Pod{rwx}, claims: claims, pre: framework.NewStatus(framework.Skip)},
		{name: "access mode conflict, unschedulable", pod: volPod("p", "", pvcVol("claim-with-rwop-1")), existing: []*api.Pod{one, rwx}, claims: claims, want: conflict},
		{name: "two conflicts, unschedulable", pod: volPod("p", "", pvcVol("claim-with-rwop-1"), pvcVol("claim-with-rwop-2")), existing: []*api.Pod{two, rwx}, claims: claims, want: conflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storageSnap(t, []*api.Node{testNode("n", nil)}, tc.existing, tc.claims...)
			p, _ := NewVolumeRestrictions(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
		})
	}
}

// Preemption removing the pod that holds a ReadWriteOncePod claim makes
// the node feasible; adding it back makes it infeasible again.
func TestVolumeRestrictionsAddRemovePod(t *testing.T) {
	holder := volPod("holder", "n", pvcVol("rwop"))
	s := storageSnap(t, []*api.Node{testNode("n", nil)}, []*api.Pod{holder}, claim("rwop", api.ReadWriteOncePod))
	p, _ := NewVolumeRestrictions(nil, storageHandle{s})
	pod := volPod("p", "", pvcVol("rwop"))
	state := framework.NewCycleState()
	pf := p.(framework.PreFilterPlugin)
	if _, st := pf.PreFilter(context.Background(), state, pod, s.View().Nodes()); st != nil {
		t.Fatal(st)
	}
	ni, _ := s.Get("n")
	f := p.(framework.FilterPlugin)
	if st := f.Filter(context.Background(), state, pod, ni); st.Code() != framework.Unschedulable {
		t.Fatalf("Filter = %v", st)
	}
	info := cluster.NewPodInfo(holder)
	ext := pf.PreFilterExtensions()
	if st := ext.RemovePod(context.Background(), state, pod, info, ni); st != nil {
		t.Fatal(st)
	}
	if st := f.Filter(context.Background(), state, pod, ni); st != nil {
		t.Fatalf("after RemovePod: %v", st)
	}
	if st := ext.AddPod(context.Background(), state, pod, info, ni); st != nil {
		t.Fatal(st)
	}
	if st := f.Filter(context.Background(), state, pod, ni); st.Code() != framework.Unschedulable {
		t.Fatalf("after AddPod: %v", st)
	}
}

func strptr(s string) *string { return &s }

// upstream: TestSingleZone, TestMultiZone, TestWithBinding (rows)
func TestVolumeZone(t *testing.T) {
	wffc, imm := api.VolumeBindingWaitForFirstConsumer, api.VolumeBindingImmediate
	pv := func(name string, labels map[string]string) *api.PersistentVolume {
		return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	}
	bound := func(name, volume string) *api.PersistentVolumeClaim {
		c := claim(name)
		c.Spec.VolumeName = volume
		return c
	}
	unbound := func(name string, class *string) *api.PersistentVolumeClaim {
		c := claim(name)
		c.Spec.StorageClassName = class
		return c
	}
	objs := []any{
		pv("Vol_1", map[string]string{LabelFailureDomainBetaZone: "us-west1-a"}),
		pv("Vol_2", map[string]string{LabelFailureDomainBetaRegion: "us-west1", "uselessLabel": "none"}),
		pv("Vol_3", map[string]string{LabelTopologyZone: "us-west1-a"}),
		pv("Vol_Multi", map[string]string{LabelTopologyZone: "us-west1-a__us-west1-b"}),
		pv("Vol_Bad", map[string]string{LabelTopologyZone: "us-west1-a__"}),
		bound("PVC_1", "Vol_1"), bound("PVC_2", "Vol_2"), bound("PVC_3", "Vol_3"), bound("PVC_Multi", "Vol_Multi"), bound("PVC_Bad", "Vol_Bad"),
		bound("PVC_NoPV", "Vol_Missing"),
		unbound("PVC_NoSC", strptr("")), unbound("PVC_WFFC", strptr("Class_WFFC")), unbound("PVC_Imm", strptr("Class_Imm")),
		unbound("PVC_NoMode", strptr("Class_NoMode")), unbound("PVC_SCMissing", strptr("Class_Missing")),
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_WFFC"}, VolumeBindingMode: &wffc},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_Imm"}, VolumeBindingMode: &imm},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_NoMode"}},
	}
	skip := framework.NewStatus(framework.Skip)
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonVolumeZoneConflict)
	unres := func(msg string) *framework.Status {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, msg)
	}
	tests := []struct {
		name   string
		claim  string
		labels map[string]string
		pre    *framework.Status
		want   *framework.Status
	}{
		{name: "pod without volume", pre: skip},
		{name: "node without labels", claim: "PVC_1", labels: nil},
		{name: "beta zone label matched", claim: "PVC_1", labels: map[string]string{LabelFailureDomainBetaZone: "us-west1-a"}},
		{name: "beta zone label matched by GA node label", claim: "PVC_1", labels: map[string]string{LabelTopologyZone: "us-west1-a"}},
		{name: "beta region label matched", claim: "PVC_2", labels: map[string]string{LabelFailureDomainBetaRegion: "us-west1"}},
		{name: "beta zone label mismatched", claim: "PVC_1", labels: map[string]string{LabelFailureDomainBetaZone: "us-west1-b"}, want: conflict},
		{name: "GA zone label not matched by beta node label", claim: "PVC_3", labels: map[string]string{LabelFailureDomainBetaZone: "us-west1-a"}, want: conflict},
		{name: "node with only an unrelated region label", claim: "PVC_3", labels: map[string]string{LabelTopologyRegion: "us-west1"}, want: conflict},
		// upstream: TestMultiZone
		{name: "multi-zone volume matched", claim: "PVC_Multi", labels: map[string]string{LabelTopologyZone: "us-west1-b"}},
		{name: "multi-zone volume mismatched", claim: "PVC_Multi", labels: map[string]string{LabelTopologyZone: "us-west1-c"}, want: conflict},
		{name: "bad label ignored", claim: "PVC_Bad", labels: map[string]string{LabelTopologyZone: "us-west1-c"}, pre: skip},
		// upstream: TestWithBinding
		{name: "label zone failure domain matched", claim: "PVC_1", labels: map[string]string{LabelFailureDomainBetaZone: "us-west1-a", "uselessLabel": "none"}},
		{name: "unbound volume empty storage class", claim: "PVC_NoSC", pre: unres("PersistentVolumeClaim had no pv name and storageClass name")},
		{name: "unbound volume no storage class", claim: "PVC_SCMissing", pre: unres(`storageclass.storage.k8s.io "Class_Missing" not found`)},
		{name: "unbound volume immediate binding mode", claim: "PVC_Imm", pre: unres("PersistentVolume had no name")},
		{name: "unbound volume wait binding mode", claim: "PVC_WFFC", pre: skip},
		{name: "class without a binding mode", claim: "PVC_NoMode", pre: unres(`VolumeBindingMode not set for StorageClass "Class_NoMode"`)},
		{name: "missing claim", claim: "PVC_Missing", pre: unres(`persistentvolumeclaim "PVC_Missing" not found`)},
		{name: "missing volume", claim: "PVC_NoPV", pre: unres(`persistentvolume "Vol_Missing" not found`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storageSnap(t, []*api.Node{testNode("n", tc.labels)}, nil, objs...)
			pod := volPod("p", "")
			if tc.claim != "" {
				pod = volPod("p", "", pvcVol(tc.claim))
			}
			p, _ := NewVolumeZone(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
			ni, _ := s.Get("n")
			plain := VolumeZone(s.Objects(), pod, ni)
			switch {
			case tc.pre != nil && !tc.pre.IsSkip():
				checkStatus(t, "VolumeZone", plain, tc.pre)
			case tc.pre == nil:
				checkStatus(t, "VolumeZone", plain, tc.want)
			}
		})
	}
}

func csiNodeOf(name string, limits map[string]int32) *api.CSINode {
	n := &api.CSINode{ObjectMeta: api.ObjectMeta{Name: name}}
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for k := range limits {
			if !yield(k) {
				return
			}
		}
	}) {
		c := limits[d]
		n.Spec.Drivers = append(n.Spec.Drivers, api.CSINodeDriver{Name: d, Allocatable: &api.VolumeNodeResources{Count: &c}})
	}
	return n
}

func csiPV(name, driver, handle string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: handle}}}}
}

// upstream: TestCSILimits (rows)
func TestNodeVolumeLimits(t *testing.T) {
	const ebs = CSIDriverAWSEBS
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
		class("sc-ebs", ebs), class("sc-gce", InTreeGCEPD), unboundIn("u-1", "sc-ebs"), unboundIn("u-gce", "sc-gce"),
	}
	maxExceeded := framework.NewStatus(framework.Unschedulable, ErrReasonMaxVolumeCountExceeded)
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
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "g", GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "b"}})}, limits: map[string]int32{CSIDriverGCEPD: 1}, want: maxExceeded},
		{name: "migrated inline portworx", pod: volPod("p", "", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}}),
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-2"}})}, limits: map[string]int32{CSIDriverPortworx: 1}, want: maxExceeded},
		{name: "same portworx volume counted once", pod: volPod("p", "", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}}),
			existing: []*api.Pod{volPod("e", "n", api.Volume{Name: "px", PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px-1"}})}, limits: map[string]int32{CSIDriverPortworx: 1}},
		{name: "migrated unbound gce class", pod: volPod("p", "", pvcVol("u-gce")), limits: map[string]int32{CSIDriverGCEPD: 0}, want: maxExceeded},
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
			p, _ := NewNodeVolumeLimits(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, nil)
			checkStatus(t, "Filter", got, tc.want)
			ni, _ := s.Get("n")
			checkStatus(t, "NodeVolumeLimits", NodeVolumeLimits(s.Objects(), tc.pod, ni), tc.want)
		})
	}
	t.Run("pod without volumes skips", func(t *testing.T) {
		p, _ := NewNodeVolumeLimits(nil, nil)
		_, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), framework.NewCycleState(), volPod("p", ""), nil)
		checkStatus(t, "PreFilter", st, framework.NewStatus(framework.Skip))
	})
}

// Properties: raising a CSINode allowance never makes a node infeasible
// for NodeVolumeLimits, and the verdict does not depend on the order the
// objects (claims, volumes, VolumeAttachments) are added in.
func TestNodeVolumeLimitsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		drivers := []string{"a.csi", "b.csi"}
		var objs []any
		for i := range 4 {
			objs = append(objs, csiPV(fmt.Sprintf("pv-%d", i), rapid.SampledFrom(drivers).Draw(t, "driver"), fmt.Sprintf("h-%d", rapid.IntRange(0, 2).Draw(t, "handle"))))
			c := claim(fmt.Sprintf("c-%d", i))
			c.Spec.VolumeName = fmt.Sprintf("pv-%d", i)
			objs = append(objs, c)
		}
		// VolumeAttachments of some of the volumes, on the node or not.
		for i := range rapid.IntRange(0, 3).Draw(t, "attachments") {
			objs = append(objs, attachment(fmt.Sprintf("va-%d", i), rapid.SampledFrom([]string{"n", "m"}).Draw(t, "vaNode"),
				rapid.SampledFrom(drivers).Draw(t, "attacher"), strptr(fmt.Sprintf("pv-%d", rapid.IntRange(0, 4).Draw(t, "vaVolume")))))
		}
		vols := func(label string) []api.Volume {
			var out []api.Volume
			for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, 4), 0, 3, rapid.ID[int]).Draw(t, label) {
				out = append(out, pvcVol(fmt.Sprintf("c-%d", i)))
			}
			return out
		}
		existing := []*api.Pod{volPod("e1", "n", vols("e1")...), volPod("e2", "n", vols("e2")...)}
		pod := volPod("p", "", vols("pod")...)
		limits := map[string]int32{}
		for _, d := range drivers {
			if rapid.Bool().Draw(t, "limited") {
				limits[d] = rapid.Int32Range(0, 4).Draw(t, "limit")
			}
		}
		verdict := func(objs []any, limits map[string]int32) bool {
			s, err := cluster.NewSnapshot([]*api.Node{testNode("n", nil)}, existing)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AddObjects(append(slices.Clone(objs), csiNodeOf("n", limits))...); err != nil {
				t.Fatal(err)
			}
			ni, _ := s.Get("n")
			return NodeVolumeLimits(s.Objects(), pod, ni).IsSuccess()
		}
		before := verdict(objs, limits)
		shuffled := slices.Clone(objs)
		for i := len(shuffled) - 1; i > 0; i-- {
			j := rapid.IntRange(0, i).Draw(t, "swap")
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		}
		if verdict(shuffled, limits) != before {
			t.Fatalf("verdict depends on object order")
		}
		raised := map[string]int32{}
		for d, l := range limits {
			raised[d] = l + rapid.Int32Range(0, 2).Draw(t, "raise")
		}
		if before && !verdict(objs, raised) {
			t.Fatalf("raising an allowance made the node infeasible")
		}
	})
}

// Property: a claim bound to a volume without zone labels never makes
// VolumeZone reject a node.
func TestVolumeZoneUnlabelledVolumeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		labels := map[string]string{}
		for _, k := range volumeZoneLabels {
			if rapid.Bool().Draw(t, "has") {
				labels[k] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "v")
			}
		}
		c := claim("c")
		c.Spec.VolumeName = "pv"
		s := storageSnap(t, []*api.Node{testNode("n", labels)}, nil, c, csiPV("pv", "d", "h"))
		ni, _ := s.Get("n")
		if st := VolumeZone(s.Objects(), volPod("p", "", pvcVol("c")), ni); st != nil {
			t.Fatalf("VolumeZone = %v", st)
		}
	})
}

func ExampleVolumeZone() {
	c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"}, Spec: api.PersistentVolumeClaimSpec{VolumeName: "pv-a"}}
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-a", Labels: map[string]string{LabelTopologyZone: "zone-a"}}}
	nodes := []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{LabelTopologyZone: "zone-a"}}},
		{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{LabelTopologyZone: "zone-b"}}},
	}
	snap, _ := cluster.NewSnapshot(nodes, nil)
	_ = snap.AddObjects(c, pv)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"}, Spec: api.PodSpec{
		Volumes: []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}}
	for _, name := range []string{"a", "b"} {
		ni, _ := snap.Get(name)
		st := VolumeZone(snap.Objects(), pod, ni)
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %v %s", name, st.Code(), st)))
	}
	// Output:
	// a: Success
	// b: UnschedulableAndUnresolvable node(s) had no available volume zone
}

func ExampleRequiredNodeFeatures() {
	no := false
	pod := &api.Pod{Spec: api.PodSpec{HostNetwork: true, HostUsers: &no}}
	fmt.Println(RequiredNodeFeatures(pod))
	// Output: [UserNamespacesHostNetworkSupport]
}

func attachment(name, node, attacher string, pv *string) *api.VolumeAttachment {
	return &api.VolumeAttachment{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.VolumeAttachmentSpec{Attacher: attacher, NodeName: node, Source: api.VolumeAttachmentSource{PersistentVolumeName: pv}}}
}

// VolumeAttachments count as volumes attached to their node
// (getNodeVolumeAttachmentInfo).
func TestNodeVolumeLimitsVolumeAttachments(t *testing.T) {
	const ebs = CSIDriverAWSEBS
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
	maxExceeded := framework.NewStatus(framework.Unschedulable, ErrReasonMaxVolumeCountExceeded)
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
			p, _ := NewNodeVolumeLimits(nil, storageHandle{s})
			_, got := runFilter(t, p, s, onePV, "n")
			checkStatus(t, "Filter", got, tc.want)
		})
	}
}
