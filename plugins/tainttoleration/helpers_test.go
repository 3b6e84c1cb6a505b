package tainttoleration

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

func nodeWithTaints(name string, ts []api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Taints: ts}}
}

func podWithTolerations(name string, tols []api.Toleration) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{Tolerations: tols}}
}

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}

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
