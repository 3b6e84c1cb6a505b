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

// VolumeBinding joins the fast path only for pods without claims: for a
// pod with a claim, its early PreScore finds no PreFilter state and the
// cycle scores after Filter. The engine, checked against the plain cycle
// (WithEngineCheck), decides as it does when two nodes fit with
// different VolumeBinding scores.
func TestVolumeBindingFastPathFallsBack(t *testing.T) {
	snap := volumeCluster(t)
	class := "local"
	pvB := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-b"}, Spec: api.PersistentVolumeSpec{
		StorageClassName: class, Capacity: api.ResourceList{api.ResourceStorage: resource.MustParse("100Gi")},
		NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{"node-b"}}}}}}}},
		Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}}
	if err := snap.AddObject(pvB); err != nil {
		t.Fatal(err)
	}
	// Enough nodes for the engine's parallel, eager pass; only node-a
	// and node-b have a volume for the claim.
	for _, n := range benchNodes(300) {
		if err := snap.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(snap, WithEngineCheck(true), WithPercentageOfNodesToScore(100), WithParallelism(2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	pod := podWithClaim("p1", "c1")
	got, err := s.Schedule(ctx, pod)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := s.Explain(ctx, pod)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Tied) == 0 || got.Node == "" {
		t.Fatalf("schedule %q, explain %+v", got.Node, ex)
	}
	var totals []int64
	for _, n := range ex.Nodes {
		for _, sc := range n.Scores {
			if sc.Plugin == "VolumeBinding" {
				totals = append(totals, sc.Normalized)
			}
		}
	}
	t.Logf("VolumeBinding scores %v on %v, pick %s", totals, ex.Tied, ex.Node)
	if len(totals) != 2 || totals[0] == totals[1] {
		t.Errorf("VolumeBinding scores %v, want two different ones", totals)
	}
	if got.Node != "node-b" {
		t.Errorf("Schedule picked %q, want node-b", got.Node)
	}
	if got.Node != ex.Node {
		t.Errorf("Schedule picked %q, Explain %q", got.Node, ex.Node)
	}
	plain, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	plain.plain = true
	want, err := plain.Schedule(ctx, pod)
	if err != nil || want.Node != got.Node {
		t.Errorf("plain cycle picked %q (%v), engine %q", want.Node, err, got.Node)
	}
}
