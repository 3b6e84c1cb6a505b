package nodeaffinity

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// Pins upstream nodeaffinity/node_affinity_test.go TestNodeAffinity.
func TestNodeAffinityFilter(t *testing.T) {
	mismatch := framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector")
	withSelector := func(p *api.Pod, sel map[string]string) *api.Pod { p.Spec.NodeSelector = sel; return p }
	addedZoneBar := config.NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "bar")}}}}}}
	addedNode2 := config.NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{nameIn("node2")}}}}}}
	tests := []struct {
		name          string
		pod           *api.Pod
		labels        map[string]string
		nodeName      string
		want          *framework.Status
		wantPreFilter *framework.Status
		wantResult    *framework.PreFilterResult
		args          config.NodeAffinityArgs
		noPreFilter   bool
	}{
		{name: "missing labels", pod: withSelector(&api.Pod{}, map[string]string{"foo": "bar"}), want: mismatch},
		{name: "same labels", pod: withSelector(&api.Pod{}, map[string]string{"foo": "bar"}), labels: map[string]string{"foo": "bar"}},
		{name: "node labels are superset", pod: withSelector(&api.Pod{}, map[string]string{"foo": "bar"}), labels: map[string]string{"foo": "bar", "baz": "blah"}},
		{name: "node labels are subset", pod: withSelector(&api.Pod{}, map[string]string{"foo": "bar", "baz": "blah"}), labels: map[string]string{"foo": "bar"}, want: mismatch},
		{name: "Pod with matchExpressions using In operator that matches the existing node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar", "value2")}}),
			labels: map[string]string{"foo": "bar"}},
		{name: "Pod with matchExpressions using Gt operator that matches the existing node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("kernel-version", api.NodeSelectorOpGt, "0204")}}),
			labels: map[string]string{"kernel-version": "0206"}},
		{name: "Pod with matchExpressions using NotIn operator that matches the existing node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("mem-type", api.NodeSelectorOpNotIn, "DDR", "DDR2")}}),
			labels: map[string]string{"mem-type": "DDR3"}},
		{name: "Pod with matchExpressions using Exists operator that matches the existing node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("GPU", api.NodeSelectorOpExists)}}),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "Pod with affinity that don't match node's labels won't schedule onto the node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "value1", "value2")}}),
			labels: map[string]string{"foo": "bar"}, want: mismatch},
		{name: "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{}}),
			labels: map[string]string{"foo": "bar"}, want: mismatch},
		{name: "Pod with no Affinity will schedule onto a node", pod: &api.Pod{}, labels: map[string]string{"foo": "bar"},
			wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "Pod with Affinity but nil NodeSelector will schedule onto a node",
			pod:    &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{}}}},
			labels: map[string]string{"foo": "bar"}, wantPreFilter: framework.NewStatus(framework.Skip)},
		{name: "Pod with multiple matchExpressions ANDed that matches the existing node",
			pod: requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
				expr("GPU", api.NodeSelectorOpExists), expr("GPU", api.NodeSelectorOpNotIn, "AMD", "INTER")}}),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
			pod: requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
				expr("GPU", api.NodeSelectorOpExists), expr("GPU", api.NodeSelectorOpIn, "AMD", "INTER")}}),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, want: mismatch},
		{name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
			pod: requiredPod(
				api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar", "value2")}},
				api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("diffkey", api.NodeSelectorOpIn, "wrong", "value2")}}),
			labels: map[string]string{"foo": "bar"}},
		{name: "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node",
			pod:    withSelector(requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpExists)}}), map[string]string{"foo": "bar"}),
			labels: map[string]string{"foo": "bar"}},
		{name: "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
			pod:    withSelector(requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpExists)}}), map[string]string{"foo": "bar"}),
			labels: map[string]string{"foo": "barrrrrr"}, want: mismatch},
		{name: "Pod with an invalid value in Affinity term won't be scheduled onto the node",
			pod:    requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpNotIn, "invalid value: ___@#$%^")}}),
			labels: map[string]string{"foo": "bar"}, want: mismatch},
		{name: "Pod with matchFields using In operator that matches the existing node",
			pod:      requiredPod(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")}}),
			nodeName: "node1", wantResult: names("node1")},
		{name: "Pod with matchFields using In operator that does not match the existing node",
			pod:      requiredPod(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")}}),
			nodeName: "node2", want: mismatch, wantResult: names("node1")},
		{name: "Pod with two terms: matchFields does not match, but matchExpressions matches",
			pod: requiredPod(
				api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1"), nameIn("node2")}},
				api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar")}}),
			nodeName: "node2", labels: map[string]string{"foo": "bar"}},
		{name: "Pod with one term: matchFields does not match, but matchExpressions matches",
			pod: requiredPod(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")},
				MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar")}}),
			nodeName: "node2", labels: map[string]string{"foo": "bar"}, wantResult: names("node1"), want: mismatch},
		{name: "Pod with one term: both matchFields and matchExpressions match",
			pod: requiredPod(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")},
				MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar")}}),
			nodeName: "node1", labels: map[string]string{"foo": "bar"}, wantResult: names("node1")},
		{name: "Pod with two terms: both matchFields and matchExpressions do not match",
			pod: requiredPod(
				api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")}},
				api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "not-match-to-bar")}}),
			nodeName: "node2", labels: map[string]string{"foo": "bar"}, want: mismatch},
		{name: "Pod with two terms of node.Name affinity",
			pod: requiredPod(
				api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1")}},
				api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node2")}}),
			nodeName: "node2", wantResult: names("node1", "node2")},
		{name: "Pod with two conflicting mach field requirements",
			pod:      requiredPod(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node1"), nameIn("node2")}}),
			nodeName: "node2", labels: map[string]string{"foo": "bar"},
			wantPreFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, "pod affinity terms conflict"), want: mismatch},
		{name: "Matches added affinity and Pod's node affinity",
			pod:      requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "foo")}}),
			nodeName: "node2", labels: map[string]string{"zone": "foo"}, args: addedNode2},
		{name: "Matches added affinity but not Pod's node affinity",
			pod:      requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "bar")}}),
			nodeName: "node2", labels: map[string]string{"zone": "foo"}, args: addedNode2, want: mismatch},
		{name: "Doesn't match added affinity", pod: &api.Pod{}, nodeName: "node2", labels: map[string]string{"zone": "foo"}, args: addedZoneBar,
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match scheduler-enforced node affinity")},
		{name: "Matches node selector correctly even if PreFilter is not called",
			pod: withSelector(&api.Pod{}, map[string]string{"foo": "bar"}), labels: map[string]string{"foo": "bar", "baz": "blah"}, noPreFilter: true},
		{name: "Matches node affinity correctly even if PreFilter is not called",
			pod: requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
				expr("GPU", api.NodeSelectorOpExists), expr("GPU", api.NodeSelectorOpNotIn, "AMD", "INTER")}}),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, noPreFilter: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ni := cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: tc.nodeName, Labels: tc.labels}})
			p, err := New(&tc.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			if !tc.noPreFilter {
				res, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, tc.pod, nil)
				checkStatus(t, "PreFilter", st, tc.wantPreFilter)
				if diff := cmp.Diff(tc.wantResult, res); diff != "" {
					t.Errorf("PreFilterResult (-want,+got):\n%s", diff)
				}
			}
			checkStatus(t, "Filter", p.(framework.FilterPlugin).Filter(context.Background(), state, tc.pod, ni), tc.want)
			if tc.args.AddedAffinity == nil {
				checkStatus(t, "NodeAffinity", predicates.NodeAffinity(tc.pod, ni.Node()), tc.want)
			}
		})
	}
}

func TestNodeAffinityFilterAllocations(t *testing.T) {
	pod := requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "a", "b")}})
	pod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	ni := cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"zone": "b", "disk": "ssd"}}})
	p, _ := New(nil, nil)
	state := framework.NewCycleState()
	p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, nil)
	f := p.(framework.FilterPlugin)
	if st := f.Filter(context.Background(), state, pod, ni); !st.IsSuccess() {
		t.Fatal(st)
	}
	if a := testing.AllocsPerRun(100, func() { f.Filter(context.Background(), state, pod, ni) }); a != 0 {
		t.Errorf("Filter allocates %v times", a)
	}
}
