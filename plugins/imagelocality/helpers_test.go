package imagelocality

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// testHandle is a framework.Handle over a fixed snapshot.
type testHandle struct{ s *cluster.Snapshot }

func (h testHandle) Snapshot() *cluster.Snapshot { return h.s }

func snapshot(t testing.TB, nodes []*api.Node, pods []*api.Pod) *cluster.Snapshot {
	t.Helper()
	var bound []*api.Pod
	for _, p := range pods {
		if p.Spec.NodeName != "" { // upstream's cache ignores unbound pods
			bound = append(bound, p)
		}
	}
	s, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scoreNodes runs PreScore (when asked) and Score of p over the nodes of
// s in the order given, as the upstream tests do.
func scoreNodes(t *testing.T, p framework.Plugin, pod *api.Pod, s *cluster.Snapshot, nodes []*api.Node, preScore bool) (framework.NodeScoreList, []*framework.Status) {
	t.Helper()
	ctx := context.Background()
	state := framework.NewCycleState()
	if preScore {
		if st := p.(framework.PreScorePlugin).PreScore(ctx, state, pod, s.Nodes()); !st.IsSuccess() {
			t.Fatalf("PreScore: %v", st)
		}
	}
	var out framework.NodeScoreList
	var sts []*framework.Status
	for _, n := range nodes {
		ni, ok := s.Get(n.Name)
		if !ok {
			t.Fatalf("no node %s", n.Name)
		}
		score, st := p.(framework.ScorePlugin).Score(ctx, state, pod, ni)
		out = append(out, framework.NodeScore{Name: n.Name, Score: score})
		sts = append(sts, st)
	}
	return out, sts
}

func checkScores(t *testing.T, got, want framework.NodeScoreList) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scores (-want,+got):\n%s", diff)
	}
}
