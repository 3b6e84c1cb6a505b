package scheduler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/resource"
)

// volumeCluster is two nodes, a WaitForFirstConsumer class without a
// provisioner, one available 10Gi volume usable only from node-a, and
// claims c1, c2 of 1Gi.
func volumeCluster(t *testing.T) *cluster.Snapshot {
	t.Helper()
	var nodes []*api.Node
	for _, n := range []string{"node-a", "node-b"} {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}},
			Status: api.NodeStatus{Allocatable: api.ResourceList{api.ResourcePods: resource.MustParse("10")}}})
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	wait := api.VolumeBindingWaitForFirstConsumer
	class := "local"
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-a"}, Spec: api.PersistentVolumeSpec{
		StorageClassName: class, Capacity: api.ResourceList{api.ResourceStorage: resource.MustParse("10Gi")},
		NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{"node-a"}}}}}}}},
		Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}}
	claim := func(name string) *api.PersistentVolumeClaim {
		return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
			Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class,
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: resource.MustParse("1Gi")}}}}
	}
	err = snap.AddObjects(&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: predicates.NotSupportedProvisioner, VolumeBindingMode: &wait},
		pv, claim("c1"), claim("c2"))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func podWithClaim(name, claim string) *api.Pod {
	p := makePod(name)
	p.Spec.Volumes = []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}}
	return p
}

// The volume chosen for the first pod's claim is taken for the second:
// VolumeBinding's Reserve in a simulation.
func TestSimulateAssumesVolumes(t *testing.T) {
	snap := volumeCluster(t)
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Simulate(context.Background(), []*api.Pod{podWithClaim("p1", "c1"), podWithClaim("p2", "c2")})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Node != "node-a" || out[0].Err != nil {
		t.Fatalf("p1: %+v", out[0])
	}
	var fe *FitError
	if out[1].Node != "" || !errors.As(out[1].Err, &fe) || !strings.Contains(fe.Error(), predicates.ErrReasonBindConflict) {
		t.Fatalf("p2 placed on %q, err %v", out[1].Node, out[1].Err)
	}
	pv, _ := cluster.GetObject[api.PersistentVolume](snap.Objects(), "", "pv-a")
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.Name != "c1" || pv.Annotations[api.AnnBoundByController] != "yes" {
		t.Errorf("pv-a after the simulation: claimRef %+v annotations %v", pv.Spec.ClaimRef, pv.Annotations)
	}
}

// A second pod sharing the first pod's claim goes where the volume is.
func TestSimulateSharedClaim(t *testing.T) {
	snap := volumeCluster(t)
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Simulate(context.Background(), []*api.Pod{podWithClaim("p1", "c1"), podWithClaim("p2", "c1")})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Node != "node-a" || out[1].Node != "node-a" {
		t.Fatalf("placements %q %q (%v)", out[0].Node, out[1].Node, out[1].Err)
	}
}

// Without VolumeBinding in the profile nothing is assumed.
func TestSimulateWithoutVolumeBinding(t *testing.T) {
	snap := volumeCluster(t)
	s, err := New(snap, WithProfiles(framework.ProfileConfig{SchedulerName: "default-scheduler", Disabled: []string{"VolumeBinding"}}))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Simulate(context.Background(), []*api.Pod{podWithClaim("p1", "c1"), podWithClaim("p2", "c2")})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Node == "" || out[1].Node == "" {
		t.Fatalf("placements %+v", out)
	}
	pv, _ := cluster.GetObject[api.PersistentVolume](snap.Objects(), "", "pv-a")
	if pv.Spec.ClaimRef != nil {
		t.Errorf("pv-a bound without VolumeBinding: %+v", pv.Spec.ClaimRef)
	}
}
