package scheduler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

func boundPrioPod(name string, prio int32, cpu string, node string, start int64) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}}
	p.Spec.Priority = &prio
	p.Spec.NodeName = node
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}
	if node != "" {
		t := api.NewTime(time.Unix(start, 0))
		p.Status.StartTime = &t
	}
	return p
}

func cpuNode(name, cpu string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
	n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("110")}
	return n
}

// Simulate carries a preemption through: the first cycle nominates the
// node and evicts the victims, the next places the pod there; pods of
// lower priority nominated to the node lose their nomination.
func TestSimulatePreemption(t *testing.T) {
	var bound []*api.Pod
	for i := range 4 {
		bound = append(bound, boundPrioPod(fmt.Sprintf("low-%d", i), 0, "1", "n1", int64(i)))
	}
	snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("n1", "4"), cpuNode("n2", "1")}, bound)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	high := boundPrioPod("high", 1000, "2", "", 0)
	mid := boundPrioPod("mid", 10, "3", "", 0)
	mid.Status.NominatedNodeName = "n1"
	out, err := s.Simulate(context.Background(), []*api.Pod{mid, high})
	if err != nil {
		t.Fatal(err)
	}
	h := out[1]
	if h.Node != "n1" || h.Attempts != 2 || len(h.Preemptions) != 1 {
		t.Fatalf("high: node %q attempts %d preemptions %+v (%v)", h.Node, h.Attempts, h.Preemptions, h.Err)
	}
	p := h.Preemptions[0]
	if p.Attempt != 1 || p.Node != "n1" || len(p.Victims) != 2 || p.Victims[0].Name != "low-2" || p.Victims[1].Name != "low-3" {
		t.Fatalf("preemption %+v", p)
	}
	for _, v := range p.Victims {
		if _, _, ok := s.Snapshot().Pod("default", v.Name); ok {
			t.Errorf("victim %s still in the snapshot", v.Name)
		}
	}
	// mid (priority 10) then preempts the rest of n1's priority-0 pods?
	// No: high now holds 2 of n1's 4 cpus and low-0, low-1 the rest;
	// mid needs 3, so it evicts both and still does not fit beside high.
	m := out[0]
	if m.Node != "" || m.Pod.Status.NominatedNodeName != "" {
		t.Errorf("mid: node %q nominated %q (%v)", m.Node, m.Pod.Status.NominatedNodeName, m.Err)
	}
}

// A pod that fits nowhere and preempts nobody keeps no nomination, and
// the FitError carries upstream's PostFilter message.
func TestScheduleNoPreemption(t *testing.T) {
	snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("n1", "1")}, []*api.Pod{boundPrioPod("same", 5, "1", "n1", 0)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Schedule(context.Background(), boundPrioPod("p", 5, "1", "", 0))
	want := "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v", err)
	}
	if r := res.PostFilterResult; r == nil || r.NominatedNodeName != "" || len(r.Victims) != 0 {
		t.Errorf("PostFilterResult = %+v", r)
	}
}
