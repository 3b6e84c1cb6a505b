package framework_test

import (
	"errors"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Ported from upstream framework/types_test.go TestFitError_Error.
func TestFitErrorError(t *testing.T) {
	st := func(reason string) *framework.Status { return framework.NewStatus(framework.Unschedulable, reason) }
	preFilterAll := func() *framework.NodeToStatus {
		return framework.NewNodeToStatus(map[string]*framework.Status{
			"node1": st("Node(s) failed PreFilter plugin FalsePreFilter"),
			"node2": st("Node(s) failed PreFilter plugin FalsePreFilter"),
			"node3": st("Node(s) failed PreFilter plugin FalsePreFilter"),
		}, framework.NewStatus(framework.UnschedulableAndUnresolvable))
	}
	oneFilter := func() *framework.NodeToStatus {
		return framework.NewNodeToStatus(map[string]*framework.Status{
			"node1": st("Node(s) failed Filter plugin FalseFilter-1"),
			"node2": st("Node(s) failed Filter plugin FalseFilter-1"),
			"node3": st("Node(s) failed Filter plugin FalseFilter-1"),
		}, framework.NewStatus(framework.UnschedulableAndUnresolvable))
	}
	twoFilters := func() *framework.NodeToStatus {
		return framework.NewNodeToStatus(map[string]*framework.Status{
			"node1": st("Node(s) failed Filter plugin FalseFilter-1"),
			"node2": st("Node(s) failed Filter plugin FalseFilter-1"),
			"node3": st("Node(s) failed Filter plugin FalseFilter-2"),
		}, framework.NewStatus(framework.UnschedulableAndUnresolvable))
	}
	tests := []struct {
		name        string
		numAllNodes int
		diagnosis   framework.Diagnosis
		want        string
	}{
		{
			name:        "nodes failed Prefilter plugin",
			numAllNodes: 3,
			diagnosis:   framework.Diagnosis{PreFilterMsg: "Node(s) failed PreFilter plugin FalsePreFilter", NodeToStatus: preFilterAll()},
			want:        "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.",
		},
		{
			name:        "nodes failed Prefilter plugin and the preemption also failed",
			numAllNodes: 3,
			diagnosis: framework.Diagnosis{PreFilterMsg: "Node(s) failed PreFilter plugin FalsePreFilter", NodeToStatus: preFilterAll(),
				PostFilterMsg: "Error running PostFilter plugin FailedPostFilter"},
			want: "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running PostFilter plugin FailedPostFilter",
		},
		{
			name:        "nodes failed one Filter plugin with an empty PostFilterMsg",
			numAllNodes: 3,
			diagnosis:   framework.Diagnosis{NodeToStatus: oneFilter()},
			want:        "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.",
		},
		{
			name:        "nodes failed one Filter plugin with a non-empty PostFilterMsg",
			numAllNodes: 3,
			diagnosis:   framework.Diagnosis{NodeToStatus: oneFilter(), PostFilterMsg: "Error running PostFilter plugin FailedPostFilter"},
			want:        "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
		},
		{
			name:        "nodes failed two Filter plugins with an empty PostFilterMsg",
			numAllNodes: 3,
			diagnosis:   framework.Diagnosis{NodeToStatus: twoFilters()},
			want:        "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.",
		},
		{
			name:        "nodes failed two Filter plugins with a non-empty PostFilterMsg",
			numAllNodes: 3,
			diagnosis:   framework.Diagnosis{NodeToStatus: twoFilters(), PostFilterMsg: "Error running PostFilter plugin FailedPostFilter"},
			want:        "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
		},
		{
			name:        "failed to Permit on node",
			numAllNodes: 1,
			diagnosis: framework.Diagnosis{NodeToStatus: framework.NewNodeToStatus(map[string]*framework.Status{
				"node1": st("Node failed Permit plugin Permit-1")}, framework.NewStatus(framework.UnschedulableAndUnresolvable))},
			want: "0/1 nodes are available: 1 Node failed Permit plugin Permit-1.",
		},
		{
			name:        "failed to Reserve on node",
			numAllNodes: 1,
			diagnosis: framework.Diagnosis{NodeToStatus: framework.NewNodeToStatus(map[string]*framework.Status{
				"node1": st("Node failed Reserve plugin Reserve-1")}, framework.NewStatus(framework.UnschedulableAndUnresolvable))},
			want: "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.",
		},
		// Not upstream cases: absent nodes carry the absent status.
		{
			name:        "absent nodes counted with the PreFilterResult status",
			numAllNodes: 5,
			diagnosis: framework.Diagnosis{NodeToStatus: framework.NewNodeToStatus(map[string]*framework.Status{
				"node1": st("Insufficient cpu")}, framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [NodeAffinity]"))},
			want: "0/5 nodes are available: 1 Insufficient cpu, 4 node(s) didn't satisfy plugin(s) [NodeAffinity].",
		},
		{
			name:        "several reasons per node; absent status without reasons adds nothing",
			numAllNodes: 5,
			diagnosis: framework.Diagnosis{NodeToStatus: framework.NewNodeToStatus(map[string]*framework.Status{
				"a": framework.NewStatus(framework.Unschedulable, "Insufficient cpu", "Insufficient memory"),
				"b": st("Insufficient cpu"),
				"c": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
				"d": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
				"e": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
			}, framework.NewStatus(framework.UnschedulableAndUnresolvable))},
			want: "0/5 nodes are available: 1 Insufficient memory, 2 Insufficient cpu, 3 node(s) had untolerated taint {k: v}.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error = &framework.FitError{NumAllNodes: tt.numAllNodes, Diagnosis: tt.diagnosis}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
			var fe *framework.FitError
			if !errors.As(err, &fe) {
				t.Error("not errors.As-able")
			}
		})
	}
}

func TestNodeToStatus(t *testing.T) {
	m := framework.NewDefaultNodeToStatus()
	if m.Get("x").Code() != framework.UnschedulableAndUnresolvable || m.Len() != 0 {
		t.Errorf("absent status %v len %d", m.Get("x"), m.Len())
	}
	m.Set("b", framework.NewStatus(framework.Unschedulable, "r"))
	m.Set("a", framework.NewStatus(framework.Unschedulable, "r"))
	var order []string
	m.ForEachExplicitNode(func(n string, _ *framework.Status) { order = append(order, n) })
	if len(order) != 2 || order[0] != "a" || m.Len() != 2 {
		t.Errorf("order %v", order)
	}
	var d framework.Diagnosis
	d.AddPluginStatus(framework.NewStatus(framework.Unschedulable, "r").WithPlugin("P"))
	d.AddPluginStatus(framework.NewStatus(framework.Pending, "r").WithPlugin("Q"))
	d.AddPluginStatus(framework.NewStatus(framework.Unschedulable, "r"))
	if got := d.SortedUnschedulablePlugins(); len(got) != 2 || got[0] != "P" || got[1] != "Q" {
		t.Errorf("UnschedulablePlugins = %v", got)
	}
	if _, ok := d.PendingPlugins["Q"]; !ok {
		t.Errorf("PendingPlugins = %v", d.PendingPlugins)
	}
}

// TestNodeToStatusForAllocatesOnFirstSet checks that NewNodeToStatusFor
// allocates nothing until a node gets a status, and then answers as a
// map would.
func TestNodeToStatusForAllocatesOnFirstSet(t *testing.T) {
	var nodes []*api.Node
	for _, n := range []string{"a", "b", "c"} {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: n}})
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	view := snap.View()
	absent := framework.NewStatus(framework.UnschedulableAndUnresolvable)
	m := framework.NewNodeToStatusFor(view, absent)
	if allocs := testing.AllocsPerRun(10, func() {
		m.ResetFor(view, absent)
		_ = m.Get("a")
		_ = m.Len()
	}); allocs != 0 {
		t.Errorf("an empty NodeToStatusFor allocates %v times", allocs)
	}
	st := framework.NewStatus(framework.Unschedulable, "no")
	m.Set("b", st)
	m.Set("a", st)
	if m.Get("a") != st || m.Get("c") != absent || m.Len() != 2 {
		t.Errorf("Get a = %v, c = %v, Len = %d", m.Get("a"), m.Get("c"), m.Len())
	}
	if got := m.NodeNames(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("NodeNames = %v", got)
	}
	m.ResetFor(view, absent)
	if m.Len() != 0 {
		t.Errorf("Len after Reset = %d", m.Len())
	}
}
