package nodeaffinity

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// Pins upstream nodeaffinity/node_affinity_test.go TestNodeAffinityPriority.
func TestNodeAffinityPriority(t *testing.T) {
	label1 := map[string]string{"foo": "bar"}
	label2 := map[string]string{"key": "value"}
	label3 := map[string]string{"az": "az1"}
	label4 := map[string]string{"abc": "az11", "def": "az22"}
	label5 := map[string]string{"foo": "bar", "key": "value", "az": "az1"}
	affinity1 := &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
		preferred(2, expr("foo", api.NodeSelectorOpIn, "bar"))}}
	affinity2 := &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
		preferred(2, expr("foo", api.NodeSelectorOpIn, "bar")),
		preferred(4, expr("key", api.NodeSelectorOpIn, "value")),
		preferred(5, expr("foo", api.NodeSelectorOpIn, "bar"), expr("key", api.NodeSelectorOpIn, "value"), expr("az", api.NodeSelectorOpIn, "az1")),
	}}
	podWith := func(na *api.NodeAffinity) *api.Pod {
		return &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: na}}}
	}
	tests := []struct {
		name         string
		pod          *api.Pod
		nodes        []*api.Node
		want         framework.NodeScoreList
		args         config.NodeAffinityArgs
		runPreScore  bool
		wantPreScore *framework.Status
	}{
		{name: "all nodes are same priority as NodeAffinity is nil", pod: &api.Pod{},
			nodes: []*api.Node{labelledNode("node1", label1), labelledNode("node2", label2), labelledNode("node3", label3)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}, {Name: "node3", Score: 0}}},
		{name: "Skip is returned in PreScore when NodeAffinity is nil", pod: &api.Pod{},
			nodes: []*api.Node{labelledNode("node1", label1)}, runPreScore: true, wantPreScore: framework.NewStatus(framework.Skip)},
		{name: "PreScore returns error when an incoming Pod has a broken affinity",
			pod:         podWith(&api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{preferred(2, expr("invalid key", api.NodeSelectorOpIn, "bar"))}}),
			nodes:       []*api.Node{labelledNode("node1", label1)},
			runPreScore: true,
			wantPreScore: framework.NewStatus(framework.Error, `[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', `+
				`and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`)},
		{name: "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero", pod: podWith(affinity1),
			nodes:       []*api.Node{labelledNode("node1", label4), labelledNode("node2", label2), labelledNode("node3", label3)},
			want:        framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}, {Name: "node3", Score: 0}},
			runPreScore: true},
		{name: "only node1 matches the preferred scheduling requirements of pod", pod: podWith(affinity1),
			nodes:       []*api.Node{labelledNode("node1", label1), labelledNode("node2", label2), labelledNode("node3", label3)},
			want:        framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: 0}, {Name: "node3", Score: 0}},
			runPreScore: true},
		{name: "all nodes matches the preferred scheduling requirements of pod but with different priorities ", pod: podWith(affinity2),
			nodes:       []*api.Node{labelledNode("node1", label1), labelledNode("node5", label5), labelledNode("node2", label2)},
			want:        framework.NodeScoreList{{Name: "node1", Score: 18}, {Name: "node5", Score: framework.MaxNodeScore}, {Name: "node2", Score: 36}},
			runPreScore: true},
		{name: "added affinity", pod: &api.Pod{},
			nodes:       []*api.Node{labelledNode("node1", label1), labelledNode("node2", label2)},
			want:        framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: 0}},
			args:        config.NodeAffinityArgs{AddedAffinity: affinity1},
			runPreScore: true},
		{name: "added affinity and pod has default affinity", pod: podWith(affinity1),
			nodes: []*api.Node{labelledNode("node1", label1), labelledNode("node2", label2), labelledNode("node3", label5)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 40}, {Name: "node2", Score: 60}, {Name: "node3", Score: framework.MaxNodeScore}},
			args: config.NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
				preferred(3, expr("key", api.NodeSelectorOpIn, "value"))}}},
			runPreScore: true},
		{name: "calculate the priorities correctly even if PreScore is not called", pod: podWith(affinity2),
			nodes: []*api.Node{labelledNode("node1", label1), labelledNode("node5", label5), labelledNode("node2", label2)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 18}, {Name: "node5", Score: framework.MaxNodeScore}, {Name: "node2", Score: 36}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(&tc.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			snap := snapshot(t, tc.nodes, nil)
			if tc.runPreScore {
				st := p.(framework.PreScorePlugin).PreScore(t.Context(), framework.NewCycleState(), tc.pod, snap.Nodes())
				if st.Code() != tc.wantPreScore.Code() || st.Message() != tc.wantPreScore.Message() {
					t.Fatalf("PreScore: %v %q, want %v %q", st.Code(), st.Message(), tc.wantPreScore.Code(), tc.wantPreScore.Message())
				}
				if !st.IsSuccess() {
					return
				}
			}
			got, sts := scoreNodes(t, p, tc.pod, snap, tc.nodes, tc.runPreScore)
			for _, st := range sts {
				if !st.IsSuccess() {
					t.Fatal(st)
				}
			}
			if tc.args.AddedAffinity == nil {
				for i, n := range tc.nodes {
					if raw, _ := priorities.NodeAffinity(tc.pod, n); raw != got[i].Score {
						t.Errorf("NodeAffinity(%s) = %d, plugin %d", n.Name, raw, got[i].Score)
					}
				}
			}
			p.(framework.ScorePlugin).ScoreExtensions().NormalizeScore(t.Context(), nil, tc.pod, got)
			checkScores(t, got, tc.want)
		})
	}
}

func TestNodeAffinityScoreAllocations(t *testing.T) {
	pod := &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{preferred(10, expr("disk", api.NodeSelectorOpIn, "ssd"))}}}}}
	nodes := []*api.Node{labelledNode("n", map[string]string{"disk": "ssd"})}
	snap := snapshot(t, nodes, nil)
	p, _ := New(nil, nil)
	state := preScore(t, p, pod, snap)
	sp := p.(framework.ScorePlugin)
	if a := testing.AllocsPerRun(100, func() { sp.Score(t.Context(), state, pod, snap.Nodes()[0]) }); a != 0 {
		t.Errorf("Score allocates %v times", a)
	}
}
