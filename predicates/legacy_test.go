package predicates_test

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/resource"
)

// upstream (v1.21): nodelabel TestNodeLabelFilter, node labels foo and bar.
func TestNodeLabelFilter(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"foo": "any value", "bar": "any value"}}}
	tests := []struct {
		name            string
		present, absent []string
		fits            bool
	}{
		{"present label does not match", []string{"baz"}, nil, false},
		{"absent label does not match", nil, []string{"baz"}, true},
		{"one of two present labels matches", []string{"foo", "baz"}, nil, false},
		{"one of two absent labels matches", nil, []string{"foo", "baz"}, false},
		{"all present labels match", []string{"foo", "bar"}, nil, true},
		{"all absent labels match", nil, []string{"foo", "bar"}, false},
		{"both present and absent label matches", []string{"foo"}, []string{"bar"}, false},
		{"neither present nor absent label matches", []string{"foz"}, []string{"baz"}, false},
		{"present label matches and absent label doesn't match", []string{"foo"}, []string{"baz"}, true},
		{"present label doesn't match and absent label matches", []string{"foz"}, []string{"bar"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := predicates.NodeLabel(tc.present, tc.absent, node)
			if fits := st == nil; fits != tc.fits {
				t.Errorf("fits = %v (%v), want %v", fits, st, tc.fits)
			}
			if st != nil && (st.Reasons()[0] != predicates.ErrReasonNodeLabelPresenceViolated || st.Code().String() != "UnschedulableAndUnresolvable") {
				t.Errorf("status %v", st)
			}
		})
	}
}

func pressureNode(cond api.NodeConditionType) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
	n.Status.Conditions = []api.NodeCondition{{Type: cond, Status: api.ConditionTrue}}
	return n
}

// upstream (v1.13): predicates TestPodFitsMemoryPressure, TestPodFitsDiskPressure,
// TestPodFitsPIDPressure (a BestEffort pod and a Burstable one; nodes with
// and without the condition).
func TestNodePressurePredicates(t *testing.T) {
	bestEffort := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
	burstable := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"memory": resource.MustParse("200Mi")}}}}}}
	noPressure := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
	noPressure.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}, {Type: api.NodeMemoryPressure, Status: api.ConditionFalse}}
	mem, disk, pid := predicates.CheckNodeMemoryPressure, predicates.CheckNodeDiskPressure, predicates.CheckNodePIDPressure
	tests := []struct {
		name   string
		check  func(*api.Pod, *api.Node) *framework.Status
		pod    *api.Pod
		node   *api.Node
		reason string
	}{
		{"best-effort pod schedulable on node without memory pressure condition on", mem, bestEffort, noPressure, ""},
		{"best-effort pod not schedulable on node with memory pressure condition on", mem, bestEffort, pressureNode(api.NodeMemoryPressure), predicates.ErrReasonNodeUnderMemoryPressure},
		{"non best-effort pod schedulable on node with memory pressure condition on", mem, burstable, pressureNode(api.NodeMemoryPressure), ""},
		{"pod schedulable on node without pressure condition on", disk, burstable, noPressure, ""},
		{"pod not schedulable on node with pressure condition on", disk, burstable, pressureNode(api.NodeDiskPressure), predicates.ErrReasonNodeUnderDiskPressure},
		{"node without pid pressure condition on", pid, bestEffort, noPressure, ""},
		{"node with pid pressure condition on", pid, bestEffort, pressureNode(api.NodePIDPressure), predicates.ErrReasonNodeUnderPIDPressure},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.check(tc.pod, tc.node)
			got := ""
			if st != nil {
				got = st.Reasons()[0]
			}
			if got != tc.reason {
				t.Errorf("reason %q, want %q", got, tc.reason)
			}
		})
	}
}
