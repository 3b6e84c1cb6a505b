package cluster

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// describeState lists what a snapshot's next view holds, generations
// aside: the node order, each node's pods, sums and ports, the pod index
// and the zone domains.
func describeState(s *Snapshot) []string {
	v := s.View()
	var out []string
	for _, ni := range v.Nodes() {
		var pods []string
		for _, p := range ni.Pods {
			pods = append(pods, p.Pod.Namespace+"/"+p.Pod.Name)
		}
		slices.Sort(pods)
		out = append(out, fmt.Sprintf("%s [%s] %+v %d/%d ports=%d aff=%d anti=%d img=%d", ni.Name(), strings.Join(pods, " "), ni.Requested,
			ni.NonZeroRequested.MilliCPU, ni.NonZeroRequested.Memory, ni.UsedPorts.Len(),
			len(ni.PodsWithAffinity), len(ni.PodsWithRequiredAntiAffinity), len(ni.ImageStates)))
	}
	out = append(out, fmt.Sprintf("pods=%d", s.NumPods()))
	for _, key := range []string{clustergen.LabelZone, clustergen.LabelHostname} {
		out = append(out, fmt.Sprintf("%s=%v", key, v.Domains(key)))
	}
	return out
}

// forkOp is one change, replayable on another snapshot.
type forkOp func(s *Snapshot) error

// TestPropForkIndependent: a family of snapshots made with Fork and
// Reset, changed at random, each hold at every step what a snapshot
// that never forked holds after the same changes (its own history,
// replayed), views taken along the way never change, and every snapshot
// keeps its invariants.
func TestPropForkIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 4).Draw(t, "nodes"), rapid.IntRange(0, 10).Draw(t, "pods")).Draw(t, "cluster")
		root, err := NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		snaps := []*Snapshot{root}
		logs := [][]forkOp{nil}
		type frozen struct {
			v    *View
			want []string
		}
		var views []frozen
		describeView := func(v *View) []string {
			var out []string
			for _, ni := range v.Nodes() {
				out = append(out, fmt.Sprintf("%s %d %+v %v", ni.Name(), len(ni.Pods), ni.Requested, ni.Generation))
			}
			return out
		}
		nodeNames := []string{"node-0", "node-1", "node-2", "node-3", "node-4"}
		next := 0
		apply := func(t *rapid.T, i int, op forkOp) {
			err := op(snaps[i])
			logs[i] = append(slices.Clip(logs[i]), op)
			_ = err // the twin replays the same op and must fail alike
		}
		pick := func(t *rapid.T) int { return rapid.IntRange(0, len(snaps)-1).Draw(t, "snapshot") }
		podNamed := func(t *rapid.T, s *Snapshot) (*api.Pod, bool) {
			var names []string
			for _, ni := range s.View().Nodes() {
				for _, p := range ni.Pods {
					names = append(names, p.Pod.Namespace+"/"+p.Pod.Name)
				}
			}
			if len(names) == 0 {
				return nil, false
			}
			slices.Sort(names)
			n := rapid.SampledFrom(names).Draw(t, "pod")
			ns, name, _ := strings.Cut(n, "/")
			return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}}, true
		}
		t.Repeat(map[string]func(*rapid.T){
			"fork": func(t *rapid.T) {
				if len(snaps) >= 5 {
					t.Skip("enough forks")
				}
				i := pick(t)
				snaps = append(snaps, snaps[i].Fork())
				logs = append(logs, slices.Clip(logs[i]))
			},
			"reset": func(t *rapid.T) {
				i, j := pick(t), pick(t)
				if err := snaps[i].Reset(snaps[j]); err != nil {
					t.Fatal(err)
				}
				logs[i] = slices.Clip(logs[j])
			},
			"assumePod": func(t *rapid.T) {
				p := clustergen.Pod().Draw(t, "pod")
				p.Name, p.UID = fmt.Sprintf("new-%d", next), fmt.Sprintf("uid-new-%d", next)
				next++
				node := rapid.SampledFrom(nodeNames).Draw(t, "node")
				apply(t, pick(t), func(s *Snapshot) error { return s.AssumePod(p, node) })
			},
			"removePod": func(t *rapid.T) {
				i := pick(t)
				p, ok := podNamed(t, snaps[i])
				if !ok {
					t.Skip("no pods")
				}
				apply(t, i, func(s *Snapshot) error { return s.RemovePod(p) })
			},
			"addNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "newNode")
				n.Name = rapid.SampledFrom(nodeNames).Draw(t, "node")
				apply(t, pick(t), func(s *Snapshot) error { return s.AddNode(n) })
			},
			"updateNode": func(t *rapid.T) {
				n := clustergen.Node().Draw(t, "newNode")
				n.Name = rapid.SampledFrom(nodeNames).Draw(t, "node")
				apply(t, pick(t), func(s *Snapshot) error { return s.UpdateNode(n) })
			},
			"removeNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "node")
				apply(t, pick(t), func(s *Snapshot) error { return s.RemoveNode(name) })
			},
			"addObject": func(t *rapid.T) {
				name := fmt.Sprintf("svc-%d", next)
				next++
				apply(t, pick(t), func(s *Snapshot) error {
					return s.AddObject(&api.Service{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}})
				})
			},
			"view": func(t *rapid.T) {
				i := pick(t)
				apply(t, i, func(s *Snapshot) error { s.View(); return nil })
				v := snaps[i].View()
				views = append(views, frozen{v, describeView(v)})
			},
			"": func(t *rapid.T) {
				for i, s := range snaps {
					checkInvariants(t, s)
					twin, err := NewSnapshot(c.Nodes, c.Pods)
					if err != nil {
						t.Fatal(err)
					}
					for _, op := range logs[i] {
						_ = op(twin)
					}
					if diff := cmp.Diff(describeState(twin), describeState(s)); diff != "" {
						t.Fatalf("snapshot %d differs from its history replayed (-replayed +kept):\n%s", i, diff)
					}
					if len(ListObjects[api.Service](twin.Objects(), "default")) != len(ListObjects[api.Service](s.Objects(), "default")) {
						t.Fatalf("snapshot %d: services differ from its history replayed", i)
					}
					// The check took a view, which decides later node
					// orders: the history records it.
					logs[i] = append(slices.Clip(logs[i]), func(s *Snapshot) error { s.View(); return nil })
				}
				for _, f := range views {
					if diff := cmp.Diff(f.want, describeView(f.v)); diff != "" {
						t.Fatalf("a view changed (-then +now):\n%s", diff)
					}
				}
			},
		})
	})
}

