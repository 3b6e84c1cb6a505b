package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
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

func benchScheduler(b *testing.B, nodes []*api.Node, opts ...Option) *Scheduler {
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
			for i := 0; i < b.N; i++ {
				if i > 0 && i%numPods == 0 {
					b.StopTimer()
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
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pods/s")
		})
	}
}

// BenchmarkSimulate places the 10,000 pods with Simulate, one run per op.
func BenchmarkSimulate(b *testing.B) {
	nodes := benchNodes(5000)
	pods := benchPods(10000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := benchScheduler(b, nodes)
		b.StartTimer()
		if _, err := s.Simulate(context.Background(), pods); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(pods))/b.Elapsed().Seconds(), "pods/s")
}

// TestPerNodeAllocations checks that filtering and scoring allocate
// nothing per node: a cycle over 5,000 nodes allocates as much as one
// over 500, with the default profile and every node scored.
func TestPerNodeAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 5,500 nodes")
	}
	pods := benchPods(3)
	allocs := func(n int) float64 {
		snap, err := cluster.NewSnapshot(benchNodes(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(snap, WithPercentageOfNodesToScore(100), WithParallelism(1))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		i := 0
		return testing.AllocsPerRun(20, func() {
			if _, err := s.Schedule(ctx, pods[i%3]); err != nil {
				t.Fatal(err)
			}
			i++
		})
	}
	few, many := allocs(500), allocs(5000)
	if many > few {
		t.Errorf("a cycle allocates %v times over 500 nodes and %v times over 5000: filtering or scoring allocates per node", few, many)
	}
	t.Logf("allocations per cycle: %v (500 nodes), %v (5000 nodes)", few, many)
}
