package volumezone

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

type zoneRow struct {
	name   string
	claim  string
	labels map[string]string
	pre    *framework.Status
	want   *framework.Status
}

// runZoneRows runs VolumeZone's PreFilter and Filter for each row on a
// node host1 with the row's labels, the plain VolumeZone function too.
func runZoneRows(t *testing.T, objs []any, rows []zoneRow) {
	t.Helper()
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			s := storageSnap(t, []*api.Node{testNode("host1", tc.labels)}, nil, objs...)
			pod := volPod("pod_1", "")
			if tc.claim != "" {
				pod = volPod("pod_1", "", pvcVol(tc.claim))
			}
			p, _ := New(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, pod, "host1")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
			ni, _ := s.Get("host1")
			plain := predicates.VolumeZone(s.Objects(), pod, ni)
			switch {
			case tc.pre != nil && !tc.pre.IsSkip():
				checkStatus(t, "VolumeZone", plain, tc.pre)
			case tc.pre == nil:
				checkStatus(t, "VolumeZone", plain, tc.want)
			}
		})
	}
}

func labelledPV(name string, labels map[string]string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

func claimOf(name, volume string) *api.PersistentVolumeClaim {
	c := claim(name)
	c.Spec.VolumeName = volume
	return c
}

// upstream: TestSingleZone (every row)
func TestSingleZoneUpstream(t *testing.T) {
	objs := []any{
		labelledPV("Vol_1", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}),
		labelledPV("Vol_2", map[string]string{predicates.LabelFailureDomainBetaRegion: "us-west1", "uselessLabel": "none"}),
		labelledPV("Vol_3", map[string]string{predicates.LabelFailureDomainBetaRegion: "us-west1"}),
		labelledPV("Vol_Stable_1", map[string]string{predicates.LabelTopologyZone: "us-west1-a"}),
		labelledPV("Vol_Stable_2", map[string]string{predicates.LabelTopologyRegion: "us-west1", "uselessLabel": "none"}),
		labelledPV("Vol_Stable_3", map[string]string{predicates.LabelTopologyZone: "us-west1-a", predicates.LabelTopologyRegion: "us-west1-a"}),
		claimOf("PVC_1", "Vol_1"), claimOf("PVC_2", "Vol_2"), claimOf("PVC_3", "Vol_3"), claimOf("PVC_4", "Vol_not_exist"),
		claimOf("PVC_Stable_1", "Vol_Stable_1"), claimOf("PVC_Stable_2", "Vol_Stable_2"), claimOf("PVC_Stable_3", "Vol_Stable_3"),
	}
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonVolumeZoneConflict)
	useless := func(k, v string) map[string]string { return map[string]string{k: v, "uselessLabel": "none"} }
	runZoneRows(t, objs, []zoneRow{
		{name: "pod without volume", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}, pre: framework.NewStatus(framework.Skip)},
		{name: "node without labels", claim: "PVC_1"},
		{name: "beta zone label matched", claim: "PVC_1", labels: useless(predicates.LabelFailureDomainBetaZone, "us-west1-a")},
		{name: "beta region label matched", claim: "PVC_2", labels: useless(predicates.LabelFailureDomainBetaRegion, "us-west1")},
		{name: "beta region label doesn't match", claim: "PVC_2", labels: useless(predicates.LabelFailureDomainBetaRegion, "no_us-west1"), want: conflict},
		{name: "beta zone label doesn't match", claim: "PVC_1", labels: useless(predicates.LabelFailureDomainBetaZone, "no_us-west1-a"), want: conflict},
		{name: "zone label matched", claim: "PVC_Stable_1", labels: useless(predicates.LabelTopologyZone, "us-west1-a")},
		{name: "region label matched", claim: "PVC_Stable_2", labels: useless(predicates.LabelTopologyRegion, "us-west1")},
		{name: "region label doesn't match", claim: "PVC_Stable_2", labels: useless(predicates.LabelTopologyRegion, "no_us-west1"), want: conflict},
		{name: "zone label doesn't match", claim: "PVC_Stable_1", labels: useless(predicates.LabelTopologyZone, "no_us-west1-a"), want: conflict},
		{name: "pv with zone and region, node with only zone", claim: "PVC_Stable_3", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-a"}, want: conflict},
		{name: "pv with zone,node with beta zone", claim: "PVC_Stable_1", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}, want: conflict},
		{name: "pv with beta label,node with ga label, matched", claim: "PVC_1", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-a"}},
		{name: "pv with beta label,node with ga label, don't match", claim: "PVC_1", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-b"}, want: conflict},
	})
}

