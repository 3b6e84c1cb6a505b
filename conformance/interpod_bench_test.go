package conformance

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

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

// perfWorkload is one of upstream's scheduler_perf affinity workloads
// (test/integration/scheduler_perf/affinity/performance-config.yaml):
// nodes from templates/node-default.yaml (4 cpu, 32Gi, 110 pods), initial
// pods from the workload's pod template in namespace sched-0, and the
// measured pod from the same template in sched-1.
type perfWorkload struct {
	name      string
	initPods  int
	zoneLabel bool // labelNodePrepareStrategy: topology.kubernetes.io/zone=zone1
	pod       func(name, ns, node string) *api.Pod
}

// perfPod is the pods of the scheduler_perf templates: 100m cpu and
// 500Mi memory requested and limited, a color label and a term over
// namespaces sched-1 and sched-0.
func perfPod(name, ns, node, color string, a *api.Affinity) *api.Pod {
	p := boundPod(name, node, ctr("pause", rl("cpu", "100m", "memory", "500Mi"), rl("cpu", "100m", "memory", "500Mi")))
	p.Namespace = ns
	p.Labels = map[string]string{"color": color}
	p.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10.2"
	p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80}}
	p.Spec.Affinity = a
	return p
}

func perfTerm(color, key string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": color}},
		TopologyKey: key, Namespaces: []string{"sched-1", "sched-0"}}
}

var perfWorkloads = []perfWorkload{
	{name: "PodAntiAffinity", initPods: 1000, pod: func(name, ns, node string) *api.Pod {
		return perfPod(name, ns, node, "green", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{perfTerm("green", "kubernetes.io/hostname")}}})
	}},
	{name: "PodAffinity", initPods: 5000, zoneLabel: true, pod: func(name, ns, node string) *api.Pod {
		return perfPod(name, ns, node, "blue", &api.Affinity{PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{perfTerm("blue", "topology.kubernetes.io/zone")}}})
	}},
	{name: "PreferredPodAffinity", initPods: 5000, pod: func(name, ns, node string) *api.Pod {
		return perfPod(name, ns, node, "red", &api.Affinity{PodAffinity: &api.PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: perfTerm("red", "kubernetes.io/hostname")}}}})
	}},
}

// cluster builds the workload at n nodes: the initial pods bound round
// robin (where the scheduler puts them: one per node for the
// anti-affinity workload), and the pod to place.
func (w perfWorkload) cluster(n int) ([]*api.Node, []*api.Pod, *api.Pod) {
	var nodes []*api.Node
	for i := range n {
		var labels map[string]string
		if w.zoneLabel {
			labels = map[string]string{"topology.kubernetes.io/zone": "zone1"}
		}
		nodes = append(nodes, node(fmt.Sprintf("scheduler-perf-%05d", i), rl("cpu", "4", "memory", "32Gi", "pods", "110"), labels))
	}
	var pods []*api.Pod
	for i := range w.initPods {
		pods = append(pods, w.pod(fmt.Sprintf("init-%05d", i), "sched-0", nodes[i%n].Name))
	}
	return nodes, pods, w.pod("measured", "sched-1", "")
}

// defaultPluginRefs are the plugins both implement with the default
// profile's weights, as the plugins table lists them.
func defaultPluginRefs() ([]regression.PluginRef, framework.ProfileConfig) {
	var plugins []regression.PluginRef
	cfg := framework.ProfileConfig{Disabled: []string{"*"}}
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: queuesort.Name}, framework.PluginRef{Name: defaultbinder.Name})
	return plugins, cfg
}

