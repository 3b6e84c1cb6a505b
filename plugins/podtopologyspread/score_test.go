package podtopologyspread

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// spreadScoreCase is a row of upstream's TestPodTopologySpreadScore:
// PreScore over nodes (failedNodes are in the snapshot but did not pass
// Filter), Score and NormalizeScore with System defaulting and the
// Services of objs in the snapshot.
type spreadScoreCase struct {
	name                      string
	pod                       *api.Pod
	existingPods              []*api.Pod
	nodes                     []*api.Node
	failedNodes               []*api.Node
	objs                      []any
	want                      framework.NodeScoreList
	enableNodeInclusionPolicy bool
	enableMatchLabelKeys      bool
}

func spreadHasPolicies(p *api.Pod) (policies, labelKeys bool) {
	for _, c := range p.Spec.TopologySpreadConstraints {
		policies = policies || c.NodeAffinityPolicy != nil || c.NodeTaintsPolicy != nil
		labelKeys = labelKeys || len(c.MatchLabelKeys) > 0
	}
	return policies, labelKeys
}

var _ = affinity.LabelHostname

func TestPodTopologySpreadScore(t *testing.T) {
	tests := []spreadScoreCase{
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, no existing pods"
			name: "one constraint on node, no existing pods",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, only one node is candidate"
			name: "one constraint on node, only one node is candidate",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, all nodes have the same number of matching pods"
			name: "one constraint on node, all nodes have the same number of matching pods",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, all 4 nodes are candidates"
			name: "one constraint on node, all 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			failedNodes: []*api.Node{},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 20},
				{Name: "node-b", Score: 60},
				{Name: "node-c", Score: 100},
				{Name: "node-d", Score: 0},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, null selector"
			name: "one constraint on node, null selector",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, nil, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 100},
				{Name: "node-c", Score: 100},
				{Name: "node-d", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, all 4 nodes are candidates, maxSkew=2"
			name: "one constraint on node, all 4 nodes are candidates, maxSkew=2",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(2, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
				spreadPod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			failedNodes: []*api.Node{},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 33},
				{Name: "node-b", Score: 66},
				{Name: "node-c", Score: 100},
				{Name: "node-d", Score: 16},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, all 4 nodes are candidates, maxSkew=3"
			name: "one constraint on node, all 4 nodes are candidates, maxSkew=3",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(3, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			failedNodes: []*api.Node{},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 44},
				{Name: "node-b", Score: 66},
				{Name: "node-c", Score: 77},
				{Name: "node-d", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "system defaulting, nodes don't have zone, pods match service"
			name: "system defaulting, nodes don't have zone, pods match service",
			pod:  spreadPod().Name("p").Label("foo", "").Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			failedNodes: []*api.Node{},
			objs: []any{
				&api.Service{ObjectMeta: api.ObjectMeta{Name: "svc"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": ""}}},
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 44},
				{Name: "node-b", Score: 66},
				{Name: "node-c", Score: 77},
				{Name: "node-d", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, 3 out of 4 nodes are candidates"
			name: "one constraint on node, 3 out of 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-x").Label(affinity.LabelHostname, "node-x").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-y").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 33},
				{Name: "node-b", Score: 83},
				{Name: "node-x", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key"
			name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("n", "node-b").Obj(),
				spreadNode().Name("node-x").Label(affinity.LabelHostname, "node-x").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-y").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 16},
				{Name: "node-b", Score: 0},
				{Name: "node-x", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "one constraint on zone, 3 out of 4 nodes are candidates"
			name: "one constraint on zone, 3 out of 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label(affinity.LabelHostname, "node-x").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-y").Label("zone", "zone2").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 75},
				{Name: "node-b", Score: 75},
				{Name: "node-x", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "two Constraints on zone and node, 2 out of 4 nodes are candidates"
			name: "two Constraints on zone and node, 2 out of 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label(affinity.LabelHostname, "node-x").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-x", Score: 63},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "two Constraints on zone, 2 out of 4 nodes are candidates"
			name: "two Constraints on zone, 2 out of 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "zone", api.ScheduleAnyway, barSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-b").Label("zone", "zone1").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 85},
				{Name: "node-x", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "two Constraints on zone and node, with different labelSelectors"
			name: "two Constraints on zone and node, with different labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label(affinity.LabelHostname, "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			failedNodes: []*api.Node{},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 60},
				{Name: "node-b", Score: 20},
				{Name: "node-x", Score: 100},
				{Name: "node-y", Score: 60},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods"
			name: "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-b").Label("bar", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label(affinity.LabelHostname, "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			failedNodes: []*api.Node{},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 60},
				{Name: "node-x", Score: 40},
				{Name: "node-y", Score: 0},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates"
			name: "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label(affinity.LabelHostname, "node-x").Obj(),
			},
			failedNodes: []*api.Node{
				spreadNode().Name("node-y").Label("zone", "zone2").Label(affinity.LabelHostname, "node-y").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 50},
				{Name: "node-b", Score: 25},
				{Name: "node-x", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "existing pods in a different namespace do not count"
			name: "existing pods in a different namespace do not count",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 33},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "terminating Pods should be excluded"
			name: "terminating Pods should be excluded",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
				spreadPod().Name("p-b").Node("node-b").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 100},
				{Name: "node-b", Score: 0},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "minDomains has no effect when ScheduleAnyway"
			name: "minDomains has no effect when ScheduleAnyway",
			pod: spreadPod().Name("p").Label("foo", "").SpreadConstraint(
				2,
				"node",
				api.ScheduleAnyway,
				fooSelector,
				spreadPtr[int32](10),
				nil,
				nil,
				nil,
			).Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 75},
				{Name: "node-b", Score: 75},
				{Name: "node-c", Score: 100},
			},
		},
		{ // upstream: TestPodTopologySpreadScore "NodeAffinityPolicy honoed with labelSelectors"
			name: "NodeAffinityPolicy honoed with labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 0},
				{Name: "node-b", Score: 33},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "NodeAffinityPolicy ignored with labelSelectors"
			name: "NodeAffinityPolicy ignored with labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 66},
				{Name: "node-b", Score: 100},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "NodeAffinityPolicy honoed with nodeAffinity"
			name: "NodeAffinityPolicy honoed with nodeAffinity",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityIn("foo", []string{""}, 0).
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 0},
				{Name: "node-b", Score: 33},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "NodeAffinityPolicy ignored with nodeAffinity"
			name: "NodeAffinityPolicy ignored with nodeAffinity",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityIn("foo", []string{""}, 0).
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 66},
				{Name: "node-b", Score: 100},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "NodeTaintsPolicy honored"
			name: "NodeTaintsPolicy honored",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, &honorPolicy, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 0},
				{Name: "node-b", Score: 33},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "NodeTaintsPolicy ignored"
			name: "NodeTaintsPolicy ignored",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Obj(),
				spreadNode().Name("node-c").Label("node", "node-c").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 66},
				{Name: "node-b", Score: 100},
				{Name: "node-c", Score: 100},
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestPodTopologySpreadScore "matchLabelKeys ignored when feature gate disabled"
			name: "matchLabelKeys ignored when feature gate disabled",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").Label("baz", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, []string{"baz"}).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, []string{"baz"}).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-c").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label("zone", "zone2").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label("zone", "zone2").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 60},
				{Name: "node-b", Score: 20},
				{Name: "node-c", Score: 60},
				{Name: "node-d", Score: 100},
			},
			enableMatchLabelKeys: false,
		},
		{ // upstream: TestPodTopologySpreadScore "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty"
			name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, spreadSel().Obj(), nil, nil, nil, []string{"foo"}).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, spreadSel().Obj(), nil, nil, nil, []string{"bar"}).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-c").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label("zone", "zone2").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label("zone", "zone2").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 60},
				{Name: "node-b", Score: 20},
				{Name: "node-c", Score: 60},
				{Name: "node-d", Score: 100},
			},
			enableMatchLabelKeys: true,
		},
		{ // upstream: TestPodTopologySpreadScore "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty"
			name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").Label("baz", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, []string{"baz"}).
				Obj(),
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Label("baz", "").Obj(),
				spreadPod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
				spreadPod().Name("p-c2").Node("node-c").Label("bar", "").Obj(),
				spreadPod().Name("p-d3").Node("node-c").Label("bar", "").Label("baz", "").Obj(),
			},
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label(affinity.LabelHostname, "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label(affinity.LabelHostname, "node-b").Obj(),
				spreadNode().Name("node-c").Label("zone", "zone2").Label(affinity.LabelHostname, "node-c").Obj(),
				spreadNode().Name("node-d").Label("zone", "zone2").Label(affinity.LabelHostname, "node-d").Obj(),
			},
			want: []framework.NodeScore{
				{Name: "node-a", Score: 60},
				{Name: "node-b", Score: 20},
				{Name: "node-c", Score: 60},
				{Name: "node-d", Score: 100},
			},
			enableMatchLabelKeys: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policies, labelKeys := spreadHasPolicies(tt.pod)
			if (policies && !tt.enableNodeInclusionPolicy) || (labelKeys && !tt.enableMatchLabelKeys) {
				t.Skip("row runs with a feature gate off that v1.37.2 has on")
			}
			all := append(append([]*api.Node{}, tt.nodes...), tt.failedNodes...)
			snap, err := cluster.NewSnapshot(all, tt.existingPods)
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.objs) > 0 {
				if err := snap.AddObjects(tt.objs...); err != nil {
					t.Fatal(err)
				}
			}
			pl, err := New(&config.PodTopologySpreadArgs{DefaultingType: config.SystemDefaulting}, testHandle{snap})
			if err != nil {
				t.Fatal(err)
			}
			p := pl.(*PodTopologySpread)
			ctx := context.Background()
			state := framework.NewCycleState()
			var filtered []*cluster.NodeInfo
			for _, n := range tt.nodes {
				ni, _ := snap.Get(n.Name)
				filtered = append(filtered, ni)
			}
			if st := p.PreScore(ctx, state, tt.pod, filtered); !st.IsSuccess() {
				t.Fatalf("PreScore: %v", st)
			}
			var got framework.NodeScoreList
			for _, ni := range filtered {
				s, st := p.Score(ctx, state, tt.pod, ni)
				if !st.IsSuccess() {
					t.Fatalf("Score: %v", st)
				}
				got = append(got, framework.NodeScore{Name: ni.Name(), Score: s})
			}
			if st := p.NormalizeScore(ctx, state, tt.pod, got); !st.IsSuccess() {
				t.Fatalf("NormalizeScore: %v", st)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want,+got):\n%s", diff)
			}
		})
	}
}

