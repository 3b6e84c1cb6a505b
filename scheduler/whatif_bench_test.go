package scheduler

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// whatIfBench is a 5,000-node cluster with 20 bound pods per node
// (100,000 pods) and a third of the nodes tainted.
func whatIfBench(b *testing.B) *Scheduler {
	b.Helper()
	nodes := benchNodes(5000)
	for i, n := range nodes {
		if i%3 == 0 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
		}
	}
	pods := benchPods(5000 * 20)
	for i, p := range pods {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

// BenchmarkExplainWhyNot5000: a pod of 40 cores fits none of 5,000
// nodes; every node gets a verified suggestion (lower cpu, or tolerate
// the taint).
func BenchmarkExplainWhyNot5000(b *testing.B) {
	s := whatIfBench(b)
	pod := whatIfPod("big", 40000, 1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ex, err := s.ExplainWhyNot(ctx, pod)
		if err != nil || ex.WhyNot == nil || len(ex.WhyNot.Nodes) == 0 {
			b.Fatal(err, ex.WhyNot)
		}
	}
}

// BenchmarkLeaveOneOut5000: leave-one-out over the 5,000 nodes' scores
// of an explanation (Explain itself is not timed).
func BenchmarkLeaveOneOut5000(b *testing.B) {
	s := whatIfBench(b)
	pod := whatIfPod("small", 500, 1)
	pod.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	ex, err := s.Explain(context.Background(), pod)
	if err != nil || ex.Node == "" {
		b.Fatal(err, ex.Err)
	}
	feasible := 0
	for _, n := range ex.Nodes {
		if n.Feasible {
			feasible++
		}
	}
	b.ReportMetric(float64(feasible), "scored-nodes")
	b.ReportAllocs()
	for b.Loop() {
		if len(ex.LeaveOneOut()) == 0 {
			b.Fatal("no influence")
		}
	}
}

// BenchmarkExplainWhyNotLabels5000: a pod selecting a label no node has;
// every node's suggestion is a label change, verified in the sandbox
// (built once per call, from 100,000 pods).
func BenchmarkExplainWhyNotLabels5000(b *testing.B) {
	s := whatIfBench(b)
	pod := whatIfPod("picky", 500, 1)
	pod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	pod.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ex, err := s.ExplainWhyNot(ctx, pod)
		if err != nil || ex.WhyNot == nil || len(ex.WhyNot.Nodes) != 5000 {
			b.Fatal(err, ex.WhyNot)
		}
	}
}
