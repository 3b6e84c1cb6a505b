package volumerestrictions

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// upstream: TestGCEDiskConflicts, TestAWSDiskConflicts,
// TestRBDDiskConflicts, TestISCSIDiskConflicts (every row, with their
// volState and volState2 fixtures)
func TestDiskConflictsUpstream(t *testing.T) {
	kinds := []struct {
		test             string
		volState, state2 api.Volume
	}{
		{"TestGCEDiskConflicts",
			api.Volume{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "foo"}},
			api.Volume{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "bar"}}},
		{"TestAWSDiskConflicts",
			api.Volume{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: "foo"}},
			api.Volume{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: "bar"}}},
		{"TestRBDDiskConflicts",
			api.Volume{RBD: &api.RBDVolumeSource{CephMonitors: []string{"a", "b"}, RBDPool: "foo", RBDImage: "bar", FSType: "ext4"}},
			api.Volume{RBD: &api.RBDVolumeSource{CephMonitors: []string{"c", "d"}, RBDPool: "foo", RBDImage: "bar", FSType: "ext4"}}},
		{"TestISCSIDiskConflicts",
			api.Volume{ISCSI: &api.ISCSIVolumeSource{TargetPortal: "127.0.0.1:3260", IQN: "iqn.2016-12.server:storage.target01", FSType: "ext4"}},
			api.Volume{ISCSI: &api.ISCSIVolumeSource{TargetPortal: "127.0.0.1:3260", IQN: "iqn.2017-12.server:storage.target01", FSType: "ext4"}}},
	}
	skip := framework.NewStatus(framework.Skip)
	conflict := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonDiskConflict)
	for _, k := range kinds {
		t.Run(k.test, func(t *testing.T) {
			rows := []struct {
				name     string
				pod      *api.Pod
				existing []*api.Pod
				pre      *framework.Status
				want     *framework.Status
			}{
				{name: "nothing", pod: volPod("p", ""), pre: skip},
				{name: "one state", pod: volPod("p", ""), existing: []*api.Pod{volPod("e", "n", k.volState)}, pre: skip},
				{name: "same state", pod: volPod("p", "", k.volState), existing: []*api.Pod{volPod("e", "n", k.volState)}, want: conflict},
				{name: "different state", pod: volPod("p", "", k.state2), existing: []*api.Pod{volPod("e", "n", k.volState)}},
			}
			if k.test == "TestGCEDiskConflicts" {
				rows = append(rows, struct {
					name     string
					pod      *api.Pod
					existing []*api.Pod
					pre      *framework.Status
					want     *framework.Status
				}{name: "pod with a volume that doesn't have restrictions", pod: volPod("p", "", api.Volume{Name: "volume with no restriction"}), pre: skip})
			}
			for _, tc := range rows {
				t.Run(tc.name, func(t *testing.T) {
					s := storageSnap(t, []*api.Node{testNode("n", nil)}, tc.existing)
					p, _ := New(nil, storageHandle{s})
					pre, got := runFilter(t, p, s, tc.pod, "n")
					checkStatus(t, "PreFilter", pre, tc.pre)
					if pre == nil {
						checkStatus(t, "Filter", got, tc.want)
					}
				})
			}
		})
	}
}
