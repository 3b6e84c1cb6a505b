package tainttoleration

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// Pins upstream tainttoleration/taint_toleration_test.go
// TestTaintTolerationScore (the cases with the comparison-operator gate
// off, its default), PreScore, Score and NormalizeScore.
func TestTaintTolerationScore(t *testing.T) {
	pns := api.TaintEffectPreferNoSchedule
	tests := []struct {
		name  string
		pod   *api.Pod
		nodes []*api.Node
		want  framework.NodeScoreList
	}{
		{
			name: "node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: pns}}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{{Key: "foo", Value: "bar", Effect: pns}}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "foo", Value: "blah", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: 0}},
		},
		{
			name: "the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "cpu-type", Operator: api.TolerationOpEqual, Value: "arm64", Effect: pns},
				{Key: "disk-type", Operator: api.TolerationOpEqual, Value: "ssd", Effect: pns},
			}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}}),
				nodeWithTaints("nodeC", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}, {Key: "disk-type", Value: "ssd", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: framework.MaxNodeScore}, {Name: "nodeC", Score: framework.MaxNodeScore}},
		},
		{
			name: "the more intolerable taints a node has, the lower score it gets.",
			pod:  podWithTolerations("pod1", []api.Toleration{{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: pns}}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}}),
				nodeWithTaints("nodeC", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}, {Key: "disk-type", Value: "ssd", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: 50}, {Name: "nodeC", Score: 0}},
		},
		{
			name: "only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "cpu-type", Operator: api.TolerationOpEqual, Value: "arm64", Effect: api.TaintEffectNoSchedule},
				{Key: "disk-type", Operator: api.TolerationOpEqual, Value: "ssd", Effect: api.TaintEffectNoSchedule},
			}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: api.TaintEffectNoSchedule}}),
				nodeWithTaints("nodeC", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}, {Key: "disk-type", Value: "ssd", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: framework.MaxNodeScore}, {Name: "nodeC", Score: 0}},
		},
		{
			name: "Default behaviour No taints and tolerations, lands on node with no taints",
			pod:  podWithTolerations("pod1", []api.Toleration{}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "cpu-type", Value: "arm64", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: 0}},
		},
		// Beyond upstream's table: a toleration without effect counts, and
		// Gt/Lt tolerate nothing with the gate off.
		{
			name: "empty-effect toleration and Gt with the gate off",
			pod: podWithTolerations("pod1", []api.Toleration{
				{Key: "a", Operator: api.TolerationOpExists},
				{Key: "sla", Operator: "Gt", Value: "1", Effect: pns},
			}),
			nodes: []*api.Node{
				nodeWithTaints("nodeA", []api.Taint{{Key: "a", Effect: pns}}),
				nodeWithTaints("nodeB", []api.Taint{{Key: "sla", Value: "9", Effect: pns}}),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: framework.MaxNodeScore}, {Name: "nodeB", Score: 0}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := New(nil, nil)
			snap := snapshot(t, tc.nodes, nil)
			got, sts := scoreNodes(t, p, tc.pod, snap, tc.nodes, true)
			for _, st := range sts {
				if !st.IsSuccess() {
					t.Fatal(st)
				}
			}
			for i, n := range tc.nodes {
				if got[i].Score != priorities.TaintToleration(tc.pod, n) {
					t.Errorf("plain TaintToleration on %s = %d, plugin %d", n.Name, priorities.TaintToleration(tc.pod, n), got[i].Score)
				}
			}
			if st := p.(framework.ScorePlugin).ScoreExtensions().NormalizeScore(t.Context(), nil, tc.pod, got); !st.IsSuccess() {
				t.Fatal(st)
			}
			checkScores(t, got, tc.want)
		})
	}
	// Score without PreScore is an error, as upstream.
	p, _ := New(nil, nil)
	if _, st := p.(framework.ScorePlugin).Score(t.Context(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(&api.Node{})); st.Code() != framework.Error {
		t.Errorf("Score without PreScore: %v", st)
	}
}
