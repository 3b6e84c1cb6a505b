package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// benchNodes returns n nodes of 32 cores, 128Gi and 110 pods in 10
// zones, with one image each; nodes share their objects' maps where
// possible so that building 5,000 of them is fast.
func benchNodes(n int) []*api.Node {
	alloc := api.ResourceList{
		api.ResourceCPU:    quantity.MustParse("32"),
		api.ResourceMemory: quantity.MustParse("128Gi"),
		api.ResourcePods:   quantity.MustParse("110"),
	}
	images := []api.ContainerImage{{Names: []string{"registry.example/app:v1"}, SizeBytes: 300 << 20}}
	nodes := make([]*api.Node, n)
	for i := range nodes {
		name := fmt.Sprintf("node-%05d", i)
		nodes[i] = &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
				"kubernetes.io/hostname":      name,
				"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%10),
			}},
			Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc, Images: images},
		}
	}
	return nodes
}

// benchPods returns n pods with cpu and memory requests only, of a few
// sizes.
func benchPods(n int) []*api.Pod {
	sizes := []api.ResourceList{
		{api.ResourceCPU: quantity.MustParse("100m"), api.ResourceMemory: quantity.MustParse("128Mi")},
		{api.ResourceCPU: quantity.MustParse("250m"), api.ResourceMemory: quantity.MustParse("512Mi")},
		{api.ResourceCPU: quantity.MustParse("1"), api.ResourceMemory: quantity.MustParse("2Gi")},
	}
	pods := make([]*api.Pod, n)
	for i := range pods {
		name := fmt.Sprintf("pod-%05d", i)
		pods[i] = &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name},
			Spec: api.PodSpec{Containers: []api.Container{{
				Name:      "app",
				Image:     "registry.example/app:v1",
				Resources: api.ResourceRequirements{Requests: sizes[i%len(sizes)]},
			}}},
		}
	}
	return pods
}

func benchScheduler(b testing.TB, nodes []*api.Node, opts ...Option) *Scheduler {
	b.Helper()
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(snap, opts...)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSchedule schedules and assumes requests-only pods on 5,000
// nodes with the default profile, one pod per op; the cluster is rebuilt
// (off the clock) after every 10,000 pods.
func BenchmarkSchedule(b *testing.B) {
	const numNodes, numPods = 5000, 10000
	nodes := benchNodes(numNodes)
	pods := benchPods(numPods)
	for _, bc := range []struct {
		name string
		opts []Option
	}{
		{"5000nodes/default-sampling", nil},
		{"5000nodes/all-nodes", []Option{WithPercentageOfNodesToScore(100)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			s := benchScheduler(b, nodes, bc.opts...)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%numPods == 0 {
					b.StopTimer()
					s.Close()
					s = benchScheduler(b, nodes, bc.opts...)
					b.StartTimer()
				}
				pod := pods[i%numPods]
				res, err := s.Schedule(ctx, pod)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Assume(pod, res.Node); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pods/s")
			// CPU time (all threads, GC included, cluster rebuilds
			// excluded only from the wall clock) per pod: a measure that
			// holds on a busy machine.
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/pod")
		})
	}
}

// BenchmarkFilterScoreNodes runs the default profile's Filter and Score
// plugins over every node of a 5,000-node cluster (1,000 pods bound) on
// one goroutine, through the engine's filter pass and by-max score pass
// as a sampled cycle does, and reports the CPU time per node for
// filtering and scoring a plain pod.
func BenchmarkFilterScoreNodes(b *testing.B) {
	nodes := benchNodes(5000)
	bound := benchPods(1000)
	for i, p := range bound {
		p.Spec.NodeName = nodes[(i*7)%len(nodes)].Name
	}
	snap, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(snap, WithParallelism(1))
	if err != nil {
		b.Fatal(err)
	}
	prof, _ := s.Profile("")
	infos := snap.View().Nodes()
	pod := benchPods(3)[1]
	ctx := context.Background()
	state := framework.NewCycleState()
	if _, st, _ := prof.RunPreFilterPlugins(ctx, state, pod, infos); !st.IsSuccess() {
		b.Fatal(st)
	}
	if st := prof.RunPreScorePlugins(ctx, state, pod, infos); !st.IsSuccess() {
		b.Fatal(st)
	}
	c := &engine.Cycle{Profile: prof, State: state, Pod: pod, Nodes: infos, NumToFind: len(infos),
		Diagnosis: &framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}, Select: s.selectTotals}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := s.engine.Run(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(infos)), "cpu-ns/node")
}
