package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

// The benchmarks run upstream and schedkit side by side on the same
// inputs; compare each upstream/... line with the schedkit/... line below
// it. BENCHMARKS.md has the numbers and the command.

var benchQuantities = []string{"100m", "1.5Gi", "512Mi", "2", "0.5", "1e3", "250m", "16Gi", "123456789", "4Ki", "1.25", "3500m"}

func BenchmarkQuantityParse(b *testing.B) {
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := k8sresource.ParseQuantity(benchQuantities[i%len(benchQuantities)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("schedkit", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := quantity.ParseQuantity(benchQuantities[i%len(benchQuantities)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchPod is a typical pod: two containers, a sidecar, an init
// container and an overhead.
func benchPod() *api.Pod {
	p := pod(ctr("app", rl("cpu", "500m", "memory", "512Mi", "ephemeral-storage", "1Gi"), rl("cpu", "1", "memory", "1Gi")),
		ctr("log", rl("cpu", "50m", "memory", "64Mi"), nil))
	p.Spec.InitContainers = []api.Container{sidecar("proxy", rl("cpu", "100m", "memory", "128Mi")), ctr("migrate", rl("cpu", "1", "memory", "256Mi"), nil)}
	p.Spec.Overhead = rl("cpu", "100m", "memory", "64Mi")
	return p
}

func BenchmarkPodRequests(b *testing.B) {
	sk := benchPod()
	up := upstream.MustConvert[v1.Pod](sk)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = resourcehelper.PodRequests(up, resourcehelper.PodResourcesOptions{})
		}
	})
	b.Run("schedkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = resource.PodRequests(sk, resource.PodResourcesOptions{})
		}
	})
}

// benchCluster builds n nodes (2-64 cores, 4-256Gi, three zones, one in
// ten tainted, images from a small pool) with podsPerNode pods each,
// the same every time.
func benchCluster(n, podsPerNode int) ([]*api.Node, []*api.Pod) {
	r := rand.New(rand.NewPCG(1, 2))
	images := []string{"nginx:1.27", "registry.example/app:v1", "busybox:latest", "registry.example/db:v3"}
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range n {
		cores := 2 << r.IntN(5)
		name := fmt.Sprintf("node-%d", i)
		nd := node(name, rl("cpu", fmt.Sprint(cores), "memory", fmt.Sprintf("%dGi", cores*4), "pods", "110", "ephemeral-storage", "100Gi"),
			map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3)})
		if i%10 == 0 {
			nd.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule}}
		}
		for _, img := range images {
			if r.IntN(2) == 0 {
				nd.Status.Images = append(nd.Status.Images, api.ContainerImage{Names: []string{img}, SizeBytes: int64(50+r.IntN(500)) << 20})
			}
		}
		nodes = append(nodes, nd)
		for j := range podsPerNode {
			p := boundPod(fmt.Sprintf("pod-%d-%d", i, j), name,
				ctr("c", rl("cpu", fmt.Sprintf("%dm", 100+r.IntN(900)), "memory", fmt.Sprintf("%dMi", 128+r.IntN(1024))), nil))
			p.Spec.Containers[0].Image = images[r.IntN(len(images))]
			pods = append(pods, p)
		}
	}
	return nodes, pods
}

func benchPlainPod() *api.Pod {
	p := pod(ctr("app", rl("cpu", "250m", "memory", "256Mi"), nil))
	p.Spec.Containers[0].Image = "nginx:1.27"
	return p
}

