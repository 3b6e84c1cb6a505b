package priorities

import (
	"fmt"

	"github.com/schedkit/schedkit/cluster"
)

func ExampleLeastAllocated() {
	node := makeNode("n1", map[string]string{"cpu": "4", "memory": "16Gi"})
	busy := makePod().node("n1").req(map[string]string{"cpu": "2", "memory": "4Gi"}).Obj()
	ni := cluster.NewNodeInfo(node, busy)
	pod := makePod().req(map[string]string{"cpu": "1", "memory": "4Gi"}).Obj()
	// cpu: (4000-3000)*100/4000 = 25; memory: (16-8)*100/16 = 50
	fmt.Println(LeastAllocated(pod, ni, nil), MostAllocated(pod, ni, nil))
	// Output: 37 62
}

func ExampleBalancedAllocation() {
	node := makeNodeMilli("n1", 4000, 8<<30, nil)
	ni := cluster.NewNodeInfo(node, makePod().node("n1").req(cpuAndMemory("2", "1Gi")).Obj())
	// The node is cpu-heavy (50% cpu, 12.5% memory, balance 81): a
	// memory-heavy pod balances it (52.5%/50%, balance 98) and scores
	// 50+(50+98-81)/2; a cpu-heavy one unbalances it (75%/13.7%,
	// balance 69) and scores 50+(50+69-81)/2.
	fmt.Println(BalancedAllocation(makePod().req(cpuAndMemory("100m", "3Gi")).Obj(), ni, nil))
	fmt.Println(BalancedAllocation(makePod().req(cpuAndMemory("1", "100Mi")).Obj(), ni, nil))
	// Output:
	// 83
	// 69
}
