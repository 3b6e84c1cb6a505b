package autoscaler

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// tb is what the helpers need of *testing.T, *testing.B and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
}

func newScheduler(t tb, nodes []*api.Node, pods []*api.Pod, objs ...any) *scheduler.Scheduler {
	t.Helper()
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := snap.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	s, err := scheduler.New(snap, scheduler.WithParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pendingLeft re-runs the scheduling of pending on a new scheduler of
// the cluster with the nodes added, and returns the indexes of the
// pods of want left pending.
func pendingLeft(t tb, nodes []*api.Node, bound, pending []*api.Pod, added []*api.Node, want map[int]bool) []int {
	t.Helper()
	s := newScheduler(t, append(slices.Clip(nodes), added...), bound)
	defer s.Close()
	sim := make([]*api.Pod, len(pending))
	for i, p := range pending {
		sim[i] = noPreemption(p)
	}
	placed, err := s.Simulate(context.Background(), sim)
	if err != nil {
		t.Fatal(err)
	}
	var left []int
	for i, pl := range placed {
		if pl.Node == "" && (want == nil || want[i]) {
			left = append(left, i)
		}
	}
	return left
}

// TestPropScaleUpFewest: re-run on new schedulers, the pods a template
// helps that PlanScaleUp leaves pending are those left pending with its
// nodes, and with any one of its nodes fewer more of them stay pending.
func TestPropScaleUpFewest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 3).Draw(t, "nodes"), rapid.IntRange(0, 6).Draw(t, "bound")).Draw(t, "cluster")
		var pending []*api.Pod
		// Copies of one shape (a Deployment's pods) need several nodes
		// more often than pods of many shapes.
		copies := rapid.Bool().Draw(t, "copies")
		shape := clustergen.Pod().Draw(t, "shape")
		for i := range rapid.IntRange(1, 10).Draw(t, "pending") {
			p := shape.DeepCopy()
			if !copies {
				p = clustergen.Pod().Draw(t, "pod")
			}
			p.Name, p.UID = fmt.Sprintf("pending-%d", i), fmt.Sprintf("uid-pending-%d", i)
			// Claims the cluster lacks would make most pods ones no
			// group helps: few keep them.
			if rapid.IntRange(0, 4).Draw(t, "keepVolumes") > 0 {
				p.Spec.Volumes = nil
			}
			pending = append(pending, p)
		}
		var groups []NodeGroup
		for i := range rapid.IntRange(1, 2).Draw(t, "groups") {
			n := clustergen.Node().Draw(t, "template")
			n.Name = fmt.Sprintf("group-%d", i)
			if rapid.Bool().Draw(t, "untainted") {
				n.Spec.Taints = nil
			}
			groups = append(groups, NodeGroup{Template: n})
		}
		exp := rapid.SampledFrom([]Expander{LeastWaste, MostPods, Priority}).Draw(t, "expander")
		s := newScheduler(t, c.Nodes, c.Pods)
		defer s.Close()
		up, err := PlanScaleUp(context.Background(), s, pending, ScaleUpOptions{Groups: groups, Max: 8, Expander: exp,
			Priorities: map[int][]string{10: {"group-0"}, 20: {"group-1"}}})
		if err != nil {
			t.Fatal(err)
		}
		if s.Snapshot().NumNodes() != len(c.Nodes) {
			t.Fatal("PlanScaleUp changed the scheduler")
		}
		notHelped := map[string]bool{}
		for _, nh := range up.NotHelped {
			notHelped[nh.Pod.Name] = true
		}
		want := map[int]bool{}
		for _, i := range pendingLeft(t, c.Nodes, c.Pods, pending, nil, nil) {
			if !notHelped[pending[i].Name] {
				want[i] = true
			}
		}
		var added []*api.Node
		for _, n := range up.Nodes {
			added = append(added, n.Node)
			if len(n.Needed) == 0 {
				t.Fatalf("new node %s names no pod it is needed for", n.Node.Name)
			}
		}
		left := pendingLeft(t, c.Nodes, c.Pods, pending, added, want)
		var reported []int
		for i, pl := range up.Placements {
			if want[i] && pl.Node == "" {
				reported = append(reported, i)
			}
		}
		if !slices.Equal(left, reported) {
			t.Fatalf("re-run with the %d nodes leaves %v pending, PlanScaleUp says %v", len(added), left, reported)
		}
		for i := range added {
			fewer := slices.Delete(slices.Clone(added), i, i+1)
			if l := pendingLeft(t, c.Nodes, c.Pods, pending, fewer, want); len(l) <= len(left) {
				t.Fatalf("without %s the pods place as well (%v pending, %v with it)", added[i].Name, l, left)
			}
		}
	})
}