// BenchmarkSchedule is one full decision (filter and score every node) of
// a plain pod with the plugins both implement, in kube-scheduler's
// default-profile order and weights.
func BenchmarkSchedule(b *testing.B) {
	var plugins []regression.PluginRef
	var cfg framework.ProfileConfig
	cfg.Disabled = []string{"*"}
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: queuesort.Name}, framework.PluginRef{Name: defaultbinder.Name})
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	for _, n := range []int{500, 5000} {
		nodes, pods := benchCluster(n, 4)
		skPod := benchPlainPod()
		b.Run(fmt.Sprintf("nodes=%d/upstream", n), func(b *testing.B) {
			vn, vp := upstream.ConvertCluster(nodes, pods)
			f, err := upstream.NewFrameworkParallel(ctx, vn, vp, plugins, par)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			up := upstream.MustConvert[v1.Pod](skPod)
			timeDecisions(b, func() {
				if _, err := f.Schedule(ctx, up); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(fmt.Sprintf("nodes=%d/schedkit", n), func(b *testing.B) {
			snap, err := cluster.NewSnapshot(nodes, pods)
			if err != nil {
				b.Fatal(err)
			}
			hundred := int32(100)
			s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(par), scheduler.WithPercentageOfNodesToScore(hundred))
			if err != nil {
				b.Fatal(err)
			}
			timeDecisions(b, func() {
				if _, err := s.Schedule(ctx, skPod); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// TestScheduleBenchAgrees checks that the benchmark's two schedulers see
// the same feasible nodes and best scores on the benchmark cluster.
func TestScheduleBenchAgrees(t *testing.T) {
	nodes, pods := benchCluster(60, 4)
	var plugins []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	in := &regression.PluginsInput{Nodes: nodes, Pods: pods, Pod: benchPlainPod(), Plugins: plugins}
	if _, sk, us, same := Diff(regression.KindPlugins, in, upFn(upstream.PluginsCycle)); !same {
		t.Errorf("schedkit: %s\nupstream: %s", mustCanon(sk), mustCanon(us))
	}
}

// preemptionCluster is n nodes of 4 cores, each full with four 1-core
// pods of priority 0, started a minute apart.
func preemptionCluster(n int) ([]*api.Node, []*api.Pod) {
	var nodes []*api.Node
	var pods []*api.Pod
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	zero := int32(0)
	for i := range n {
		name := fmt.Sprintf("node-%d", i)
		nodes = append(nodes, node(name, rl("cpu", "4", "memory", "16Gi", "pods", "110"), nil))
		for j := range 4 {
			p := boundPod(fmt.Sprintf("low-%d-%d", i, j), name, ctr("c", rl("cpu", "1", "memory", "1Gi"), nil))
			p.Spec.Priority = &zero
			st := api.NewTime(base.Add(time.Duration(j) * time.Minute))
			p.Status.StartTime = &st
			pods = append(pods, p)
		}
	}
	return nodes, pods
}

// BenchmarkPreemption is one failed decision and DefaultPreemption's
// evaluation for a priority-1000 pod needing 2 cores on 5,000 full nodes
// (500 candidates dry-run: 10% of the nodes), one goroutine on each side:
// upstream's Filter on every node, PodEligibleToPreemptOthers,
// DryRunPreemption and SelectCandidate; schedkit's Schedule with
// DefaultPreemption as PostFilter.
func BenchmarkPreemption(b *testing.B) {
	nodes, pods := preemptionCluster(5000)
	high := int32(1000)
	incoming := pod(ctr("app", rl("cpu", "2", "memory", "1Gi"), nil))
	incoming.Name, incoming.UID = "urgent", "urgent"
	incoming.Spec.Priority = &high
	b.Run("upstream", func(b *testing.B) {
		pf := upstream.NewPreemptionFramework(nodes, pods, nil, 1)
		defer pf.Close()
		vpod := upstream.MustConvert[v1.Pod](incoming)
		timeDecisions(b, func() {
			if a := pf.Run(vpod, false); a.Nominated == "" {
				b.Fatalf("no nomination: %+v", a)
			}
		})
	})
	b.Run("schedkit", func(b *testing.B) {
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			b.Fatal(err)
		}
		s, err := scheduler.New(snap, scheduler.WithParallelism(1), scheduler.WithSeed(1))
		if err != nil {
			b.Fatal(err)
		}
		timeDecisions(b, func() {
			res, _ := s.Schedule(context.Background(), incoming)
			if res.PostFilterResult == nil || res.PostFilterResult.NominatedNodeName == "" {
				b.Fatalf("no nomination: %+v", res)
			}
		})
	})
}
