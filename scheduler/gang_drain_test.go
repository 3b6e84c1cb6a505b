package scheduler

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/podgroup"
)

// gangDrainScheduler has nodes n1 and n2 of 2 cpus, each with two
// bound members of gang g (minCount 4, Job-owned, 1 cpu each), and n3
// of n3CPU cpus.
func gangDrainScheduler(t *testing.T, n3CPU string) *Scheduler {
	t.Helper()
	nodes := []*api.Node{gangNode("n1", "2"), gangNode("n2", "2"), gangNode("n3", n3CPU)}
	var pods []*api.Pod
	for i := range 4 {
		p := gangPod(fmt.Sprintf("g-%d", i), "1", "g")
		p.Spec.NodeName = []string{"n1", "n1", "n2", "n2"}[i]
		p.Status.Phase = api.PodRunning
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "g", Controller: ptr(true)}}
		pods = append(pods, p)
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObject(gangGroup("g", 4)); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, WithFeatureGates(featuregates.MustParse("GenericWorkload=true")))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDrainGang: with GenericWorkload on, the replacements of a placed
// gang's members join their PodGroup as new pods do upstream: one
// PodGroup cycle over them, the members still scheduled counting toward
// minCount, all of them placed or none.
func TestDrainGang(t *testing.T) {
	ctx := context.Background()
	s := gangDrainScheduler(t, "2")
	rep, err := s.Drain(ctx, []string{"n1"}, time.Unix(0, 0), DrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Pods {
		if p.Placement.Node != "n3" {
			t.Errorf("%s: %+v", p.Pod.Name, p.Placement)
		}
	}
	if len(rep.Gangs) != 1 || rep.Gangs[0].Message != "2 pod(s) join the gang's 2 scheduled on nodes n3" {
		t.Fatalf("gangs: %+v", rep.Gangs)
	}

	// Room for one replacement only: neither is placed.
	s = gangDrainScheduler(t, "1")
	rep, err = s.Drain(ctx, []string{"n1"}, time.Unix(0, 0), DrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Pods {
		if p.Placement.Node != "" || p.Placement.Err == nil {
			t.Errorf("%s: %+v", p.Pod.Name, p.Placement)
		}
	}
	if n := s.scheduledCount(podgroup.Key{Namespace: "default", Name: "g"}); n != 2 {
		t.Fatalf("%d members scheduled, want the 2 left on n2", n)
	}
	if len(rep.Gangs) != 1 || !strings.HasPrefix(rep.Gangs[0].Message, "does not fit: ") || !strings.Contains(rep.Gangs[0].Message, "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining") {
		t.Fatalf("gangs: %+v", rep.Gangs)
	}
}
