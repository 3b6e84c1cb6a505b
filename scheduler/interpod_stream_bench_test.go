package scheduler

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// The affinity workloads of scheduler_perf's
// affinity/performance-config.yaml at 5,000 nodes, as the conformance
// module's BenchmarkStream and BenchmarkFirstDecision build them, for
// profiling schedkit's side without building upstream.

// perfNodes returns n nodes of node-default.yaml (4 cpu, 32Gi, 110
// pods), each with its hostname label and the labels of extra.
func perfNodes(n int, extra map[string]string) []*api.Node {
	alloc := api.ResourceList{
		api.ResourceCPU:    quantity.MustParse("4"),
		api.ResourceMemory: quantity.MustParse("32Gi"),
		api.ResourcePods:   quantity.MustParse("110"),
	}
	nodes := make([]*api.Node, n)
	for i := range nodes {
		name := fmt.Sprintf("scheduler-perf-%05d", i)
		labels := map[string]string{"kubernetes.io/hostname": name}
		for k, v := range extra {
			labels[k] = v
		}
		nodes[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, Labels: labels},
			Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
	}
	return nodes
}

// perfPod is pod-default.yaml with a color label and affinity a.
func perfPod(name, ns, color string, a *api.Affinity) *api.Pod {
	res := api.ResourceList{api.ResourceCPU: quantity.MustParse("100m"), api.ResourceMemory: quantity.MustParse("500Mi")}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + ns + "-" + name, Labels: map[string]string{"color": color}},
		Spec: api.PodSpec{Affinity: a, Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10.2",
			Ports:     []api.ContainerPort{{ContainerPort: 80}},
			Resources: api.ResourceRequirements{Requests: res, Limits: res}}}}}
}

func perfTerm(color, key string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": color}},
		TopologyKey: key, Namespaces: []string{"sched-1", "sched-0"}}
}

// perfAffinityWorkload is one affinity workload: nodes, initial pods bound
// round robin in sched-0, and the template of the measured pods.
type perfAffinityWorkload struct {
	name  string
	nodes []*api.Node
	init  []*api.Pod
	pod   func(i int) *api.Pod
}

func perfAffinityWorkloads(n int) []perfAffinityWorkload {
	mk := func(name string, nodes []*api.Node, initPods int, color string, a *api.Affinity) perfAffinityWorkload {
		init := make([]*api.Pod, initPods*n/5000)
		for i := range init {
			init[i] = perfPod(fmt.Sprintf("init-%05d", i), "sched-0", color, a)
			init[i].Spec.NodeName = nodes[i%len(nodes)].Name
		}
		return perfAffinityWorkload{name: name, nodes: nodes, init: init,
			pod: func(i int) *api.Pod { return perfPod(fmt.Sprintf("measured-%05d", i), "sched-1", color, a) }}
	}
	host, zone := "kubernetes.io/hostname", "topology.kubernetes.io/zone"
	return []perfAffinityWorkload{
		mk("SchedulingPodAntiAffinity", perfNodes(n, nil), 1000, "green", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{perfTerm("green", host)}}}),
		mk("SchedulingPodAffinity", perfNodes(n, map[string]string{zone: "zone1"}), 5000, "blue", &api.Affinity{PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{perfTerm("blue", zone)}}}),
		mk("SchedulingPreferredPodAffinity", perfNodes(n, nil), 5000, "red", &api.Affinity{PodAffinity: &api.PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: perfTerm("red", host)}}}}),
		mk("SchedulingPreferredPodAntiAffinity", perfNodes(n, nil), 5000, "yellow", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: perfTerm("yellow", host)}}}}),
	}
}

func (w *perfAffinityWorkload) scheduler(b *testing.B, pct int32) *Scheduler {
	snap, err := cluster.NewSnapshot(w.nodes, w.init)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(snap, WithPercentageOfNodesToScore(pct), WithParallelism(2), WithSeed(1))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkAffinityFirstDecision times the first decision of the
// workload's pod on a fresh snapshot (built, and garbage collected, off
// the clock), as the conformance module's BenchmarkFirstDecision does.
func BenchmarkAffinityFirstDecision(b *testing.B) {
	for _, w := range perfAffinityWorkloads(5000) {
		for _, v := range []struct {
			name string
			pct  int32
		}{{"all-nodes", 100}, {"sampled", 0}} {
			b.Run(w.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				var cpu time.Duration
				n := 0
				for b.Loop() {
					b.StopTimer()
					s := w.scheduler(b, v.pct)
					runtime.GC()
					b.StartTimer()
					c0 := cpuTime()
					if res, err := s.Schedule(context.Background(), w.pod(0)); err != nil || res.Node == "" {
						b.Fatal(err)
					}
					cpu += cpuTime() - c0
					n++
					b.StopTimer()
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkAffinityStream times streams of 100 new pods of the
// workload's template, each scheduled and assumed before the next, as
// the conformance module's BenchmarkStream does; per pod.
func BenchmarkAffinityStream(b *testing.B) {
	const pods = 100
	for _, w := range perfAffinityWorkloads(5000) {
		for _, v := range []struct {
			name string
			pct  int32
		}{{"all-nodes", 100}, {"sampled", 0}} {
			b.Run(w.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				var cpu, wall time.Duration
				for b.Loop() {
					b.StopTimer()
					s := w.scheduler(b, v.pct)
					runtime.GC()
					b.StartTimer()
					c0, t0 := cpuTime(), time.Now()
					for i := range pods {
						p := w.pod(i)
						res, err := s.Schedule(context.Background(), p)
						if err != nil {
							b.Fatal(err)
						}
						if err := s.Assume(p, res.Node); err != nil {
							b.Fatal(err)
						}
					}
					cpu += cpuTime() - c0
					wall += time.Since(t0)
					b.StopTimer()
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*pods), "cpu-ns/pod")
				b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N*pods), "ns/pod")
			})
		}
	}
}
