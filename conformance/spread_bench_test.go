package conformance

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/scheduler"
)

// spreadingCluster is shaped like scheduler_perf's TopologySpreading
// workload: n nodes (4 cores, 32Gi, 110 pods) in zones moon-1..3, n plain
// pods (100m/500Mi, no labels) and spread pods (color=blue, zone
// DoNotSchedule maxSkew 5) placed round-robin, as midway through the
// measured phase.
func spreadingCluster(n, spread int) ([]*api.Node, []*api.Pod) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range n {
		nodes = append(nodes, node(fmt.Sprintf("node-%d", i), rl("cpu", "4", "memory", "32Gi", "pods", "110"),
			map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("moon-%d", i%3+1)}))
	}
	for i := range n {
		pods = append(pods, boundPod(fmt.Sprintf("pod-%d", i), nodes[i%n].Name, ctr("pause", rl("cpu", "100m", "memory", "500Mi"), rl("cpu", "100m", "memory", "500Mi"))))
	}
	for i := range spread {
		p := spreadingPod()
		p.Name, p.UID, p.Spec.NodeName = fmt.Sprintf("spreading-pod-%d", i), fmt.Sprintf("uid-spreading-%d", i), nodes[(i*7)%n].Name
		pods = append(pods, p)
	}
	return nodes, pods
}

// spreadingPod is scheduler_perf's pod-with-topology-spreading.yaml.
func spreadingPod() *api.Pod {
	p := pod(ctr("pause", rl("cpu", "100m", "memory", "500Mi"), rl("cpu", "100m", "memory", "500Mi")))
	p.Name, p.Labels = "spreading-pod", map[string]string{"color": "blue"}
	p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
		MaxSkew: 5, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": "blue"}},
	}}
	return p
}

// BenchmarkTopologySpreading is one decision (every node filtered and
// scored) of a TopologySpreading pod at 5,000 nodes with 5,000 plain and
// 1,000 spread pods, with the plugins both implement in kube-scheduler's
// default-profile order and weights, after one decision off the clock.
// cpu-ns/op is the process's CPU time per decision (all threads),
// steadier than ns/op on a shared machine.
func BenchmarkTopologySpreading(b *testing.B) {
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
	const n = 5000
	nodes, pods := spreadingCluster(n, 1000)
	skPod := spreadingPod()
	b.Run(fmt.Sprintf("nodes=%d/upstream", n), func(b *testing.B) {
		vn, vp := upstream.ConvertCluster(nodes, pods)
		f, err := upstream.NewFrameworkParallel(ctx, vn, vp, plugins, par)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		up := upstream.MustConvert[v1.Pod](skPod)
		// One decision off the clock on both sides, as schedkit's
		// first decision counts from scratch (later ones keep counts).
		if _, err := f.Schedule(ctx, up); err != nil {
			b.Fatal(err)
		}
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
		s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(par), scheduler.WithPercentageOfNodesToScore(100))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Schedule(ctx, skPod); err != nil {
			b.Fatal(err)
		}
		timeDecisions(b, func() {
			if _, err := s.Schedule(ctx, skPod); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// TestTopologySpreadingBenchAgrees checks that the benchmark's two
// schedulers agree on a smaller cluster of the same shape.
func TestTopologySpreadingBenchAgrees(t *testing.T) {
	nodes, pods := spreadingCluster(60, 40)
	var plugins []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	in := &regression.PluginsInput{Nodes: nodes, Pods: pods, Pod: spreadingPod(), Plugins: plugins}
	if _, sk, us, same := Diff(regression.KindPlugins, in, upFn(upstream.PluginsCycle)); !same {
		t.Errorf("schedkit: %s\nupstream: %s", mustCanon(sk), mustCanon(us))
	}
}
