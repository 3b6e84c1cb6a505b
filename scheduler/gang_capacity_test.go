package scheduler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/podgroup"
)

// TestGangCapacity: copies of a gang are placed whole, one after the
// other; the next copy's first member that fits nowhere says why, and it
// leaves nothing in the snapshot.
func TestGangCapacity(t *testing.T) {
	ctx := context.Background()
	s := gangScheduler(t, []*api.Node{gangNode("n1", "4"), gangNode("n2", "4")}, nil, "GenericWorkload=true")
	shape := GangShape{PodGroup: gangGroup("train", 3), Member: gangPod("worker", "1", "")}
	got, err := s.GangCapacity(ctx, shape, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Gangs) != 2 {
		t.Fatalf("gangs: %+v", got.Gangs)
	}
	g := got.Gangs[1]
	if g.PodGroup != "default/train-copy-2" || len(g.Nodes) != 3 || g.Pods[0] != "train-copy-2-0" {
		t.Fatalf("second gang: %+v", g)
	}
	var fe *FitError
	if !errors.As(got.Next, &fe) || got.NextPod == nil || got.NextPod.Name != "train-copy-3-2" {
		t.Fatalf("next: %v (%v)", got.Next, got.NextPod)
	}
	if want := "0/2 nodes are available: 2 Insufficient cpu."; got.Next.Error() != want {
		t.Fatalf("next: %q, want %q", got.Next, want)
	}
	requested := int64(0)
	for _, ni := range s.Snapshot().View().Nodes() {
		requested += ni.Requested.MilliCPU
	}
	if requested != 6000 {
		t.Fatalf("requested %dm, want 6000m: the failed copy holds nothing", requested)
	}
	if _, ok := (handle{s}).PodGroup(podgroupKey("train-copy-3")); ok {
		t.Fatal("the failed copy's PodGroup is left in the snapshot")
	}

	// The limit stops the count with no Next.
	s = gangScheduler(t, []*api.Node{gangNode("n1", "4")}, nil, "GenericWorkload=true")
	got, err = s.GangCapacity(ctx, shape, 1)
	if err != nil || len(got.Gangs) != 1 || got.Next != nil {
		t.Fatalf("limit: %+v, %v", got, err)
	}

	// A gated member: its GatedError.
	gated := shape
	gated.Member = gangPod("worker", "1", "")
	gated.Member.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/wait"}}
	got, err = s.GangCapacity(ctx, gated, 10)
	var ge *GatedError
	if err != nil || len(got.Gangs) != 0 || !errors.As(got.Next, &ge) || !strings.Contains(got.Next.Error(), "example.com/wait") {
		t.Fatalf("gated: %+v, %v", got, err)
	}

	// The gate off: an error.
	s = gangScheduler(t, []*api.Node{gangNode("n1", "4")}, nil, "")
	if _, err := s.GangCapacity(ctx, shape, 10); !errors.Is(err, ErrNoPodGroup) {
		t.Fatalf("gate off: %v", err)
	}
}

func podgroupKey(name string) podgroup.Key { return podgroup.Key{Namespace: "default", Name: name} }