// BenchmarkInterPodAffinityWorkloads times decisions (filter and score
// every node; the pod is not assumed, so every op sees the same cluster)
// of the measured pod of each scheduler_perf affinity workload at 5,000
// nodes, upstream then schedkit, with the plugins both implement in the
// default profile's order and weights. Two kinds, both sides alike:
//
//   - <Workload>/upstream and <Workload>/schedkit: the steady state. One
//     decision runs off the clock on both sides before timing (schedkit's
//     first decision for a pod shape counts from scratch, later ones keep
//     the counts), then every op is one more decision of the same pod.
//   - <Workload>/upstream-first and <Workload>/schedkit-first: the first
//     decision. Each op builds, off the clock, a fresh upstream framework
//     or a fresh schedkit snapshot and scheduler, collects garbage, and
//     times that framework's or scheduler's first decision; cpu-ns/op
//     counts only the timed decisions.
func BenchmarkInterPodAffinityWorkloads(b *testing.B) {
	plugins, cfg := defaultPluginRefs()
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	const n = 5000
	for _, w := range perfWorkloads {
		nodes, pods, pod := w.cluster(n)
		up := upstream.MustConvert[v1.Pod](pod)
		newUpstream := func(b *testing.B) (func(), func()) {
			vn, vp := upstream.ConvertCluster(nodes, pods)
			f, err := upstream.NewFrameworkParallel(ctx, vn, vp, plugins, par)
			if err != nil {
				b.Fatal(err)
			}
			return func() {
				if _, err := f.Schedule(ctx, up); err != nil {
					b.Fatal(err)
				}
			}, f.Close
		}
		newSchedkit := func(b *testing.B) (func(), func()) {
			snap, err := cluster.NewSnapshot(nodes, pods)
			if err != nil {
				b.Fatal(err)
			}
			s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(par), scheduler.WithPercentageOfNodesToScore(100))
			if err != nil {
				b.Fatal(err)
			}
			return func() {
				if _, err := s.Schedule(ctx, pod); err != nil {
					b.Fatal(err)
				}
			}, func() {}
		}
		for _, side := range []struct {
			name  string
			build func(*testing.B) (func(), func())
		}{{"upstream", newUpstream}, {"schedkit", newSchedkit}} {
			b.Run(w.name+"/"+side.name, func(b *testing.B) {
				decide, done := side.build(b)
				defer done()
				decide() // off the clock: the steady state is timed
				timeDecisions(b, decide)
			})
		}
		for _, side := range []struct {
			name  string
			build func(*testing.B) (func(), func())
		}{{"upstream-first", newUpstream}, {"schedkit-first", newSchedkit}} {
			b.Run(w.name+"/"+side.name, func(b *testing.B) {
				timeFirstDecisions(b, side.build)
			})
		}
	}
}

// timeDecisions runs decide once per op of b, reporting allocations and
// the process's CPU time per op (all threads, GC included: "cpu-ns/op", a
// measure that holds better than the wall clock on a busy machine).
func timeDecisions(b *testing.B, decide func()) {
	b.ReportAllocs()
	var cpu0 time.Duration
	n := 0
	for b.Loop() {
		if n == 0 {
			cpu0 = cpuTime()
		}
		n++
		decide()
	}
	if n > 0 {
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

// timeFirstDecisions times, per op of b, the first decision of what
// build returns: build (a fresh framework or scheduler, and what closes
// it) and a garbage collection run off the clock, the decision on it.
// It reports allocations and "cpu-ns/op", the process's CPU time (all
// threads) during the timed decisions only.
func timeFirstDecisions(b *testing.B, build func(*testing.B) (decide, done func())) {
	b.ReportAllocs()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		decide, done := build(b)
		runtime.GC()
		b.StartTimer()
		c0 := cpuTime()
		decide()
		cpu += cpuTime() - c0
		n++
		b.StopTimer()
		done()
		b.StartTimer()
	}
	if n > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

// TestInterPodAffinityBenchAgrees checks that both sides see the same
// statuses and scores on the workloads, at 60 nodes.
func TestInterPodAffinityBenchAgrees(t *testing.T) {
	plugins, _ := defaultPluginRefs()
	for _, w := range perfWorkloads {
		w.initPods = w.initPods * 60 / 5000
		nodes, pods, pod := w.cluster(60)
		in := &regression.PluginsInput{Nodes: nodes, Pods: pods, Pod: pod, Plugins: plugins}
		if _, sk, us, same := Diff(regression.KindPlugins, in, upFn(upstream.PluginsCycle)); !same {
			t.Errorf("%s: schedkit: %s\nupstream: %s", w.name, mustCanon(sk), mustCanon(us))
		}
	}
}
