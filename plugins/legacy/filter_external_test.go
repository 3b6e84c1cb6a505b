package legacy_test

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/legacy"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/resource"
)

// upstream (v1.21): nodelabel TestNodeLabelFilter, every row, node labels
// foo and bar; the plugin is built from the row's args as upstream's is.
func TestNodeLabelFilter(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"foo": "any value", "bar": "any value"}}}
	tests := []struct {
		name string
		args string
		want framework.Code
	}{
		{"present label does not match", `{"presentLabels": ["baz"]}`, framework.UnschedulableAndUnresolvable},
		{"absent label does not match", `{"absentLabels": ["baz"]}`, framework.Success},
		{"one of two present labels matches", `{"presentLabels": ["foo", "baz"]}`, framework.UnschedulableAndUnresolvable},
		{"one of two absent labels matches", `{"absentLabels": ["foo", "baz"]}`, framework.UnschedulableAndUnresolvable},
		{"all present abels match", `{"presentLabels": ["foo", "bar"]}`, framework.Success},
		{"all absent labels match", `{"absentLabels": ["foo", "bar"]}`, framework.UnschedulableAndUnresolvable},
		{"both present and absent label matches", `{"presentLabels": ["foo"], "absentLabels": ["bar"]}`, framework.UnschedulableAndUnresolvable},
		{"neither present nor absent label matches", `{"presentLabels": ["foz"], "absentLabels": ["baz"]}`, framework.UnschedulableAndUnresolvable},
		{"present label matches and absent label doesn't match", `{"presentLabels": ["foo"], "absentLabels": ["baz"]}`, framework.Success},
		{"present label doesn't match and absent label matches", `{"presentLabels": ["foz"], "absentLabels": ["bar"]}`, framework.UnschedulableAndUnresolvable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, err := legacy.NewNodeLabel([]byte(tc.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			st := pl.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(node))
			if st.Code() != tc.want {
				t.Fatalf("status %v (%v), want %v", st.Code(), st, tc.want)
			}
			if st != nil && st.Message() != predicates.ErrReasonNodeLabelPresenceViolated {
				t.Errorf("message %q", st.Message())
			}
		})
	}
}

// upstream (v1.21): nodelabel TestNodeLabelFilterWithoutNode.
func TestNodeLabelFilterWithoutNode(t *testing.T) {
	pl, err := legacy.NewNodeLabel(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := pl.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(nil))
	if st.Code() != framework.Error || st.Message() != "node not found" {
		t.Errorf("status %v, want the error node not found", st)
	}
}

