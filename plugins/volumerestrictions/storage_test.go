package volumerestrictions

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

func TestVolumeRestrictionsDiskConflicts(t *testing.T) {
	skip := framework.NewStatus(framework.Skip)
	conflict := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonDiskConflict)
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
			p, _ := New(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
			ni, _ := s.Get("n")
			if predicates.NoDiskConflict(tc.pod, ni) != (tc.want == nil) {
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
	conflict := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonReadWriteOncePodConflict)
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
			p, _ := New(nil, storageHandle{s})
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
	p, _ := New(nil, storageHandle{s})
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
