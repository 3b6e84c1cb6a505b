package conformance

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	kfeatures "k8s.io/kubernetes/pkg/features"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
)

// gangCountFlag is the number of gangs a gang stream places.
var gangCountFlag = flag.Int("gang.count", 100, "gangs per gang stream benchmark op")

// gangWorkload is the gang workload: scheduler_perf's default
// nodes and 1,000 plain initial pods bound round robin (as
// SchedulingBasic), then gangs of 8 pods (pod-default.yaml), each a
// PodGroup with a gang policy of minCount 8 whose pods avoid each other
// by hostname (required pod anti-affinity on the gang's label).
type gangWorkload struct {
	nodes    []*api.Node
	initPods []*api.Pod
	size     int
}

func newGangWorkload(n int) gangWorkload {
	nodes := sbNodes(n, nil, nil)
	init := bindRoundRobin(sbPods(min(1000, n), func(i int) *api.Pod { return sbPod(fmt.Sprintf("init-%05d", i), "init") }), nodes)
	return gangWorkload{nodes: nodes, initPods: init, size: 8}
}

// gang returns the g-th gang: its PodGroup and its pods in creation
// order.
func (w gangWorkload) gang(g int) (*api.PodGroup, []*api.Pod) {
	name := fmt.Sprintf("gang-%03d", g)
	zero := int32(0)
	pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "gangs", UID: "uid-pg-" + name},
		Spec: api.PodGroupSpec{Priority: &zero,
			SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: int32(w.size)}}}}
	pods := make([]*api.Pod, w.size)
	for i := range pods {
		p := sbPod(fmt.Sprintf("%s-%d", name, i), "gangs")
		p.Labels = map[string]string{"gang": name}
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"gang": name}},
				TopologyKey:   "kubernetes.io/hostname"}}}}
		g := name
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &g}
		pods[i] = p
	}
	return pg, pods
}

// upGang is a gang converted for upstream.
type upGang struct {
	pg   *schedulingv1beta1.PodGroup
	pods []*v1.Pod
}

func (w gangWorkload) upstreamGangs(count int) []upGang {
	out := make([]upGang, count)
	for g := range out {
		pg, pods := w.gang(g)
		_, vp := upstream.ConvertCluster(nil, pods)
		out[g] = upGang{pg: upstream.MustConvert[schedulingv1beta1.PodGroup](pg), pods: vp}
	}
	return out
}

// BenchmarkGangStream is the side-by-side gang measurement: each
// op builds the gang workload's cluster at 5,000 nodes (off the clock),
// then places -gang.count gangs one after another, each by its PodGroup
// cycle and assumed before the next. Upstream: placeGroup, the PodGroup
// cycle of schedule_one_podgroup.go driven without queue and API server
// (GenericWorkload on); schedkit: Simulate of the gang's pods. A gang's
// PodGroup and members reach each side off the clock (the informers'
// work). ns/gang, cpu-ns/gang and allocs/gang are per gang. Names:
// GangStream/AntiAffinity/<all-nodes|sampled>/<upstream|schedkit>;
// TestGangStreamAgrees checks the two sides place alike.
func BenchmarkGangStream(b *testing.B) {
	featuregatetesting.SetFeatureGateDuringTest(b, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, true)
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	w := newGangWorkload(*streamNodesFlag)
	count := *gangCountFlag
	for _, v := range streamVariants {
		b.Run("AntiAffinity/"+v.name+"/upstream", func(b *testing.B) {
			skipSide(b, "upstream")
			vn, vp := upstream.ConvertCluster(w.nodes, w.initPods)
			gangs := w.upstreamGangs(count)
			var st streamStats
			n := 0
			for b.Loop() {
				b.StopTimer()
				u, err := newUpStreamFor(vn, vp, nil, v.pct, par, true)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				for _, g := range gangs {
					u.addGroup(g.pg, g.pods)
					t0, c0, m0 := startStats()
					members, status, err := u.placeGroup(g.pg, g.pods, nil)
					st.add(t0, c0, m0)
					if err != nil {
						b.Fatal(err)
					}
					if !status.IsSuccess() {
						b.Fatalf("upstream: gang %s: %v", g.pg.Name, status.Message())
					}
					for _, m := range members {
						if m.node == "" {
							b.Fatalf("upstream: %s not placed", m.pod.Name)
						}
					}
				}
				u.Close()
				n += count
				b.StartTimer()
			}
			st.reportGangs(b, n)
		})
		b.Run("AntiAffinity/"+v.name+"/schedkit", func(b *testing.B) {
			skipSide(b, "schedkit")
			type gang struct {
				pg   *api.PodGroup
				pods []*api.Pod
			}
			gangs := make([]gang, count)
			for g := range gangs {
				gangs[g].pg, gangs[g].pods = w.gang(g)
			}
			var st streamStats
			n := 0
			for b.Loop() {
				b.StopTimer()
				k, err := newSkGangs(w.nodes, w.initPods, nil, v.pct, par)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				for _, g := range gangs {
					if err := k.addGroup(g.pg); err != nil {
						b.Fatal(err)
					}
					t0, c0, m0 := startStats()
					nodes, err := k.placeGroup(ctx, g.pods)
					st.add(t0, c0, m0)
					if err != nil {
						b.Fatal(err)
					}
					if i := slices.Index(nodes, ""); i >= 0 {
						b.Fatalf("schedkit: %s not placed", g.pods[i].Name)
					}
				}
				k.Close()
				n += count
				b.StartTimer()
			}
			st.reportGangs(b, n)
		})
	}
}

