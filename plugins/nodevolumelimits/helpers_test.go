package nodevolumelimits

import (
	"context"
	"slices"
	"testing"

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

func strptr(s string) *string { return &s }

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

func attachment(name, node, attacher string, pv *string) *api.VolumeAttachment {
	return &api.VolumeAttachment{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.VolumeAttachmentSpec{Attacher: attacher, NodeName: node, Source: api.VolumeAttachmentSource{PersistentVolumeName: pv}}}
}

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}
