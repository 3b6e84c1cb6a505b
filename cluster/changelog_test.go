package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// memoValue returns the value m keeps for position i, if any.
func memoValue[V any](m *NodeMemo[V], i int) (V, bool) {
	var zero V
	if j := m.at[i] - 1; j >= 0 {
		return *m.val(j), true
	}
	return zero, false
}

// TestPropSyncViewMatchesSync checks that a NodeMemo following a
// snapshot with SyncView (by its log of node changes) keeps what one
// comparing every node with Sync keeps, and its totals, through pod and
// node changes, views skipped, forks and resets; and that SyncView
// recomputes no more nodes than the log names.
func TestPropSyncViewMatchesSync(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 5).Draw(t, "nodes"), rapid.IntRange(0, 12).Draw(t, "pods")).Draw(t, "cluster")
		s, err := NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		nodeNames := []string{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5"}
		// A node's value is its pod count and generation; zero (not
		// kept) without pods.
		compute := func(ni *NodeInfo, v *int64) bool {
			*v = int64(len(ni.Pods))*1_000_000 + ni.Generation
			return len(ni.Pods) > 0
		}
		var byView, bySync NodeMemo[int64]
		var totalView, totalSync int64
		recomputed := 0
		var list NodeList
		var pods []*api.Pod
		pods = append(pods, c.Pods...)
		next := 0
		sync := func(t *rapid.T) {
			v := s.View()
			nodes := list.Update(v)
			changed, ok := v.ChangedSince(byView.mark)
			recomputed = 0
			byView.SyncView(v, nodes, func(ni *NodeInfo, x *int64) bool { recomputed++; return compute(ni, x) },
				func(x *int64, _ *NodeInfo, sign int64) { totalView += sign * *x })
			if ok && recomputed > len(changed) {
				t.Fatalf("SyncView recomputed %d nodes, %d logged", recomputed, len(changed))
			}
			bySync.Sync(nodes, compute, func(x *int64, _ *NodeInfo, sign int64) { totalSync += sign * *x })
			if totalView != totalSync {
				t.Fatalf("totals: SyncView %d, Sync %d", totalView, totalSync)
			}
			for i, ni := range nodes {
				a, okA := memoValue(&byView, i)
				b, okB := memoValue(&bySync, i)
				if a != b || okA != okB {
					t.Fatalf("node %s: SyncView keeps %d %v, Sync %d %v", ni.Name(), a, okA, b, okB)
				}
			}
		}
		newPod := func(t *rapid.T) *api.Pod {
			p := clustergen.Pod().Draw(t, "pod")
			p.Name, p.UID = fmt.Sprintf("new-%d", next), fmt.Sprintf("uid-new-%d", next)
			next++
			p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "node")
			return p
		}
		t.Repeat(map[string]func(*rapid.T){
			"": sync,
			"addPod": func(t *rapid.T) {
				p := newPod(t)
				if err := s.AddPod(p); err == nil {
					pods = append(pods, p)
				}
			},
			"removePod": func(t *rapid.T) {
				if len(pods) == 0 {
					t.Skip("no pods")
				}
				i := rapid.IntRange(0, len(pods)-1).Draw(t, "pod")
				if err := s.RemovePod(pods[i]); err != nil {
					t.Fatal(err)
				}
				pods = append(pods[:i], pods[i+1:]...)
			},
			"addNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "node")
				n.Name = rapid.SampledFrom(nodeNames).Draw(t, "name")
				_ = s.AddNode(n)
			},
			"removeNode": func(t *rapid.T) {
				_ = s.RemoveNode(rapid.SampledFrom(nodeNames).Draw(t, "name"))
			},
			"updateNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "node")
				n.Name = rapid.SampledFrom(nodeNames).Draw(t, "name")
				_ = s.UpdateNode(n)
			},
			"view": func(t *rapid.T) { s.View() },
			"forkAndReset": func(t *rapid.T) {
				f := s.Fork()
				p := newPod(t)
				if rapid.Bool().Draw(t, "commit") && f.AddPod(p) == nil {
					pods = append(pods, p)
					if err := s.Reset(f); err != nil {
						t.Fatal(err)
					}
				}
			},
		})
	})
}

// A snapshot logs the nodes its pod changes touch: a reader that saw the
// last view is told of those nodes alone; a node added begins a new log.
func TestViewChangedSince(t *testing.T) {
	var nodes []*api.Node
	for i := range 4 {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%d", i)}})
	}
	s, err := NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	v1 := s.View()
	if _, ok := v1.ChangedSince(ChangeMark{}); ok {
		t.Error("the zero mark is followed")
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "p"}}
	if err := s.AssumePod(pod, "n2"); err != nil {
		t.Fatal(err)
	}
	v2 := s.View()
	got, ok := v2.ChangedSince(v1.Mark())
	if i, _ := v2.Index("n2"); !ok || len(got) != 1 || int(got[0]) != i {
		t.Errorf("after one pod: %v, %v; want [%d]", got, ok, i)
	}
	if got, ok := v2.ChangedSince(v2.Mark()); !ok || len(got) != 0 {
		t.Errorf("same view: %v, %v", got, ok)
	}
	if _, ok := v1.ChangedSince(v2.Mark()); ok {
		t.Error("an older view follows a later mark")
	}
	if err := s.AddNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n4"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.View().ChangedSince(v2.Mark()); ok {
		t.Error("a node added kept the log")
	}
}
