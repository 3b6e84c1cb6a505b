package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

const mb = 1024 * 1024

// imageStates returns each node's ImageStates by node name.
func imageStates(s *Snapshot) map[string]map[string]ImageStateSummary {
	out := map[string]map[string]ImageStateSummary{}
	for _, ni := range s.Nodes() {
		m := map[string]ImageStateSummary{}
		for k, v := range ni.ImageStates {
			m[k] = *v
		}
		out[ni.Name()] = m
	}
	return out
}

// TestSnapshotImageSizeFirstSeen pins how kube-scheduler's cache
// (cacheImpl.addNodeImageStates / removeNodeImageStates) takes an image's
// size: from the first node to report the name, for every node, while any
// node reports it; once no node does, the next report sets it afresh.
func TestSnapshotImageSizeFirstSeen(t *testing.T) {
	s, err := NewSnapshot([]*api.Node{
		mkNode("a", nil, nil, img(10*mb, "app:v1")),
		mkNode("b", nil, nil, img(30*mb, "app:v1")),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]ImageStateSummary{
		"a": {"app:v1": {10 * mb, 2}},
		"b": {"app:v1": {10 * mb, 2}},
	}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Fatalf("image states (-want +got):\n%s", diff)
	}
	// The first reporter leaves; the state (and its size) stays.
	if err := s.RemoveNode("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNode(mkNode("c", nil, nil, img(50*mb, "app:v1"))); err != nil {
		t.Fatal(err)
	}
	want = map[string]map[string]ImageStateSummary{
		"b": {"app:v1": {10 * mb, 2}},
		"c": {"app:v1": {10 * mb, 2}},
	}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Fatalf("after the first reporter left (-want +got):\n%s", diff)
	}
	// No node reports it any more: the next report sets the size.
	for _, n := range []string{"b", "c"} {
		if err := s.RemoveNode(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddNode(mkNode("d", nil, nil, img(70*mb, "app:v1"))); err != nil {
		t.Fatal(err)
	}
	want = map[string]map[string]ImageStateSummary{"d": {"app:v1": {70 * mb, 1}}}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Fatalf("after all left (-want +got):\n%s", diff)
	}
}

// TestSnapshotImageStates ports upstream cache TestGetNodeImageStates and
// TestCreateImageExistenceMap (NumNodes counts the nodes holding an image)
// and checks that the counts follow AddNode, UpdateNode and RemoveNode,
// while a view taken earlier keeps its counts.
func TestSnapshotImageStates(t *testing.T) {
	n0 := mkNode("node-0", nil, nil, img(10*mb, "gcr.io/10:v1"), img(200*mb, "gcr.io/200:v1"))
	n1 := mkNode("node-1", nil, nil, img(10*mb, "gcr.io/10:v1"))
	s, err := NewSnapshot([]*api.Node{n0, n1, mkNode("node-empty", nil, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]ImageStateSummary{
		"node-0":     {"gcr.io/10:v1": {10 * mb, 2}, "gcr.io/200:v1": {200 * mb, 1}},
		"node-1":     {"gcr.io/10:v1": {10 * mb, 2}},
		"node-empty": {},
	}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Fatalf("image states (-want +got):\n%s", diff)
	}
	before := s.View()

	// A new node holding gcr.io/200:v1 (listed twice: counted once).
	if err := s.AddNode(mkNode("node-2", nil, nil, img(200*mb, "gcr.io/200:v1", "gcr.io/200:v1"), img(1, "gcr.io/200:v1"))); err != nil {
		t.Fatal(err)
	}
	want["node-0"]["gcr.io/200:v1"] = ImageStateSummary{200 * mb, 2}
	want["node-2"] = map[string]ImageStateSummary{"gcr.io/200:v1": {200 * mb, 2}}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Errorf("after AddNode (-want +got):\n%s", diff)
	}
	if err := s.RemoveNode("node-1"); err != nil {
		t.Fatal(err)
	}
	delete(want, "node-1")
	want["node-0"]["gcr.io/10:v1"] = ImageStateSummary{10 * mb, 1}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Errorf("after RemoveNode (-want +got):\n%s", diff)
	}
	if err := s.UpdateNode(mkNode("node-2", nil, nil, img(10*mb, "gcr.io/10:v1"))); err != nil {
		t.Fatal(err)
	}
	want["node-0"] = map[string]ImageStateSummary{"gcr.io/10:v1": {10 * mb, 2}, "gcr.io/200:v1": {200 * mb, 1}}
	want["node-2"] = map[string]ImageStateSummary{"gcr.io/10:v1": {10 * mb, 2}}
	if diff := cmp.Diff(want, imageStates(s)); diff != "" {
		t.Errorf("after UpdateNode (-want +got):\n%s", diff)
	}
	// The earlier view is untouched.
	if ni, _ := before.Get("node-0"); ni.ImageStates["gcr.io/200:v1"].NumNodes != 1 || ni.ImageStates["gcr.io/10:v1"].NumNodes != 2 || before.NumNodes() != 3 {
		t.Errorf("earlier view changed: %v", ni.ImageStates)
	}
}