// TestPropScaleDownPlaced: re-run on a new scheduler without forks,
// removing PlanScaleDown's nodes in its order and scheduling their pods'
// replacements, every replacement gets a node that stays, the node
// PlanScaleDown names, and no budget allows fewer evictions than the
// removals make.
func TestPropScaleDownPlaced(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(2, 5).Draw(t, "nodes"), rapid.IntRange(0, 12).Draw(t, "pods")).Draw(t, "cluster")
		for _, p := range c.Pods {
			p.Spec.Volumes = nil
			// Drawn pods are large for drawn nodes: many are made small,
			// so that they find other nodes.
			if rapid.Bool().Draw(t, "small") {
				for i := range p.Spec.Containers {
					p.Spec.Containers[i].Resources = api.ResourceRequirements{}
				}
				p.Spec.InitContainers, p.Spec.Overhead, p.Spec.Resources = nil, nil, nil
			}
			switch rapid.IntRange(0, 5).Draw(t, "owner") {
			case 0:
			case 1:
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", Controller: ptr(true)}}
			default:
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: ptr(true)}}
			}
		}
		var objs []any
		for i := range rapid.IntRange(0, 2).Draw(t, "pdbs") {
			objs = append(objs, &api.PodDisruptionBudget{
				ObjectMeta: api.ObjectMeta{Namespace: rapid.SampledFrom(clustergen.Namespaces).Draw(t, "ns"), Name: fmt.Sprintf("pdb-%d", i), Generation: 1},
				Spec:       api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(clustergen.Apps).Draw(t, "app")}}},
				Status:     api.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: int32(rapid.IntRange(0, 2).Draw(t, "allowed"))},
			})
		}
		s := newScheduler(t, c.Nodes, c.Pods, objs...)
		defer s.Close()
		opt := ScaleDownOptions{UtilizationThreshold: rapid.Float64Range(0.2, 1.01).Draw(t, "threshold"), MoveSystemPods: rapid.Bool().Draw(t, "moveSystem")}
		down, err := PlanScaleDown(context.Background(), s, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(down.Removed)+len(down.Kept) != len(c.Nodes) {
			t.Fatalf("%d removed + %d kept of %d nodes", len(down.Removed), len(down.Kept), len(c.Nodes))
		}
		re := newScheduler(t, c.Nodes, c.Pods, objs...)
		defer re.Close()
		budgets := s.DisruptionBudgets()
		evicted := make([]int32, len(budgets))
		removed := map[string]bool{}
		for _, r := range down.Removed {
			removed[r.Node] = true
		}
		for _, r := range down.Removed {
			ni, ok := re.Snapshot().Get(r.Node)
			if !ok {
				t.Fatalf("node %s is gone before its turn", r.Node)
			}
			moving := map[string]bool{}
			var repl []*api.Pod
			for _, m := range r.Moves {
				moving[m.Pod.Namespace+"/"+m.Pod.Name] = true
				repl = append(repl, replacement(m.Pod))
			}
			for _, pi := range slices.Clone(ni.Pods) {
				if err := re.RemovePod(pi.Pod); err != nil {
					t.Fatal(err)
				}
				if !moving[pi.Pod.Namespace+"/"+pi.Pod.Name] {
					if !isDaemonSetPod(pi.Pod) && !terminal(pi.Pod) && !isMirrorPod(pi.Pod) {
						t.Fatalf("pod %s/%s of removed node %s neither moves nor goes with it", pi.Pod.Namespace, pi.Pod.Name, r.Node)
					}
					continue
				}
				for i, b := range budgets {
					sel := newBudgets([]*api.PodDisruptionBudget{b})
					if sel.covers(0, pi.Pod) {
						evicted[i]++
					}
				}
			}
			if err := re.RemoveNode(r.Node); err != nil {
				t.Fatal(err)
			}
			placed, err := re.Simulate(context.Background(), repl)
			if err != nil {
				t.Fatal(err)
			}
			for i, pl := range placed {
				if pl.Node == "" || removed[pl.Node] && pl.Node == r.Node {
					t.Fatalf("pod %s of %s: re-run places it on %q: %v", pl.Pod.Name, r.Node, pl.Node, pl.Err)
				}
				if pl.Node != r.Moves[i].To {
					t.Fatalf("pod %s of %s: re-run places it on %s, PlanScaleDown on %s", pl.Pod.Name, r.Node, pl.Node, r.Moves[i].To)
				}
			}
		}
		for i, b := range budgets {
			if evicted[i] > b.Status.DisruptionsAllowed {
				t.Fatalf("budget %s/%s allows %d disruptions, the removals evict %d", b.Namespace, b.Name, b.Status.DisruptionsAllowed, evicted[i])
			}
		}
		// Every pod ends on a node that stays.
		for _, ni := range re.Snapshot().Nodes() {
			if removed[ni.Name()] {
				t.Fatalf("removed node %s still there", ni.Name())
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestScaleDownBlockingRules pins cluster-autoscaler's drain rules and
// texts (utils/drain GetPodsForDeletionOnNodeDrain).
func TestScaleDownBlockingRules(t *testing.T) {
	ctrl := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: ptr(true)}}
	for _, tc := range []struct {
		name   string
		pod    func(p *api.Pod)
		reason KeptReason
		msg    string
	}{
		{"not replicated", func(p *api.Pod) { p.OwnerReferences = nil }, NotReplicated, "default/p is not replicated"},
		{"safe to evict", func(p *api.Pod) {
			p.OwnerReferences = nil
			p.Annotations = map[string]string{SafeToEvictAnnotation: "true"}
		}, "", ""},
		{"local storage", func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "v", EmptyDir: &api.EmptyDirVolumeSource{}}}
		}, LocalStorageRequested, "pod with local storage present: p"},
		{"not safe", func(p *api.Pod) { p.Annotations = map[string]string{SafeToEvictAnnotation: "false"} }, NotSafeToEvictAnnotation, "pod annotated as not safe to evict present: p"},
		{"kube-system", func(p *api.Pod) { p.Namespace = "kube-system" }, UnmovableKubeSystemPod, "non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: p"},
		{"daemonset", func(p *api.Pod) {
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", Controller: ptr(true)}}
		}, "", ""},
		{"mirror", func(p *api.Pod) { p.OwnerReferences = nil; p.Annotations = map[string]string{mirrorPodAnnotation: "x"} }, "", ""},
		{"controller missing", func(p *api.Pod) { p.OwnerReferences[0].Name = "gone" }, ControllerNotFound, `owner ReplicaSet for default/p is not available, err: replicasets.apps "gone" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "p", OwnerReferences: slices.Clone(ctrl)}}
			tc.pod(p)
			snap := &cluster.Snapshot{}
			if err := snap.AddObject(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: p.Namespace, Name: "rs"}}); err != nil {
				t.Fatal(err)
			}
			r, msg, _ := drainable(p, snap.Objects(), newBudgets(nil), ScaleDownOptions{}, testNow)
			if r != tc.reason || msg != tc.msg {
				t.Fatalf("got %q %q, want %q %q", r, msg, tc.reason, tc.msg)
			}
		})
	}
}

// benchCluster is n nodes of 16 cpus and 64Gi with perNode pods of a
// ReplicaSet each, of 1 cpu and 2Gi (every 10th node runs two only).
func benchCluster(n, perNode int) ([]*api.Node, []*api.Pod) {
	alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse("16"), api.ResourceMemory: quantity.MustParse("64Gi"), api.ResourcePods: quantity.MustParse("110")}
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range n {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}})
		k := perNode
		if i%10 == 0 {
			k = 2
		}
		for j := range k {
			pods = append(pods, benchPod(fmt.Sprintf("p-%05d-%02d", i, j), name))
		}
	}
	return nodes, pods
}

func benchPod(name, node string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: name,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: ptr(true)}}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU: quantity.MustParse("1"), api.ResourceMemory: quantity.MustParse("2Gi")}}}}},
	}
}

// BenchmarkScaleDown plans the scale-down of 5,000 nodes running 150,000
// pods of which 500 nodes run 2 pods (the candidates) and the others 30.
func BenchmarkScaleDown(b *testing.B) {
	nodes, pods := benchCluster(5000, 30)
	s := newScheduler(b, nodes, pods)
	defer s.Close()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		down, err := PlanScaleDown(context.Background(), s, ScaleDownOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(len(down.Removed)), "removed")
		}
	}
}

// BenchmarkScaleUp plans the scale-up of 5,000 full nodes for 64 pending
// pods of 1 cpu with two groups, of 8 and 16 cpus.
func BenchmarkScaleUp(b *testing.B) {
	nodes, pods := benchCluster(5000, 16)
	for _, p := range pods {
		p.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = quantity.MustParse("1")
	}
	s := newScheduler(b, nodes, pods)
	defer s.Close()
	// Fill the nodes that run two pods, so no pending pod fits.
	var filler []*api.Pod
	for i := 0; i < 5000; i += 10 {
		for j := range 14 {
			filler = append(filler, benchPod(fmt.Sprintf("f-%05d-%02d", i, j), nodes[i].Name))
		}
	}
	for _, p := range filler {
		if err := s.AddPod(p); err != nil {
			b.Fatal(err)
		}
	}
	var pending []*api.Pod
	for i := range 64 {
		p := benchPod(fmt.Sprintf("pending-%02d", i), "")
		pending = append(pending, p)
	}
	group := func(name, cpu string) NodeGroup {
		alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("64Gi"), api.ResourcePods: quantity.MustParse("110")}
		return NodeGroup{Template: &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}}
	}
	opt := ScaleUpOptions{Groups: []NodeGroup{group("small", "8"), group("large", "16")}}
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		up, err := PlanScaleUp(context.Background(), s, pending, opt)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(len(up.Nodes)), "nodes")
		}
	}
}

var testNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
