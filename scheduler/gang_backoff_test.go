package scheduler

import (
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// TestGroupBackoff pins upstream's calculateBackoffDuration with the
// default 1 s and 10 s (backoff_queue_test.go's
// TestBackoffQueue_calculateBackoffDuration): doubling per failure, at
// most 10 s times the square root of the entity's size.
func TestGroupBackoff(t *testing.T) {
	for _, c := range []struct {
		failures, size int
		want           time.Duration
	}{
		{0, 1, 0},
		{1, 1, time.Second},
		{2, 8, 2 * time.Second},
		{4, 1, 8 * time.Second},
		{5, 1, 10 * time.Second},
		{5, 4, 16 * time.Second},
		{6, 4, 20 * time.Second},
		{100, 1, 10 * time.Second},
	} {
		if got := groupBackoff(c.failures, c.size); got != c.want {
			t.Errorf("groupBackoff(%d, %d) = %v, want %v", c.failures, c.size, got, c.want)
		}
	}
}

// TestFlushBackoffOrder: once the active queue is empty, the backed-off
// groups leave one at a time in the order of their backoff's end on the
// simulated clock, as SchedulerPopFromBackoffQ pops
// lessBackoffCompletedWithPriority's head: a group that failed once
// (1 s) before one that failed twice (2 s) though it failed later; at
// equal ends, the active queue's order (priority). A group that failed
// after the last cluster event stays.
func TestFlushBackoffOrder(t *testing.T) {
	s := gangScheduler(t, []*api.Node{gangNode("n", "1")}, nil, "GenericWorkload=true")
	prof, err := s.profileFor(gangPod("x", "1", "a"))
	if err != nil {
		t.Fatal(err)
	}
	q := newQueue()
	member := func(name, group string, prio int32, failures int, at int64) *entry {
		p := gangPod(name, "1", group)
		p.Spec.Priority = &prio
		e := &entry{qpi: framework.QueuedPodInfo{Pod: p, Timestamp: q.tick()}, prof: prof, order: len(q.all),
			where: inUnschedulable, backoff: true, backoffAt: at, failures: failures}
		q.all = append(q.all, e)
		q.parked = append(q.parked, e)
		return e
	}
	member("a-0", "a", 0, 2, 0)
	member("a-1", "a", 0, 2, 0)
	member("b-0", "b", 0, 1, 0)
	member("c-0", "c", 5, 1, 0)
	member("d-0", "d", 9, 1, 1) // failed after the last event
	q.events = 1
	var order []string
	for {
		n := q.flushBackoff()
		if n == 0 {
			break
		}
		var names []string
		for e := q.pop(); e != nil; e = q.pop() {
			names = append(names, e.qpi.Pod.Name)
		}
		if len(names) != n {
			t.Fatalf("moved %d, popped %v", n, names)
		}
		order = append(order, names...)
	}
	want := []string{"c-0", "b-0", "a-0", "a-1"}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if len(q.parked) != 1 || q.parked[0].qpi.Pod.Name != "d-0" {
		t.Errorf("left parked: %d, want d-0 alone", len(q.parked))
	}
}
