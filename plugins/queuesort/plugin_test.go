package queuesort

import (
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// Ported from upstream queuesort TestLess.
func TestPrioritySortLess(t *testing.T) {
	prio := func(p int32, ts time.Time) *framework.QueuedPodInfo {
		return &framework.QueuedPodInfo{Pod: &api.Pod{Spec: api.PodSpec{Priority: &p}}, Timestamp: ts}
	}
	t1 := time.Now()
	t2 := t1.Add(time.Second)
	for _, tt := range []struct {
		name string
		a, b *framework.QueuedPodInfo
		want bool
	}{
		{"p1.priority less than p2.priority", prio(1, t1), prio(2, t1), false},
		{"p1.priority greater than p2.priority", prio(2, t1), prio(1, t1), true},
		{"equal priority. p1 is added to schedulingQ earlier than p2", prio(1, t1), prio(1, t2), true},
		{"equal priority. p2 is added to schedulingQ earlier than p1", prio(1, t2), prio(1, t1), false},
	} {
		if got := (PrioritySort{}).Less(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Less = %v", tt.name, got)
		}
	}
	// Unset priority is 0.
	if (PrioritySort{}).Less(&framework.QueuedPodInfo{Pod: &api.Pod{}, Timestamp: t1}, prio(0, t2)) != true {
		t.Error("nil priority is not 0")
	}
}
