package legacy

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

// storageHandle is a framework.Handle over a snapshot.
type storageHandle struct{ s *cluster.Snapshot }

func (h storageHandle) Snapshot() *cluster.Snapshot { return h.s }

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

// testHandle is a framework.Handle over a fixed snapshot.
type testHandle struct{ s *cluster.Snapshot }

func (h testHandle) Snapshot() *cluster.Snapshot { return h.s }

func snapshot(t testing.TB, nodes []*api.Node, pods []*api.Pod) *cluster.Snapshot {
	t.Helper()
	var bound []*api.Pod
	for _, p := range pods {
		if p.Spec.NodeName != "" { // upstream's cache ignores unbound pods
			bound = append(bound, p)
		}
	}
	s, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	spreadPod  = testwrap.SpreadPod
	spreadNode = testwrap.SpreadNode
)
