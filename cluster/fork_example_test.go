package cluster_test

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// A fork changes on its own and copies only what it changes; Reset
// commits it to its origin.
func ExampleSnapshot_Fork() {
	s, err := cluster.NewSnapshot([]*api.Node{node("a", "zone-1", "4"), node("b", "zone-2", "4")}, []*api.Pod{pod("web", "a", "1", 0)})
	if err != nil {
		panic(err)
	}
	f := s.Fork()
	if err := f.RemoveNode("b"); err != nil {
		panic(err)
	}
	if err := f.AssumePod(pod("db", "", "2", 0), "a"); err != nil {
		panic(err)
	}
	fmt.Println("origin:", s.NumNodes(), "nodes,", s.NumPods(), "pods; fork:", f.NumNodes(), "nodes,", f.NumPods(), "pods")
	if err := s.Reset(f); err != nil { // commit the fork's changes
		panic(err)
	}
	fmt.Println("origin after Reset:", s.NumNodes(), "nodes,", s.NumPods(), "pods")
	// Output:
	// origin: 2 nodes, 1 pods; fork: 1 nodes, 2 pods
	// origin after Reset: 1 nodes, 2 pods
}