// upstream (v1.21): nodelabel TestValidateNodeLabelArgs; the factory
// validates as upstream's New does.
func TestValidateNodeLabelArgs(t *testing.T) {
	tests := []struct {
		name, args, err string
	}{
		{"happy case", `{"presentLabels": ["foo", "bar"], "absentLabels": ["baz"], "presentLabelsPreference": ["foo", "bar"], "absentLabelsPreference": ["baz"]}`, ""},
		{"label presence conflict", `{"presentLabels": ["foo", "bar"], "absentLabels": ["bar", "baz"], "presentLabelsPreference": ["foo", "bar"], "absentLabelsPreference": ["baz"]}`,
			`presentLabels[1]: Invalid value: "bar": conflict with absentLabels[0]`},
		{"label preference conflict", `{"presentLabels": ["foo", "bar"], "absentLabels": ["baz"], "presentLabelsPreference": ["foo", "bar"], "absentLabelsPreference": ["bar", "baz"]}`,
			`presentLabelsPreference[1]: Invalid value: "bar": conflict with absentLabelsPreference[0]`},
		{"both label presence and preference conflict", `{"presentLabels": ["foo", "bar"], "absentLabels": ["bar", "baz"], "presentLabelsPreference": ["foo", "bar"], "absentLabelsPreference": ["bar", "baz"]}`,
			`[presentLabels[1]: Invalid value: "bar": conflict with absentLabels[0], presentLabelsPreference[1]: Invalid value: "bar": conflict with absentLabelsPreference[0]]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := legacy.NewNodeLabel([]byte(tc.args), nil)
			if got := errString(err); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func conditionNode(conds ...api.NodeCondition) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
	n.Status.Conditions = conds
	return n
}

// The pressure predicates' upstream tests (v1.13 predicates_test.go),
// every row: a node with only a Ready condition and one with the
// pressure condition True. The reasons are upstream's; the code is
// UnschedulableAndUnresolvable, as v1.13's preemption did not try nodes
// failing them.
func TestNodePressurePredicates(t *testing.T) {
	bestEffort := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "container", Image: "image"}}}}
	burstable := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "container", Image: "image", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("100")}}}}}}
	ready := conditionNode(api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue})
	pressure := func(c api.NodeConditionType) *api.Node {
		return conditionNode(api.NodeCondition{Type: c, Status: api.ConditionTrue})
	}
	mem, disk, pid := predicates.CheckNodeMemoryPressure, predicates.CheckNodeDiskPressure, predicates.CheckNodePIDPressure
	tests := []struct {
		name   string
		check  func(*api.Pod, *api.Node) *framework.Status
		pod    *api.Pod
		node   *api.Node
		reason string
	}{
		// upstream: TestPodSchedulesOnNodeWithMemoryPressureCondition
		{"best-effort pod schedulable on node without memory pressure condition on", mem, bestEffort, ready, ""},
		{"best-effort pod not schedulable on node with memory pressure condition on", mem, bestEffort, pressure(api.NodeMemoryPressure), predicates.ErrReasonNodeUnderMemoryPressure},
		{"non best-effort pod schedulable on node with memory pressure condition on", mem, burstable, pressure(api.NodeMemoryPressure), ""},
		{"non best-effort pod schedulable on node without memory pressure condition on", mem, burstable, ready, ""},
		// upstream: TestPodSchedulesOnNodeWithDiskPressureCondition
		{"pod schedulable on node without pressure condition on", disk, bestEffort, ready, ""},
		{"pod not schedulable on node with pressure condition on", disk, bestEffort, pressure(api.NodeDiskPressure), predicates.ErrReasonNodeUnderDiskPressure},
		// upstream: TestPodSchedulesOnNodeWithPIDPressureCondition (not
		// in the search index; its rows mirror the disk test's)
		{"pid: pod schedulable on node without pressure condition on", pid, bestEffort, ready, ""},
		{"pid: pod not schedulable on node with pressure condition on", pid, bestEffort, pressure(api.NodePIDPressure), predicates.ErrReasonNodeUnderPIDPressure},
		// schedkit: v1.13's NodeInfo.SetNode kept a condition's last
		// entry; False and Unknown do not reject.
		{"last of two entries counts (True last)", disk, bestEffort, conditionNode(
			api.NodeCondition{Type: api.NodeDiskPressure, Status: api.ConditionFalse}, api.NodeCondition{Type: api.NodeDiskPressure, Status: api.ConditionTrue}),
			predicates.ErrReasonNodeUnderDiskPressure},
		{"last of two entries counts (False last)", pid, bestEffort, conditionNode(
			api.NodeCondition{Type: api.NodePIDPressure, Status: api.ConditionTrue}, api.NodeCondition{Type: api.NodePIDPressure, Status: api.ConditionFalse}), ""},
		{"unknown pressure does not reject", mem, bestEffort, conditionNode(api.NodeCondition{Type: api.NodeMemoryPressure, Status: api.ConditionUnknown}), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.check(tc.pod, tc.node)
			if tc.reason == "" {
				if st != nil {
					t.Fatalf("status %v, want success", st)
				}
				return
			}
			if st.Code() != framework.UnschedulableAndUnresolvable || st.Message() != tc.reason {
				t.Errorf("status %v %q, want UnschedulableAndUnresolvable %q", st.Code(), st.Message(), tc.reason)
			}
		})
	}
	for _, check := range []func(*api.Pod, *api.Node) *framework.Status{mem, disk, pid} {
		if st := check(bestEffort, nil); st.Code() != framework.Error {
			t.Errorf("nil node: %v, want an error", st)
		}
	}
}

// The plugins run the predicates under their names.
func TestNodePressurePlugins(t *testing.T) {
	factories := map[string]framework.PluginFactory{
		config.CheckNodeMemoryPressureName: legacy.NewCheckNodeMemoryPressure,
		config.CheckNodeDiskPressureName:   legacy.NewCheckNodeDiskPressure,
		config.CheckNodePIDPressureName:    legacy.NewCheckNodePIDPressure,
	}
	node := conditionNode(api.NodeCondition{Type: api.NodeMemoryPressure, Status: api.ConditionTrue},
		api.NodeCondition{Type: api.NodeDiskPressure, Status: api.ConditionTrue}, api.NodeCondition{Type: api.NodePIDPressure, Status: api.ConditionTrue})
	for name, f := range factories {
		pl, err := f(nil, nil)
		if err != nil || pl.Name() != name {
			t.Fatalf("%s: %v %v", name, pl, err)
		}
		if st := pl.(framework.FilterPlugin).Filter(context.Background(), nil, &api.Pod{}, cluster.NewNodeInfo(node)); st.Code() != framework.UnschedulableAndUnresolvable {
			t.Errorf("%s: %v", name, st)
		}
	}
}
