package scheduler

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// After Close, the scheduler has left no goroutine behind: the process
// has the goroutines it had before New, though cycles used helpers. A
// closed scheduler still schedules, on the calling goroutine.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	s := benchScheduler(t, benchNodes(1200), WithParallelism(4), WithPercentageOfNodesToScore(100))
	ctx := context.Background()
	pods := benchPods(20)
	for _, p := range pods[:10] {
		res, err := s.Schedule(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Assume(p, res.Node); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.NumGoroutine() == before {
		t.Fatal("no helper goroutine was started: the test proves nothing")
	}
	s.Close()
	if got := runtime.NumGoroutine(); got != before {
		t.Fatalf("%d goroutines after Close, %d before New", got, before)
	}
	for _, p := range pods[10:] {
		if _, err := s.Schedule(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Millisecond)
	if got := runtime.NumGoroutine(); got != before {
		t.Fatalf("%d goroutines after cycles on a closed scheduler, %d before New", got, before)
	}
}
