package podtopologyspread

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

type spreadHandle struct{ s *cluster.Snapshot }

func (h spreadHandle) Snapshot() *cluster.Snapshot { return h.s }

// spreadFilterCase is a row of upstream's TestSingleConstraint or
// TestMultipleConstraints: the Filter code of every node after PreFilter
// over all nodes, with List defaulting (no default constraints).
type spreadFilterCase struct {
	name                      string
	pod                       *api.Pod
	nodes                     []*api.Node
	existingPods              []*api.Pod
	wantStatusCode            map[string]framework.Code
	enableNodeInclusionPolicy bool
}

// hasPolicies reports whether some constraint sets a node inclusion
// policy: upstream runs such rows with the policy gate both ways, and
// only the gate-on answer is v1.37.2's (the gate is locked on).
func hasPolicies(p *api.Pod) bool {
	for _, c := range p.Spec.TopologySpreadConstraints {
		if c.NodeAffinityPolicy != nil || c.NodeTaintsPolicy != nil {
			return true
		}
	}
	return false
}

func runSpreadFilterCases(t *testing.T, tests []spreadFilterCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.enableNodeInclusionPolicy && hasPolicies(tt.pod) {
				t.Skip("row runs with NodeInclusionPolicyInPodTopologySpread off; v1.37.2 has it locked on")
			}
			snap, err := cluster.NewSnapshot(tt.nodes, tt.existingPods)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := New(&config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting}, spreadHandle{snap})
			if err != nil {
				t.Fatal(err)
			}
			p := pl.(*PodTopologySpread)
			ctx := context.Background()
			state := framework.NewCycleState()
			if _, s := p.PreFilter(ctx, state, tt.pod, snap.Nodes()); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			for _, node := range tt.nodes {
				ni, _ := snap.Get(node.Name)
				st := p.Filter(ctx, state, tt.pod, ni)
				if st.Code() != tt.wantStatusCode[node.Name] {
					t.Errorf("%s: code %v, want %v (%v)", node.Name, st.Code(), tt.wantStatusCode[node.Name], st)
				}
				switch st.Code() {
				case framework.Unschedulable:
					if st.Message() != ErrReasonConstraintsNotMatch {
						t.Errorf("%s: reason %q", node.Name, st.Message())
					}
				case framework.UnschedulableAndUnresolvable:
					if st.Message() != ErrReasonNodeLabelNotMatch {
						t.Errorf("%s: reason %q", node.Name, st.Message())
					}
				}
			}
		})
	}
}

var _ = affinity.LabelHostname

