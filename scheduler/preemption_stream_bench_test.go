package scheduler

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// preemptStreamNodes are n scheduler_perf default nodes: 4 cpu, 32Gi,
// 110 pods.
func preemptStreamNodes(n int) []*api.Node {
	alloc := api.ResourceList{
		api.ResourceCPU:    quantity.MustParse("4"),
		api.ResourceMemory: quantity.MustParse("32Gi"),
		api.ResourcePods:   quantity.MustParse("110"),
	}
	nodes := make([]*api.Node, n)
	for i := range nodes {
		name := fmt.Sprintf("node-%05d", i)
		nodes[i] = &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status:     api.NodeStatus{Capacity: alloc, Allocatable: alloc},
		}
	}
	return nodes
}

// preemptStreamPod is a pod of cpu and 500Mi of memory at priority prio,
// bound to node unless it is empty.
func preemptStreamPod(name, ns, cpu string, prio int32, node string) *api.Pod {
	res := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("500Mi")}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: ns + "-" + name},
		Spec: api.PodSpec{NodeName: node, Priority: &prio, Containers: []api.Container{{
			Name: "pause", Image: "registry.k8s.io/pause:3.10.1", Resources: api.ResourceRequirements{Requests: res},
		}}},
	}
}

// streamPlace is the conformance stream's step: Schedule; for a pod
// that fits nowhere and got a nomination, the victims removed and the
// pod scheduled again on its nominated node; then Assume. It returns ""
// for a pod that fits nowhere.
func streamPlace(ctx context.Context, b testing.TB, s *Scheduler, pod *api.Pod) string {
	res, err := s.Schedule(ctx, pod)
	var fe *FitError
	if errors.As(err, &fe) {
		pf := res.PostFilterResult
		if pf == nil || pf.NominatedNodeName == "" {
			return ""
		}
		for _, v := range pf.Victims {
			if err := s.RemovePod(v); err != nil {
				b.Fatal(err)
			}
		}
		p := *pod
		p.Status.NominatedNodeName = pf.NominatedNodeName
		pod = &p
		res, err = s.Schedule(ctx, pod)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Assume(pod, res.Node); err != nil {
		b.Fatal(err)
	}
	return res.Node
}

// BenchmarkPreemptionStream is schedkit's side of the conformance
// module's PreemptionBasic and Unschedulable streams, for profiling
// without upstream: PreemptionBasic fills n/5 nodes with four 900m pods
// of priority 0 and streams 3-cpu pods of priority 10, each preempting
// three; Unschedulable streams plain pods over n nodes with a 9-cpu pod
// of priority 10, which fits nowhere, before every 20th. Every node is
// scored (all-nodes), or the default adaptive sampling (sampled). Each op is a stream of 100 measured pods on a fresh cluster
// built off the clock.
func BenchmarkPreemptionStream(b *testing.B) {
	ctx := context.Background()
	const measured = 100
	for _, n := range []int{500, 5000} {
		for _, v := range []struct {
			name string
			pct  int32
		}{{"all-nodes", 100}, {"sampled", 0}} {
			b.Run(fmt.Sprintf("PreemptionBasic/%s/%d", v.name, n), func(b *testing.B) {
				nodes := preemptStreamNodes(n / 5)
				var init []*api.Pod
				for i := range 4 * len(nodes) {
					init = append(init, preemptStreamPod(fmt.Sprintf("init-%05d", i), "init", "900m", 0, nodes[i%len(nodes)].Name))
				}
				var stream []*api.Pod
				for i := range measured {
					stream = append(stream, preemptStreamPod(fmt.Sprintf("pod-high-priority-%05d", i), "measure", "3", 10, ""))
				}
				runPreemptStream(ctx, b, nodes, init, stream, measured, v.pct)
			})
			b.Run(fmt.Sprintf("Unschedulable/%s/%d", v.name, n), func(b *testing.B) {
				nodes := preemptStreamNodes(n)
				var init []*api.Pod
				for i := range max(100*n/5000, 1) {
					init = append(init, preemptStreamPod(fmt.Sprintf("init-%05d", i), "init", "100m", 0, nodes[i%len(nodes)].Name))
				}
				var stream []*api.Pod
				for i := range measured {
					if i%20 == 0 {
						stream = append(stream, preemptStreamPod(fmt.Sprintf("pod-h-%05d", i/20), "churn", "9", 10, ""))
					}
					stream = append(stream, preemptStreamPod(fmt.Sprintf("measured-%05d", i), "measure", "100m", 0, ""))
				}
				runPreemptStream(ctx, b, nodes, init, stream, measured, v.pct)
			})
		}
	}
}

func runPreemptStream(ctx context.Context, b *testing.B, nodes []*api.Node, init, stream []*api.Pod, measured int, pct int32) {
	b.ReportAllocs()
	pods := 0
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		snap, err := cluster.NewSnapshot(nodes, init)
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(snap, WithPercentageOfNodesToScore(pct), WithParallelism(2), WithSeed(1))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cpuTime()
		placed := 0
		for _, p := range stream {
			if streamPlace(ctx, b, s, p) != "" {
				placed++
			}
		}
		cpu += cpuTime() - c0
		b.StopTimer()
		s.Close()
		if placed < measured {
			b.Fatalf("placed %d of %d measured pods", placed, measured)
		}
		pods += measured
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(pods, 1)), "ns/pod")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(pods, 1)), "cpu-ns/pod")
}
