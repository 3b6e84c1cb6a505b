package volumezone

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

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
		pv("Vol_1", map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}),
		pv("Vol_2", map[string]string{predicates.LabelFailureDomainBetaRegion: "us-west1", "uselessLabel": "none"}),
		pv("Vol_3", map[string]string{predicates.LabelTopologyZone: "us-west1-a"}),
		pv("Vol_Multi", map[string]string{predicates.LabelTopologyZone: "us-west1-a__us-west1-b"}),
		pv("Vol_Bad", map[string]string{predicates.LabelTopologyZone: "us-west1-a__"}),
		bound("PVC_1", "Vol_1"), bound("PVC_2", "Vol_2"), bound("PVC_3", "Vol_3"), bound("PVC_Multi", "Vol_Multi"), bound("PVC_Bad", "Vol_Bad"),
		bound("PVC_NoPV", "Vol_Missing"),
		unbound("PVC_NoSC", strptr("")), unbound("PVC_WFFC", strptr("Class_WFFC")), unbound("PVC_Imm", strptr("Class_Imm")),
		unbound("PVC_NoMode", strptr("Class_NoMode")), unbound("PVC_SCMissing", strptr("Class_Missing")),
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_WFFC"}, VolumeBindingMode: &wffc},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_Imm"}, VolumeBindingMode: &imm},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "Class_NoMode"}},
	}
	skip := framework.NewStatus(framework.Skip)
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonVolumeZoneConflict)
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
		{name: "beta zone label matched", claim: "PVC_1", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}},
		{name: "beta zone label matched by GA node label", claim: "PVC_1", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-a"}},
		{name: "beta region label matched", claim: "PVC_2", labels: map[string]string{predicates.LabelFailureDomainBetaRegion: "us-west1"}},
		{name: "beta zone label mismatched", claim: "PVC_1", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-b"}, want: conflict},
		{name: "GA zone label not matched by beta node label", claim: "PVC_3", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a"}, want: conflict},
		{name: "node with only an unrelated region label", claim: "PVC_3", labels: map[string]string{predicates.LabelTopologyRegion: "us-west1"}, want: conflict},
		// upstream: TestMultiZone
		{name: "multi-zone volume matched", claim: "PVC_Multi", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-b"}},
		{name: "multi-zone volume mismatched", claim: "PVC_Multi", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-c"}, want: conflict},
		{name: "bad label ignored", claim: "PVC_Bad", labels: map[string]string{predicates.LabelTopologyZone: "us-west1-c"}, pre: skip},
		// upstream: TestWithBinding
		{name: "label zone failure domain matched", claim: "PVC_1", labels: map[string]string{predicates.LabelFailureDomainBetaZone: "us-west1-a", "uselessLabel": "none"}},
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
			p, _ := New(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
			ni, _ := s.Get("n")
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
