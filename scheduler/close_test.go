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
	before := settledGoroutines()
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
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("%d goroutines after Close, %d before New", got, before)
	}
	for _, p := range pods[10:] {
		if _, err := s.Schedule(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Millisecond)
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("%d goroutines after cycles on a closed scheduler, %d before New", got, before)
	}
}

// settledGoroutines returns the number of goroutines once goroutines of
// earlier tests that are on their way out have gone.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// goroutinesAtMost waits up to a second for the number of goroutines to
// drop to n and returns it.
func goroutinesAtMost(n int) int {
	got := runtime.NumGoroutine()
	for i := 0; got > n && i < 1000; i++ {
		time.Sleep(time.Millisecond)
		got = runtime.NumGoroutine()
	}
	return got
}