func TestSpreadSingleConstraint(t *testing.T) {
	runSpreadFilterCases(t, []spreadFilterCase{
		{ // upstream: TestSingleConstraint "no existing pods"
			name: "no existing pods",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "no existing pods, incoming pod doesn't match itself"
			name: "no existing pods, incoming pod doesn't match itself",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "existing pods in a different namespace do not count"
			name: "existing pods in a different namespace do not count",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Namespace("ns2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "existing pods do not match null selector"
			name: "existing pods do not match null selector",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, nil, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across zones as 3/3, all nodes fit"
			name: "pods spread across zones as 3/3, all nodes fit",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across zones as 1/2 due to absence of label 'zone' on node-b"
			name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zon", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.UnschedulableAndUnresolvable,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "pod cannot be scheduled as all nodes don't have label 'rack'"
			name: "pod cannot be scheduled as all nodes don't have label 'rack'",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "rack", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.UnschedulableAndUnresolvable,
				"node-x": framework.UnschedulableAndUnresolvable,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across nodes as 2/1/0/3, only node-x fits"
			name: "pods spread across nodes as 2/1/0/3, only node-x fits",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit"
			name: "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(2, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across nodes as 2/1/0/3, but pod doesn't match itself"
			name: "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
			pod: spreadPod().Name("p").Label("bar", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits"
			name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityIn("node", []string{"node-a", "node-y"}, 0).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "terminating Pods should be excluded"
			name: "terminating Pods should be excluded",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
				spreadPod().Name("p-b").Node("node-b").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits"
			name: "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityNotIn("node", []string{"node-b"}).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits"
			name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
			pod: spreadPod().Name("p").Label("foo", "").SpreadConstraint(
				2,
				"node",
				api.DoNotSchedule,
				fooSelector,
				spreadPtr[int32](4),
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
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-c": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit"
			name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
			pod: spreadPod().Name("p").Label("foo", "").SpreadConstraint(
				2,
				"node",
				api.DoNotSchedule,
				fooSelector,
				spreadPtr[int32](2),
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
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-c": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit"
			name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
			pod: spreadPod().Name("p").Label("foo", "").SpreadConstraint(
				2,
				"zone",
				api.DoNotSchedule,
				fooSelector,
				spreadPtr[int32](3),
				nil,
				nil,
				nil,
			).Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit"
			name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
			pod: spreadPod().Name("p").Label("foo", "").SpreadConstraint(
				2,
				"zone",
				api.DoNotSchedule,
				fooSelector,
				spreadPtr[int32](1),
				nil,
				nil,
				nil,
			).Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestSingleConstraint "NodeAffinityPolicy honored with labelSelectors"
			name: "NodeAffinityPolicy honored with labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestSingleConstraint "NodeAffinityPolicy ignored with labelSelectors"
			name: "NodeAffinityPolicy ignored with labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestSingleConstraint "NodeAffinityPolicy honored with nodeAffinity"
			name: "NodeAffinityPolicy honored with nodeAffinity",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityIn("foo", []string{""}, 0).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestSingleConstraint "NodeAffinityPolicy ignored with labelSelectors"
			name: "NodeAffinityPolicy ignored with labelSelectors",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeAffinityIn("foo", []string{""}, 0).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestSingleConstraint "NodeTaintsPolicy honored"
			name: "NodeTaintsPolicy honored",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestSingleConstraint "NodeTaintsPolicy ignored"
			name: "NodeTaintsPolicy ignored",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("node", "node-y").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
	})
}

func TestSpreadMultipleConstraints(t *testing.T) {
	runSpreadFilterCases(t, []spreadFilterCase{
		{ // upstream: TestMultipleConstraints "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]"
			name: "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]"
			name: "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]"
			name: "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]"
			name: "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]"
			name: "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Success,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint"
			name: "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
			pod: spreadPod().Name("p").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Success,
				"node-b": framework.Success,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]"
			name: "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Success,
				"node-x": framework.UnschedulableAndUnresolvable,
				"node-y": framework.Unschedulable,
			},
		},
		{ // upstream: TestMultipleConstraints "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore"
			name: "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestMultipleConstraints "two node inclusion Constraints, zone: honor/honor, node: honor/ignore"
			name: "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
			pod: spreadPod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestMultipleConstraints "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore"
			name: "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Success,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestMultipleConstraints "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore"
			name: "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
			pod: spreadPod().Name("p").Label("foo", "").
				NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &ignorePolicy, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Taints(taintsUnsch).Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Unschedulable,
			},
			enableNodeInclusionPolicy: true,
		},
		{ // upstream: TestMultipleConstraints "two Constraints on zone, spreads = [3/3, 2/1]"
			name: "two Constraints on zone, spreads = [3/3, 2/1]",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Success,
				"node-y": framework.Success,
			},
		},
		{ // upstream: TestMultipleConstraints "two Constraints on zone, spreads = [3/4, 2/1]"
			name: "two Constraints on zone, spreads = [3/4, 2/1]",
			pod: spreadPod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, barSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				Obj(),
			nodes: []*api.Node{
				spreadNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
				spreadNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
				spreadNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
				spreadNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
			},
			existingPods: []*api.Pod{
				spreadPod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				spreadPod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
				spreadPod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
				spreadPod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
			},
			wantStatusCode: map[string]framework.Code{
				"node-a": framework.Unschedulable,
				"node-b": framework.Unschedulable,
				"node-x": framework.Unschedulable,
				"node-y": framework.Unschedulable,
			},
		},
	})
}