// PreScore counts the hostname constraint's pods of the nodes it is
// given; Score of a node it was not given counts them itself, and Score
// allocates nothing either way.
func TestSpreadScoreHostnameCounts(t *testing.T) {
	nodes := []*api.Node{
		spreadNode().Name("node-a").Label(affinity.LabelHostname, "node-a").Obj(),
		spreadNode().Name("node-b").Label(affinity.LabelHostname, "node-b").Obj(),
	}
	pods := []*api.Pod{
		spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
		spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
		spreadPod().Name("p-a3").Node("node-a").Label("foo", "").Terminating().Obj(),
		spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
		spreadPod().Name("p-b2").Node("node-b").Obj(),
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	pod := spreadPod().Name("p").Label("foo", "").
		SpreadConstraint(1, affinity.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj()
	pl, _ := New(nil, testHandle{snap})
	p := pl.(*PodTopologySpread)
	a, _ := snap.Get("node-a")
	b, _ := snap.Get("node-b")
	weight := priorities.SpreadTopologyWeight(2)
	for _, given := range [][]*cluster.NodeInfo{{a, b}, {a}} {
		ctx, state := context.Background(), framework.NewCycleState()
		if st := p.PreScore(ctx, state, pod, given); !st.IsSuccess() {
			t.Fatal(st)
		}
		if len(given) == 1 {
			weight = priorities.SpreadTopologyWeight(1)
		}
		for _, tc := range []struct {
			ni   *cluster.NodeInfo
			want int64
		}{{a, 2}, {b, 1}} {
			got, st := p.Score(ctx, state, pod, tc.ni)
			if want := int64(math.Round(priorities.SpreadScoreForCount(tc.want, 1, weight))); !st.IsSuccess() || got != want {
				t.Errorf("given %d nodes: Score(%s) = %d %v, want %d", len(given), tc.ni.Name(), got, st, want)
			}
			if n := testing.AllocsPerRun(10, func() { _, _ = p.Score(ctx, state, pod, tc.ni) }); n != 0 {
				t.Errorf("Score(%s) allocates %v", tc.ni.Name(), n)
			}
		}
	}
}
