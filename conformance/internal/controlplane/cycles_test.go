package controlplane

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
)

// TestCycleLogLateDelete pins the removal of a pod recorded once when the
// informer's delete reaches the log after a cycle found the pod gone from
// its snapshot (the scheduler's handler ran first). Before the fix, the
// late delete put the pod back among the pending removals and Cycles
// reported it removed twice.
func TestCycleLogLateDelete(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "p", UID: "uid-p"}, Spec: v1.PodSpec{NodeName: "n1"}}
	q := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "q", UID: "uid-q"}}
	var l cycleLog
	l.cycleStart(p, schedcache.NewSnapshot(nil, []*v1.Node{node}))
	l.add(CycleReserve, p, "n1")
	l.terminating(p, false)
	// The snapshot of q's cycle no longer holds p.
	l.cycleStart(q, schedcache.NewSnapshot(nil, []*v1.Node{node}))
	l.terminating(p, true)
	cp := &ControlPlane{}
	cp.cycles.cycles = l.cycles
	cp.cycles.pending = l.pending
	var got []CycleStep
	for _, c := range cp.Cycles() {
		got = append(got, c.Step)
	}
	want := []CycleStep{CycleStart, CycleReserve, CycleRemoved, CycleStart}
	if len(got) != len(want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("steps %v, want %v", got, want)
		}
	}
}
