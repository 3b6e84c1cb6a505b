package priorities

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

func makeImageNode(name string, status api.NodeStatus) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: status}
}

func images(names ...string) []api.Container {
	cs := make([]api.Container, len(names))
	for i, n := range names {
		cs[i] = api.Container{Name: fmt.Sprintf("c%d", i), Image: n}
	}
	return cs
}

func ExampleImageLocality() {
	node := makeImageNode("n1", api.NodeStatus{Images: []api.ContainerImage{{Names: []string{"nginx:latest"}, SizeBytes: 500 * mb}}})
	pod := &api.Pod{Spec: api.PodSpec{Containers: images("nginx")}}
	// One image of 500Mi on 1 of 2 nodes: 100*(250Mi-23Mi)/(1000Mi-23Mi).
	fmt.Println(ImageLocality(pod, cluster.NewNodeInfo(node), 2))
	// Output: 23
}

// checkImageScoreNodes checks that ImageLocality's ScoreNodes, after
// PreScore, gives each node its wanted score (once per node, and over a
// list repeating every node, as the nodes of a pool follow each other).
func checkImageScoreNodes(t *testing.T, p framework.Plugin, pod *api.Pod, snap *cluster.Snapshot, nodes []*api.Node, want framework.NodeScoreList) {
	t.Helper()
	var infos []*cluster.NodeInfo
	var wants []int64
	for rep := range 2 {
		for i, n := range nodes {
			ni, _ := snap.Get(n.Name)
			for range rep + 1 {
				infos = append(infos, ni)
				wants = append(wants, want[i].Score)
			}
		}
	}
	state := framework.NewCycleState()
	if st := p.(framework.PreScorePlugin).PreScore(t.Context(), state, pod, infos); !st.IsSuccess() {
		t.Fatal(st)
	}
	scores := make([]int64, len(infos))
	if i, st := framework.FastPathOf(p).ScoreNodes(t.Context(), state, pod, infos, scores); i >= 0 || !st.IsSuccess() {
		t.Fatalf("ScoreNodes: %d, %v", i, st)
	}
	for i, w := range wants {
		if scores[i] != w {
			t.Errorf("ScoreNodes: node %d (%s) = %d, want %d", i, infos[i].Name(), scores[i], w)
		}
	}
}
