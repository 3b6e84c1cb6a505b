package scheduler_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// Trying a change in a fork, then keeping it or throwing it away: what
// if node-b were removed, would the batch still place?
func ExampleScheduler_Fork() {
	snap, err := cluster.NewSnapshot([]*api.Node{node("node-a", "4", nil), node("node-b", "4", nil)}, nil)
	if err != nil {
		panic(err)
	}
	s, err := scheduler.New(snap)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()

	tx, err := s.Fork()
	if err != nil {
		panic(err)
	}
	defer tx.Close()
	if err := tx.RemoveNode("node-b"); err != nil {
		panic(err)
	}
	placed, err := tx.Simulate(ctx, []*api.Pod{pod("web-1", "3"), pod("web-2", "3")})
	if err != nil {
		panic(err)
	}
	for _, p := range placed {
		fmt.Printf("%s: %s\n", p.Pod.Name, p.Outcome())
	}
	// One pod stays pending: throw the fork's changes away.
	if err := tx.Revert(); err != nil {
		panic(err)
	}
	fmt.Println("nodes after revert:", s.Snapshot().NumNodes(), tx.Snapshot().NumNodes())

	// Place the batch on the fork, then keep it.
	if _, err := tx.Simulate(ctx, []*api.Pod{pod("web-1", "3"), pod("web-2", "3")}); err != nil {
		panic(err)
	}
	if err := tx.Commit(); err != nil {
		panic(err)
	}
	fmt.Println("pods after commit:", s.Snapshot().NumPods())
	// Output:
	// web-1: placed
	// web-2: unschedulable
	// nodes after revert: 2 2
	// pods after commit: 2
}
