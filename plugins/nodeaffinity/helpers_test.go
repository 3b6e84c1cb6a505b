package nodeaffinity

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

func expr(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func nameIn(values ...string) api.NodeSelectorRequirement {
	return expr("metadata.name", api.NodeSelectorOpIn, values...)
}

// requiredPod is a pod whose required node affinity has the given terms.
func requiredPod(terms ...api.NodeSelectorTerm) *api.Pod {
	return &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}}}
}

func names(ns ...string) *framework.PreFilterResult {
	m := map[string]struct{}{}
	for _, n := range ns {
		m[n] = struct{}{}
	}
	return &framework.PreFilterResult{NodeNames: m}
}

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}

func preferred(weight int32, reqs ...api.NodeSelectorRequirement) api.PreferredSchedulingTerm {
	return api.PreferredSchedulingTerm{Weight: weight, Preference: api.NodeSelectorTerm{MatchExpressions: reqs}}
}

func labelledNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
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

func preScore(t testing.TB, p framework.Plugin, pod *api.Pod, snap *cluster.Snapshot) *framework.CycleState {
	state := framework.NewCycleState()
	if st := p.(framework.PreScorePlugin).PreScore(context.Background(), state, pod, snap.Nodes()); !st.IsSuccess() {
		t.Fatalf("%s PreScore: %v", p.Name(), st)
	}
	return state
}
