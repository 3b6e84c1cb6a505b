package preemption_test

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// TestPostFilterAllocsPerNode: a dry run over full nodes allocates a few
// objects per attempt and none per node it tries but the victims' block
// (the nodes are copied into one NodeInfo's memory, the cycle state is
// not copied when no PreFilter extension is active, nor a status built
// per reprieve).
func TestPostFilterAllocsPerNode(t *testing.T) {
	const n = 300 // 100 tried: minCandidateNodesAbsolute
	var nodes []*api.Node
	var pods []*api.Pod
	var all []string
	for i := range n {
		name := fmt.Sprintf("node%d", i)
		all = append(all, name)
		nodes = append(nodes, mkNode(name, "400m", "4000", "32"))
		for j := range 4 {
			pods = append(pods, mkPod(fmt.Sprintf("p%d-%d", i, j), on(name), prio(lowPriority), req(smallRes), started(epoch(int64(j)))))
		}
	}
	h, err := newHandle(nodes, pods, nil, 1, nil, framework.ProfileConfig{})
	if err != nil {
		t.Fatal(err)
	}
	pod := mkPod("p", prio(highPriority), req(mediumRes))
	m := unsched(all...)
	allocs := testing.AllocsPerRun(20, func() {
		if r, _ := h.postFilter(pod, m); r == nil || r.NominatedNodeName == "" {
			t.Fatal("no nomination")
		}
	})
	const tried = 100
	if perNode := allocs / tried; perNode > 1 {
		t.Errorf("%.0f allocations for %d nodes tried (%.2f per node), want at most 1 per node", allocs, tried, perNode)
	}
	t.Logf("%.0f allocations, %.2f per node tried", allocs, allocs/tried)
}