// TestForkResetOtherLineage: Reset refuses a snapshot of another
// lineage.
func TestForkResetOtherLineage(t *testing.T) {
	a, b := &Snapshot{}, &Snapshot{}
	if err := a.Reset(b); err != ErrOtherLineage {
		t.Fatalf("Reset across lineages: %v, want ErrOtherLineage", err)
	}
	if err := a.Reset(a.Fork()); err != nil {
		t.Fatal(err)
	}
}

// TestForkConcurrent changes forks of one snapshot from several
// goroutines while the origin changes too (run with -race): each ends
// with its own pods only.
func TestForkConcurrent(t *testing.T) {
	var nodes []*api.Node
	for i := range 8 {
		nodes = append(nodes, mkNode(fmt.Sprintf("n%d", i), rl("cpu", "8", "memory", "8Gi", "pods", "110"),
			map[string]string{clustergen.LabelZone: fmt.Sprintf("z%d", i%2)}, img(100, "app:v1")))
	}
	var pods []*api.Pod
	for i := range 40 {
		pods = append(pods, mkPod("default", fmt.Sprintf("p%d", i), fmt.Sprintf("u%d", i), nodes[i%8].Name).container(rl("cpu", "100m")).obj())
	}
	root, err := NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	root.View().Domains(clustergen.LabelZone)
	const workers = 4
	forks := make([]*Snapshot, workers+1)
	for i := range forks {
		forks[i] = root.Fork()
	}
	forks[workers] = root // the origin changes too
	var wg sync.WaitGroup
	for w, s := range forks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				p := mkPod("default", fmt.Sprintf("w%d-%d", w, i), fmt.Sprintf("w%d-%d", w, i), "").container(rl("cpu", "10m")).obj()
				if err := s.AssumePod(p, nodes[(w+i)%8].Name); err != nil {
					t.Error(err)
					return
				}
				if i%3 == 0 {
					if err := s.RemovePod(pods[(w*7+i)%40]); err != nil && i < 40 {
						_ = err // removed by an earlier round
					}
				}
				if i%10 == 0 {
					_ = s.RemoveNode(nodes[w].Name)
					_ = s.AddNode(nodes[w])
				}
				s.View().Domains(clustergen.LabelZone)
			}
		}()
	}
	wg.Wait()
	for w, s := range forks {
		checkInvariants(t, s)
		for _, ni := range s.View().Nodes() {
			for _, p := range ni.Pods {
				if n := p.Pod.Name; n[0] == 'w' && !strings.HasPrefix(n, fmt.Sprintf("w%d-", w)) {
					t.Fatalf("snapshot %d holds %s of another", w, n)
				}
			}
		}
	}
}

