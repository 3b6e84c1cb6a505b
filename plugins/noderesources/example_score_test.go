package noderesources

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// The score half of NodeResourcesFit with the MostAllocated strategy, as
// the framework runs it: PreScore once per pod, then Score per node.
func ExampleNewFit_score() {
	pl, err := NewFit(&config.NodeResourcesFitArgs{
		ScoringStrategy: &config.ScoringStrategy{Type: config.MostAllocated},
	}, nil)
	if err != nil {
		panic(err)
	}
	nodes := []*api.Node{
		makeNode("empty", map[string]string{"cpu": "4", "memory": "8Gi"}),
		makeNode("busy", map[string]string{"cpu": "4", "memory": "8Gi"}),
	}
	snap, _ := cluster.NewSnapshot(nodes, []*api.Pod{makePod().node("busy").req(cpuAndMemory("2", "4Gi")).Obj()})
	pod := makePod().req(cpuAndMemory("1", "2Gi")).Obj()
	ctx, state := context.Background(), framework.NewCycleState()
	pl.(framework.PreScorePlugin).PreScore(ctx, state, pod, snap.Nodes())
	for _, name := range []string{"empty", "busy"} {
		ni, _ := snap.Get(name)
		score, _ := pl.(framework.ScorePlugin).Score(ctx, state, pod, ni)
		fmt.Println(name, score)
	}
	// Output:
	// empty 25
	// busy 75
}
