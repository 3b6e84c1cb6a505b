package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
)

// BenchmarkGangs simulates 100 gangs of 8 pods, each pod avoiding the
// others of its gang by hostname (required anti-affinity), on 5,000
// nodes with GenericWorkload on: the side-by-side workload,
// schedkit's side. It reports the time per gang.
func BenchmarkGangs(b *testing.B) {
	const nNodes, nGangs, size = 5000, 100, 8
	var nodes []*api.Node
	for i := range nNodes {
		nodes = append(nodes, gangNode(fmt.Sprintf("node-%04d", i), "8"))
	}
	for b.Loop() {
		b.StopTimer()
		snap, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			b.Fatal(err)
		}
		var pods []*api.Pod
		for g := range nGangs {
			name := fmt.Sprintf("g%03d", g)
			if err := snap.AddObject(gangGroup(name, size)); err != nil {
				b.Fatal(err)
			}
			for i := range size {
				p := gangPod(fmt.Sprintf("%s-%d", name, i), "1", name)
				p.Labels = map[string]string{"gang": name}
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
						LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"gang": name}},
						TopologyKey:   "kubernetes.io/hostname",
					}},
				}}
				pods = append(pods, p)
			}
		}
		s, err := New(snap, WithFeatureGates(featuregates.MustParse("GenericWorkload=true")))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		got, err := s.Simulate(context.Background(), pods)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, p := range got {
			if p.Node == "" {
				b.Fatalf("%s: %v", p.Pod.Name, p.Err)
			}
		}
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nGangs/1e6, "ms/gang")
}

// BenchmarkGangsOneByOne is the conformance module's GangStream in this
// module: 1,000 plain pods bound round robin on 5,000 nodes, then 100
// gangs of 8 with hostname anti-affinity, each gang a Simulate of its
// own (its PodGroup added first, off the clock), with every node scored
// and with the default sampling, one goroutine. It reports the time per
// gang.
func BenchmarkGangsOneByOne(b *testing.B) {
	const nNodes, nInit, nGangs, size = 5000, 1000, 100, 8
	var nodes []*api.Node
	for i := range nNodes {
		nodes = append(nodes, gangNode(fmt.Sprintf("node-%04d", i), "4"))
	}
	var initPods []*api.Pod
	for i := range nInit {
		p := gangPod(fmt.Sprintf("init-%04d", i), "100m", "")
		p.Spec.NodeName = nodes[i%nNodes].Name
		initPods = append(initPods, p)
	}
	gangs := make([][]*api.Pod, nGangs)
	for g := range gangs {
		name := fmt.Sprintf("g%03d", g)
		for i := range size {
			p := gangPod(fmt.Sprintf("%s-%d", name, i), "100m", name)
			p.Labels = map[string]string{"gang": name}
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"gang": name}},
					TopologyKey:   "kubernetes.io/hostname",
				}},
			}}
			gangs[g] = append(gangs[g], p)
		}
	}
	for _, v := range []struct {
		name string
		pct  int32
	}{{"all-nodes", 100}, {"sampled", 0}} {
		b.Run(v.name, func(b *testing.B) {
			var placed int
			for b.Loop() {
				b.StopTimer()
				snap, err := cluster.NewSnapshot(nodes, initPods)
				if err != nil {
					b.Fatal(err)
				}
				s, err := New(snap, WithFeatureGates(featuregates.MustParse("GenericWorkload=true")),
					WithParallelism(1), WithPercentageOfNodesToScore(v.pct), WithSeed(1))
				if err != nil {
					b.Fatal(err)
				}
				for g, pods := range gangs {
					if err := snap.AddObject(gangGroup(fmt.Sprintf("g%03d", g), size)); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					got, err := s.Simulate(context.Background(), pods)
					b.StopTimer()
					if err != nil {
						b.Fatal(err)
					}
					for _, p := range got {
						if p.Node == "" {
							b.Fatalf("%s: %v", p.Pod.Name, p.Err)
						}
					}
					placed++
				}
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(placed)/1e6, "ms/gang")
		})
	}
}