// BenchmarkForkRevert forks a snapshot of 5,000 nodes and 150,000 pods,
// assumes 100 pods on the fork and resets it to its origin; cpu-ns/op
// is the CPU time (all threads), the measure on a loaded machine.
func BenchmarkForkRevert(b *testing.B) {
	root, pods := benchLoadedSnapshot(b, 5000, 30)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		f := root.Fork()
		for j := range 100 {
			if err := f.AssumePod(pods[j], fmt.Sprintf("node-%05d", (i*100+j)%5000)); err != nil {
				b.Fatal(err)
			}
		}
		if err := f.Reset(root); err != nil {
			b.Fatal(err)
		}
	}
}

// benchLoadedSnapshot returns a snapshot of n nodes with perNode pods
// each, and 100 pods to place.
func benchLoadedSnapshot(b *testing.B, n, perNode int) (*Snapshot, []*api.Pod) {
	b.Helper()
	var nodes []*api.Node
	alloc := rl("cpu", "32", "memory", "128Gi", "pods", "110")
	for i := range n {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, mkNode(name, alloc, map[string]string{clustergen.LabelZone: fmt.Sprintf("z%d", i%10), clustergen.LabelHostname: name}))
	}
	req := rl("cpu", "100m", "memory", "128Mi")
	var bound []*api.Pod
	for i := range n * perNode {
		name := fmt.Sprintf("bound-%06d", i)
		bound = append(bound, mkPod("default", name, name, nodes[i%n].Name).container(req).obj())
	}
	s, err := NewSnapshot(nodes, bound)
	if err != nil {
		b.Fatal(err)
	}
	var pods []*api.Pod
	for i := range 100 {
		name := fmt.Sprintf("new-%03d", i)
		pods = append(pods, mkPod("default", name, name, "").container(req).obj())
	}
	return s, pods
}

// TestChangesCountsWritesOnly: Changes moves with every write and
// Reset, not with views, which refresh image states.
func TestChangesCountsWritesOnly(t *testing.T) {
	n := mkNode("n", rl("cpu", "1", "pods", "10"), nil, img(10, "app:v1"))
	s, err := NewSnapshot([]*api.Node{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c0 := s.Changes()
	s.View()
	if s.Changes() != c0 {
		t.Fatalf("a view changed Changes: %d → %d", c0, s.Changes())
	}
	if err := s.AssumePod(mkPod("default", "p", "u", "").obj(), "elsewhere"); err != nil {
		t.Fatal(err)
	}
	c1 := s.Changes()
	if c1 == c0 {
		t.Fatal("a pod of a node not held left Changes as it was")
	}
	if err := s.Reset(s.Fork()); err != nil || s.Changes() == c1 {
		t.Fatalf("Reset: %v, Changes %d → %d", err, c1, s.Changes())
	}
}