// upstream: TestMultiZone (every row)
func TestMultiZoneUpstream(t *testing.T) {
	objs := []any{
		labelledPV("Vol_1", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}),
		labelledPV("Vol_2", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-b", "uselessLabel": "none"}),
		labelledPV("Vol_3", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-c__us-west1-a"}),
		labelledPV("Vol_Stable_1", map[string]string{predicates.LabelTopologyZone: "us-west1-a"}),
		labelledPV("Vol_Stable_2", map[string]string{predicates.LabelTopologyZone: "us-west1-c__us-west1-a"}),
		claimOf("PVC_1", "Vol_1"), claimOf("PVC_2", "Vol_2"), claimOf("PVC_3", "Vol_3"), claimOf("PVC_4", "Vol_not_exist"),
		claimOf("PVC_Stable_1", "Vol_Stable_1"), claimOf("PVC_Stable_2", "Vol_Stable_2"),
	}
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonVolumeZoneConflict)
	useless := func(k, v string) map[string]string { return map[string]string{k: v, "uselessLabel": "none"} }
	runZoneRows(t, objs, []zoneRow{
		{name: "node without labels", claim: "PVC_3"},
		{name: "beta zone label matched", claim: "PVC_3", labels: useless(predicates.LabelFailureDomainBetaZone, "us-west1-a")},
		{name: "beta zone label doesn't match", claim: "PVC_1", labels: useless(predicates.LabelFailureDomainBetaZone, "us-west1-b"), want: conflict},
		{name: "zone label matched", claim: "PVC_Stable_2", labels: useless(predicates.LabelTopologyZone, "us-west1-a")},
		{name: "zone label doesn't match", claim: "PVC_Stable_1", labels: useless(predicates.LabelTopologyZone, "us-west1-b"), want: conflict},
	})
}

// upstream: TestWithBinding (every row; upstream's fake class lister
// says "storageclasses.storage.k8s.io", the informers' lister and
// schedkit "storageclass.storage.k8s.io")
func TestWithBindingUpstream(t *testing.T) {
	wait := api.VolumeBindingWaitForFirstConsumer
	class0, classWait, classImmediate := "Class_0", "Class_Wait", "Class_Immediate"
	unbound := func(name string, class *string) *api.PersistentVolumeClaim {
		c := claim(name)
		c.Spec.StorageClassName = class
		return c
	}
	objs := []any{
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: classImmediate}},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: classWait}, VolumeBindingMode: &wait},
		labelledPV("Vol_1", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}),
		claimOf("PVC_1", "Vol_1"), unbound("PVC_NoSC", &class0), unbound("PVC_EmptySC", nil),
		unbound("PVC_WaitSC", &classWait), unbound("PVC_ImmediateSC", &classImmediate),
	}
	node := map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a", "uselessLabel": "none"}
	unres := func(msg string) *framework.Status {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, msg)
	}
	runZoneRows(t, objs, []zoneRow{
		{name: "label zone failure domain matched", claim: "PVC_1", labels: node},
		{name: "unbound volume empty storage class", claim: "PVC_EmptySC", labels: node, pre: unres("PersistentVolumeClaim had no pv name and storageClass name")},
		{name: "unbound volume no storage class", claim: "PVC_NoSC", labels: node, pre: unres(`storageclass.storage.k8s.io "Class_0" not found`)},
		{name: "unbound volume immediate binding mode", claim: "PVC_ImmediateSC", labels: node, pre: unres(`VolumeBindingMode not set for StorageClass "Class_Immediate"`)},
		{name: "unbound volume wait binding mode", claim: "PVC_WaitSC", labels: node, pre: framework.NewStatus(framework.Skip)},
	})
}
