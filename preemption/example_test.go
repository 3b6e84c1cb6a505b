package preemption_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// A priority-100000 pod over a node full of priority-0 pods: the first
// cycle preempts (DefaultPreemption nominates the node and picks the
// victims), Simulate evicts them, and the next cycle places the pod on
// the nominated node.
func Example() {
	var pods []*api.Pod
	for i := range 4 {
		pods = append(pods, mkPod(fmt.Sprintf("batch-%d", i), on("n1"), prio(0), req([2]string{"1", "1Gi"}), started(epoch(int64(i)))))
	}
	snap, _ := cluster.NewSnapshot([]*api.Node{mkNode("n1", "4", "16Gi", "110")}, pods)
	s, _ := scheduler.New(snap, scheduler.WithSeed(1))

	urgent := mkPod("urgent", prio(100000), req([2]string{"1500m", "1Gi"}))
	res, err := s.Schedule(context.Background(), urgent)
	fmt.Println(err)
	fmt.Println("nominated:", res.PostFilterResult.NominatedNodeName, "victims:", names(res.PostFilterResult.Victims))

	placements, _ := s.Simulate(context.Background(), []*api.Pod{urgent})
	for _, p := range placements {
		for _, pr := range p.Preemptions {
			fmt.Printf("attempt %d preempted %s on %s\n", pr.Attempt, names(pr.Victims), pr.Node)
		}
		fmt.Printf("%s -> %s after %d attempts\n", p.Pod.Name, p.Node, p.Attempts)
	}
	// Output:
	// 0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting 2 victims
	// nominated: n1 victims: batch-2,batch-3
	// attempt 1 preempted batch-2,batch-3 on n1
	// urgent -> n1 after 2 attempts
}