// TestSnapshotOrphanPods: pods of nodes the snapshot does not hold are
// kept and counted once their node is added, like upstream's cache.
func TestSnapshotOrphanPods(t *testing.T) {
	s, err := NewSnapshot([]*api.Node{mkNode("a", rl("cpu", "4"), nil)}, []*api.Pod{
		mkPod("ns", "p1", "u1", "a").container(rl("cpu", "1")).obj(),
		mkPod("ns", "p2", "u2", "later").container(rl("cpu", "2")).obj(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.NumNodes() != 1 || s.NumPods() != 2 {
		t.Fatalf("nodes %d pods %d", s.NumNodes(), s.NumPods())
	}
	if _, node, ok := s.Pod("ns", "p2"); !ok || node != "later" {
		t.Errorf("Pod(p2) on %q, %v", node, ok)
	}
	if err := s.AddNode(mkNode("later", rl("cpu", "4"), nil)); err != nil {
		t.Fatal(err)
	}
	if ni, _ := s.Get("later"); ni.Requested.MilliCPU != 2000 || len(ni.Pods) != 1 {
		t.Errorf("orphan not counted: %v", ni)
	}
	// Removing a node keeps its pods aside; they return with the node.
	if err := s.RemoveNode("a"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("a"); ok || s.NumPods() != 2 {
		t.Errorf("after RemoveNode: pods %d", s.NumPods())
	}
	if err := s.AddNode(mkNode("a", rl("cpu", "4"), nil)); err != nil {
		t.Fatal(err)
	}
	if ni, _ := s.Get("a"); ni.Requested.MilliCPU != 1000 {
		t.Errorf("pods did not come back: %v", ni)
	}
	if err := s.RemoveNode("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemovePod(mkPod("ns", "p1", "u1", "").obj()); err != nil {
		t.Errorf("removing a pod of a removed node: %v", err)
	}
	if err := s.AddNode(mkNode("a", rl("cpu", "4"), nil)); err != nil {
		t.Fatal(err)
	}
	if ni, _ := s.Get("a"); len(ni.Pods) != 0 || s.NumPods() != 1 {
		t.Errorf("removed pod came back: %v", ni)
	}
}

// TestSnapshotValidation: bad pods and nodes are rejected with an error
// naming them, and nothing is applied.
func TestSnapshotValidation(t *testing.T) {
	newSnap := func() *Snapshot {
		s, err := NewSnapshot([]*api.Node{mkNode("n", rl("cpu", "4"), nil)},
			[]*api.Pod{mkPod("ns", "exists", "uid-exists", "n").container(rl("cpu", "1")).obj()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	pods := []struct {
		name    string
		add     func(s *Snapshot) error
		mention string
	}{
		{"negative cpu", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "neg", "u", "n").container(rl("cpu", "-1")).obj())
		}, "ns/neg"},
		{"negative overhead", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "negoh", "u", "n").container(nil).overhead(rl("memory", "-1")).obj())
		}, "ns/negoh"},
		{"overflowing memory", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "huge", "u", "n").container(rl("memory", "100E")).obj())
		}, "ns/huge"},
		{"overflowing millicpu", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "hugecpu", "u", "n").container(rl("cpu", "10P")).obj())
		}, "ns/hugecpu"},
		{"overflowing total", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "sum", "u", "n").container(rl("memory", "5E")).container(rl("memory", "5E")).obj())
		}, "ns/sum"},
		{"overflowing node sum", func(s *Snapshot) error {
			if err := s.AddPod(mkPod("ns", "big1", "b1", "n").container(rl("memory", "8E")).obj()); err != nil {
				return nil
			}
			return s.AddPod(mkPod("ns", "big2", "b2", "n").container(rl("memory", "8E")).obj())
		}, "ns/big2"},
		{"duplicate name", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "exists", "other", "n").obj())
		}, "ns/exists"},
		{"duplicate uid", func(s *Snapshot) error {
			return s.AddPod(mkPod("ns", "fresh", "uid-exists", "n").obj())
		}, "uid-exists"},
		{"no node name", func(s *Snapshot) error { return s.AddPod(mkPod("ns", "unbound", "", "").obj()) }, "ns/unbound"},
		{"assume without node", func(s *Snapshot) error { return s.AssumePod(mkPod("ns", "x", "", "").obj(), "") }, "empty node name"},
		{"nil pod", func(s *Snapshot) error { return s.AddPod(nil) }, "nil"},
		{"unnamed pod", func(s *Snapshot) error { return s.AddPod(mkPod("ns", "", "u", "n").obj()) }, "empty name"},
		{"remove unknown", func(s *Snapshot) error { return s.RemovePod(mkPod("ns", "ghost", "", "").obj()) }, "ns/ghost"},
		{"remove with other uid", func(s *Snapshot) error { return s.RemovePod(mkPod("ns", "exists", "nope", "").obj()) }, "ns/exists"},
		{"update to bad quantity", func(s *Snapshot) error {
			return s.UpdatePod(mkPod("ns", "exists", "", "").obj(), mkPod("ns", "exists", "uid-exists", "n").container(rl("cpu", "-2")).obj())
		}, "ns/exists"},
		{"update renaming", func(s *Snapshot) error {
			return s.UpdatePod(mkPod("ns", "exists", "", "").obj(), mkPod("ns", "other", "uid-exists", "n").obj())
		}, "ns/other"},
		{"node without name", func(s *Snapshot) error { return s.AddNode(mkNode("", nil, nil)) }, "empty name"},
		{"duplicate node", func(s *Snapshot) error { return s.AddNode(mkNode("n", nil, nil)) }, `"n"`},
		{"negative allocatable", func(s *Snapshot) error { return s.AddNode(mkNode("m", rl("memory", "-1"), nil)) }, `"m"`},
		{"update unknown node", func(s *Snapshot) error { return s.UpdateNode(mkNode("m", nil, nil)) }, `"m"`},
		{"remove unknown node", func(s *Snapshot) error { return s.RemoveNode("m") }, `"m"`},
	}
	for _, tt := range pods {
		t.Run(tt.name, func(t *testing.T) {
			s := newSnap()
			err := tt.add(s)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q does not mention %q", err, tt.mention)
			}
			// Nothing applied beyond what succeeded before the failure.
			ni, _ := s.Get("n")
			checkInvariants(t, s)
			if _, _, ok := s.Pod("ns", "exists"); !ok {
				t.Error("existing pod lost")
			}
			if ni.Requested.MilliCPU != 1000 || ni.Requested.Memory%(1<<60) != 0 && ni.Requested.Memory > 8e18 {
				t.Errorf("node changed: %v", ni)
			}
		})
	}
	if _, err := NewSnapshot([]*api.Node{mkNode("a", nil, nil), mkNode("a", nil, nil)}, nil); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("duplicate node: %v", err)
	}
	_, err := NewSnapshot([]*api.Node{mkNode("a", nil, nil)}, []*api.Pod{mkPod("ns", "p", "", "").obj()})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "ns/p") {
		t.Errorf("unbound pod: %v", err)
	}
}

