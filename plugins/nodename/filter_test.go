package nodename

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// Pins upstream nodename/node_name_test.go TestNodeName.
func TestNodeName(t *testing.T) {
	tests := []struct {
		pod        *api.Pod
		node       *api.Node
		name       string
		wantStatus *framework.Status
	}{
		{pod: &api.Pod{}, node: &api.Node{}, name: "no host specified"},
		{pod: &api.Pod{Spec: api.PodSpec{NodeName: "foo"}}, node: &api.Node{ObjectMeta: api.ObjectMeta{Name: "foo"}}, name: "host matches"},
		{pod: &api.Pod{Spec: api.PodSpec{NodeName: "bar"}}, node: &api.Node{ObjectMeta: api.ObjectMeta{Name: "foo"}}, name: "host doesn't match",
			wantStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match the requested node name")},
	}
	p, err := New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.(framework.FilterPlugin).Filter(context.Background(), nil, tc.pod, cluster.NewNodeInfo(tc.node))
			checkStatus(t, "Filter", got, tc.wantStatus)
			checkStatus(t, "NodeName", predicates.NodeName(tc.pod, tc.node), tc.wantStatus)
		})
	}
}

// Pins upstream TestNodeName_PreFilter.
func TestNodeNamePreFilter(t *testing.T) {
	p := &NodeName{}
	res, st := p.PreFilter(context.Background(), nil, &api.Pod{Spec: api.PodSpec{NodeName: "foo"}}, nil)
	if !st.IsSuccess() {
		t.Fatal(st)
	}
	if diff := cmp.Diff(&framework.PreFilterResult{NodeNames: map[string]struct{}{"foo": {}}}, res); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
	res, st = p.PreFilter(context.Background(), nil, &api.Pod{}, nil)
	if res != nil || !st.IsSuccess() {
		t.Errorf("unassigned pod: got %v, %v", res, st)
	}
	if p.Name() != "NodeName" || p.PreFilterExtensions() != nil {
		t.Error("name or extensions")
	}
}