// reportGangs reports the timed region per gang.
func (s *streamStats) reportGangs(b *testing.B, gangs int) {
	if gangs == 0 {
		return
	}
	b.ReportMetric(float64(s.wall.Nanoseconds())/float64(gangs), "ns/gang")
	b.ReportMetric(float64(s.cpu.Nanoseconds())/float64(gangs), "cpu-ns/gang")
	b.ReportMetric(float64(s.mallocs)/float64(gangs), "allocs/gang")
	b.ReportMetric(float64(gangs)*float64(time.Second)/float64(s.wall.Nanoseconds()), "gangs/s")
}

// TestGangStreamAgrees runs the gang workload in lockstep at 500 nodes
// (20 gangs; 5 with -short), with both samplings and one goroutine a
// side: each gang goes first to schedkit's PodGroup cycle, then to
// upstream's, whose outcome must be schedkit's and each of whose members
// must find schedkit's node among the nodes tied at its best total (it
// then takes that node, so that both go on from the same cluster).
func TestGangStreamAgrees(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, true)
	count := 20
	if testing.Short() {
		count = 5
	}
	ctx := context.Background()
	w := newGangWorkload(500)
	ups := w.upstreamGangs(count)
	for _, v := range streamVariants {
		t.Run(v.name, func(t *testing.T) {
			vn, vp := upstream.ConvertCluster(w.nodes, w.initPods)
			u, err := newUpStreamFor(vn, vp, nil, v.pct, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			defer u.Close()
			k, err := newSkGangs(w.nodes, w.initPods, nil, v.pct, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			tiedSum, placed := 0, 0
			for g := range count {
				pg, pods := w.gang(g)
				if err := k.addGroup(pg); err != nil {
					t.Fatal(err)
				}
				skNodes, err := k.placeGroup(ctx, pods)
				if err != nil {
					t.Fatal(err)
				}
				u.addGroup(ups[g].pg, ups[g].pods)
				members, status, err := u.placeGroup(ups[g].pg, ups[g].pods, skNodes)
				if err != nil {
					t.Fatal(err)
				}
				if status.IsSuccess() == slices.Contains(skNodes, "") {
					t.Fatalf("gang %s: upstream %v, schedkit nodes %v", pg.Name, status, skNodes)
				}
				seen := map[string]bool{}
				for i, m := range members {
					if skNodes[i] != m.node {
						t.Fatalf("gang %s pod %s: schedkit %q, upstream %q, tied %v", pg.Name, pods[i].Name, skNodes[i], m.node, m.tied)
					}
					if seen[m.node] {
						t.Fatalf("gang %s: two members on %s", pg.Name, m.node)
					}
					seen[m.node] = true
					tiedSum += len(m.tied)
					placed++
				}
			}
			t.Logf("%d gangs of %d placed alike, %.1f nodes tied per pod on average", count, w.size, float64(tiedSum)/float64(max(placed, 1)))
		})
	}
}
