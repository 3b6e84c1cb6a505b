package nodedeclaredfeatures

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// storageSnap builds a snapshot of nodes, pods and objects.
func storageSnap(t interface{ Fatal(...any) }, nodes []*api.Node, pods []*api.Pod, objs ...any) *cluster.Snapshot {
	s, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := s.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func volPod(name, node string, vols ...api.Volume) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: node, Volumes: vols, Containers: []api.Container{{Name: "c"}}}}
}

func testNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

// runFilter runs PreFilter and, unless it returns Skip or rejects,
// Filter on the named node.
func runFilter(t *testing.T, p framework.Plugin, s *cluster.Snapshot, pod *api.Pod, node string) (pre, filter *framework.Status) {
	t.Helper()
	state := framework.NewCycleState()
	view := s.View()
	_, pre = p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, view.Nodes())
	if !pre.IsSuccess() {
		return pre, nil
	}
	ni, ok := view.Get(node)
	if !ok {
		t.Fatalf("no node %s", node)
	}
	return nil, p.(framework.FilterPlugin).Filter(context.Background(), state, pod, ni)
}

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}