// TestSnapshotUpdatePod: an update replaces the pod's contribution, moves
// it to its new spec.nodeName, or keeps an assumed pod where it is.
func TestSnapshotUpdatePod(t *testing.T) {
	s, err := NewSnapshot([]*api.Node{mkNode("a", nil, nil), mkNode("b", nil, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := mkPod("ns", "p", "u", "").container(rl("cpu", "1"), tcp("", 80)).obj()
	if err := s.AssumePod(p, "a"); err != nil {
		t.Fatal(err)
	}
	if p.Spec.NodeName != "" {
		t.Error("AssumePod modified the pod")
	}
	p2 := mkPod("ns", "p", "u", "").container(rl("cpu", "2")).obj()
	if err := s.UpdatePod(p, p2); err != nil {
		t.Fatal(err)
	}
	a, _ := s.Get("a")
	if a.Requested.MilliCPU != 2000 || a.UsedPorts.Len() != 0 || len(a.Pods) != 1 || a.Pods[0].Pod != p2 {
		t.Errorf("after update in place: %v", a)
	}
	p3 := mkPod("ns", "p", "u", "b").container(rl("cpu", "3")).obj()
	if err := s.UpdatePod(p2, p3); err != nil {
		t.Fatal(err)
	}
	a, _ = s.Get("a")
	b, _ := s.Get("b")
	if a.Requested.MilliCPU != 0 || len(a.Pods) != 0 || b.Requested.MilliCPU != 3000 {
		t.Errorf("after move: a=%v b=%v", a, b)
	}
	checkInvariants(t, s)
}

// TestSnapshotDomains: domains by label key, computed on first use and
// then kept up to date through node changes; earlier views keep theirs.
func TestSnapshotDomains(t *testing.T) {
	const zone = "topology.kubernetes.io/zone"
	nodes := []*api.Node{
		mkNode("n0", nil, map[string]string{zone: "a", "rack": "r1"}),
		mkNode("n1", nil, map[string]string{zone: "b"}),
		mkNode("n2", nil, map[string]string{zone: "a", "rack": "r1"}),
		mkNode("n3", nil, nil),
	}
	s, err := NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	v0 := s.View()
	// Zones a, b and none round-robin: n0, n1, n3, n2.
	if diff := cmp.Diff(map[string][]int{"a": {0, 3}, "b": {1}}, v0.Domains(zone)); diff != "" {
		t.Errorf("zone domains (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"r1": {0, 3}}, s.Domains("rack")); diff != "" {
		t.Errorf("rack domains (-want +got):\n%s", diff)
	}
	steps := []func() error{
		func() error { return s.AddNode(mkNode("n4", nil, map[string]string{zone: "c", "rack": "r2"})) },
		func() error { return s.RemoveNode("n0") },
		func() error { return s.UpdateNode(mkNode("n1", nil, map[string]string{zone: "a", "rack": "r2"})) },
		func() error { return s.RemoveNode("n3") },
		func() error { return s.AddNode(mkNode("n5", nil, map[string]string{zone: "b"})) },
		func() error { return s.RemoveNode("n5") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		v := s.View()
		for _, key := range []string{zone, "rack"} {
			if diff := cmp.Diff(buildDomains(v.Nodes(), key).domains, v.Domains(key)); diff != "" {
				t.Errorf("step %d: %s domains differ from a rebuild (-rebuild +kept):\n%s", i, key, diff)
			}
		}
	}
	if diff := cmp.Diff(map[string][]int{"a": {0, 3}, "b": {1}}, v0.Domains(zone)); diff != "" {
		t.Errorf("first view's domains changed (-want +got):\n%s", diff)
	}
	if len(s.topo) != 2 {
		t.Errorf("snapshot tracks %d keys, want 2", len(s.topo))
	}
}

// TestSnapshotAffinityLists follows upstream's HavePodsWithAffinityList
// and HavePodsWithRequiredAntiAffinityList.
func TestSnapshotAffinityLists(t *testing.T) {
	s, err := NewSnapshot([]*api.Node{mkNode("a", nil, nil), mkNode("b", nil, nil), mkNode("c", nil, nil)}, []*api.Pod{
		mkPod("ns", "anti", "1", "a").antiAffinity("zone").obj(),
		mkPod("ns", "pref", "2", "b").preferredAffinity("zone").obj(),
		mkPod("ns", "plain", "3", "c").obj(),
	})
	if err != nil {
		t.Fatal(err)
	}
	names := func(ns []*NodeInfo) (out []string) {
		for _, n := range ns {
			out = append(out, n.Name())
		}
		return out
	}
	if diff := cmp.Diff([]string{"a", "b"}, names(s.HavePodsWithAffinityNodes())); diff != "" {
		t.Errorf("HavePodsWithAffinityNodes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a"}, names(s.HavePodsWithRequiredAntiAffinityNodes())); diff != "" {
		t.Errorf("HavePodsWithRequiredAntiAffinityNodes (-want +got):\n%s", diff)
	}
	if err := s.RemovePod(mkPod("ns", "anti", "", "").obj()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b"}, names(s.HavePodsWithAffinityNodes())); diff != "" {
		t.Errorf("after removal (-want +got):\n%s", diff)
	}
	if got := s.HavePodsWithRequiredAntiAffinityNodes(); len(got) != 0 {
		t.Errorf("after removal: %v", names(got))
	}
}

// TestSnapshotCopyOnWrite: a view is never changed by later writes, the
// writer copies only what it changes, and generations grow.
func TestSnapshotCopyOnWrite(t *testing.T) {
	s, err := NewSnapshot([]*api.Node{mkNode("a", rl("cpu", "4"), nil), mkNode("b", rl("cpu", "4"), nil)}, []*api.Pod{
		mkPod("ns", "p1", "1", "a").container(rl("cpu", "1"), tcp("", 80)).obj(),
	})
	if err != nil {
		t.Fatal(err)
	}
	v1 := s.View()
	if s.View() != v1 {
		t.Error("unchanged snapshot made a new view")
	}
	a1, _ := v1.Get("a")
	b1, _ := v1.Get("b")
	gen := s.Generation()
	if a1.Generation > gen || b1.Generation > gen {
		t.Errorf("node generation beyond the snapshot's: %d %d > %d", a1.Generation, b1.Generation, gen)
	}
	if err := s.AddPod(mkPod("ns", "p2", "2", "a").container(rl("cpu", "2"), tcp("", 81)).obj()); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPod(mkPod("ns", "p3", "3", "a").container(rl("cpu", "1")).obj()); err != nil {
		t.Fatal(err)
	}
	v2 := s.View()
	a2, _ := v2.Get("a")
	b2, _ := v2.Get("b")
	if a1.Requested.MilliCPU != 1000 || len(a1.Pods) != 1 || a1.UsedPorts.Len() != 1 {
		t.Errorf("view 1 changed: %v", a1)
	}
	if a2.Requested.MilliCPU != 4000 || len(a2.Pods) != 3 || a2.UsedPorts.Len() != 2 {
		t.Errorf("view 2: %v", a2)
	}
	if b2 != b1 {
		t.Error("unchanged node was copied")
	}
	if a2.Generation <= a1.Generation || s.Generation() <= gen || v2.Generation() <= v1.Generation() {
		t.Error("generations did not grow")
	}
	// Between views the writer changes its own copy in place.
	if err := s.RemovePod(mkPod("ns", "p3", "", "").obj()); err != nil {
		t.Fatal(err)
	}
	if a2.Requested.MilliCPU != 4000 {
		t.Errorf("view 2 changed: %v", a2)
	}
}

// TestZeroSnapshot: the zero Snapshot is empty and usable.
func TestZeroSnapshot(t *testing.T) {
	var s Snapshot
	if len(s.Nodes()) != 0 || s.NumNodes() != 0 || s.NumPods() != 0 {
		t.Fatal("zero snapshot not empty")
	}
	if _, ok := s.Get("a"); ok {
		t.Fatal("Get on empty snapshot")
	}
	if err := s.AddPod(mkPod("ns", "p", "u", "a").container(rl("cpu", "1")).obj()); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNode(mkNode("a", nil, nil)); err != nil {
		t.Fatal(err)
	}
	if ni, ok := s.Get("a"); !ok || ni.Requested.MilliCPU != 1000 {
		t.Fatalf("got %v", ni)
	}
	checkInvariants(t, &s)
}

// TestNewSnapshotContextCancelled: a done context stops the build with
// its error, and a live one builds what NewSnapshot builds.
func TestNewSnapshotContextCancelled(t *testing.T) {
	nodes := []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "n1"}}}
	var pods []*api.Pod
	for i := range 2000 {
		pods = append(pods, &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("p%d", i)}, Spec: api.PodSpec{NodeName: "n1"}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewSnapshotContext(ctx, nodes, pods); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v, want context.Canceled", err)
	}
	s, err := NewSnapshotContext(context.Background(), nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if ni, _ := s.Get("n1"); ni == nil || len(ni.Pods) != len(pods) {
		t.Fatalf("live context: node n1 holds %v", ni)
	}
}
