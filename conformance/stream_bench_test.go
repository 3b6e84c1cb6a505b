package conformance

import (
	"context"
	"flag"
	"runtime"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
)

// streamPodsFlag bounds the measured pods of a stream (0: the
// workload's measurePods, at most 1,000).
var streamPodsFlag = flag.Int("stream.pods", 0, "measured pods per stream benchmark op (0: the workload's measurePods, at most 1000)")

// streamNodesFlag is the node count of the stream workloads (the
// allocations per pod are compared at 500 and 5,000).
var streamNodesFlag = flag.Int("stream.nodes", 5000, "nodes of the stream and first-decision workloads")

// benchSideFlag runs one side of the Stream, FirstDecision and Command
// benchmarks (bench-pairs.sh alternates them).
var benchSideFlag = flag.String("bench.side", "", "run only this side of the Stream, FirstDecision and Command benchmarks: upstream or schedkit")

// skipSide skips b unless side is the side -bench.side asks for.
func skipSide(b *testing.B, side string) {
	if *benchSideFlag != "" && *benchSideFlag != side {
		b.Skip("-bench.side " + *benchSideFlag)
	}
}

// streamVariants are the two samplings: every node scored, and the
// default adaptive sampling (10% of 5,000 nodes).
var streamVariants = []struct {
	name string
	pct  int32
}{{"all-nodes", 100}, {"sampled", 0}}

func (w streamWorkload) streamLen() int {
	n := min(w.measurePods, 1000)
	if *streamPodsFlag > 0 {
		n = min(*streamPodsFlag, w.measurePods)
	}
	return n
}

// streamStats times a stream: wall and CPU time and allocations over the
// timed region, per measured pod.
type streamStats struct {
	wall, cpu time.Duration
	mallocs   uint64
}

func startStats() (time.Time, time.Duration, uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return time.Now(), cpuTime(), ms.Mallocs
}

func (s *streamStats) add(t0 time.Time, c0 time.Duration, m0 uint64) {
	s.wall += time.Since(t0)
	s.cpu += cpuTime() - c0
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.mallocs += ms.Mallocs - m0
}

func (s *streamStats) report(b *testing.B, pods int) {
	if pods == 0 {
		return
	}
	b.ReportMetric(float64(s.wall.Nanoseconds())/float64(pods), "ns/pod")
	b.ReportMetric(float64(s.cpu.Nanoseconds())/float64(pods), "cpu-ns/pod")
	b.ReportMetric(float64(s.mallocs)/float64(pods), "allocs/pod")
	b.ReportMetric(float64(pods)*float64(time.Second)/float64(s.wall.Nanoseconds()), "pods/s")
}

// BenchmarkStream is scheduler_perf's measurement: each op builds the
// workload's cluster with its initial pods (off the clock), then
// schedules its stream of new pods one by one, each assumed on its node
// before the next (upstream: cache, UpdateSnapshot, schedulePod,
// AssumePod; schedkit: Schedule, Assume), timed as a whole. ns/pod,
// cpu-ns/pod (the process's CPU time, all threads) and allocs/pod are
// per measured pod; PreemptionBasic's pods each preempt, Unschedulable's
// stream carries a failing pod before every 20th. Names:
// Stream/<Workload>/<all-nodes|sampled>/<upstream|schedkit>.
// TestStreamAgrees checks the two sides place alike.
func BenchmarkStream(b *testing.B) {
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	for _, w := range streamWorkloads(*streamNodesFlag) {
		stream := w.streamPods(w.streamLen())
		measured := w.streamLen()
		for _, v := range streamVariants {
			b.Run(w.name+"/"+v.name+"/upstream", func(b *testing.B) {
				skipSide(b, "upstream")
				vn, vp, vs := upstreamStreamSide(w, stream)
				var st streamStats
				pods := 0
				for b.Loop() {
					b.StopTimer()
					u, err := newUpStream(vn, vp, w.objects, v.pct, par)
					if err != nil {
						b.Fatal(err)
					}
					runtime.GC()
					b.StartTimer()
					t0, c0, m0 := startStats()
					placed := 0
					for _, p := range vs {
						node, _, err := u.place(p, "")
						if err != nil {
							b.Fatal(err)
						}
						if node != "" {
							placed++
						}
					}
					st.add(t0, c0, m0)
					b.StopTimer()
					u.Close()
					if placed < measured {
						b.Fatalf("upstream placed %d of %d measured pods", placed, measured)
					}
					pods += measured
					b.StartTimer()
				}
				st.report(b, pods)
			})
			b.Run(w.name+"/"+v.name+"/schedkit", func(b *testing.B) {
				skipSide(b, "schedkit")
				var st streamStats
				pods := 0
				for b.Loop() {
					b.StopTimer()
					k, err := newSkStream(w.nodes, w.initPods, w.objects, v.pct, par)
					if err != nil {
						b.Fatal(err)
					}
					runtime.GC()
					b.StartTimer()
					t0, c0, m0 := startStats()
					placed := 0
					for _, p := range stream {
						node, err := k.place(ctx, p)
						if err != nil {
							b.Fatal(err)
						}
						if node != "" {
							placed++
						}
					}
					st.add(t0, c0, m0)
					b.StopTimer()
					k.Close()
					if placed < measured {
						b.Fatalf("schedkit placed %d of %d measured pods", placed, measured)
					}
					pods += measured
					b.StartTimer()
				}
				st.report(b, pods)
			})
		}
	}
}

// TestStreamAgrees runs every stream workload in lockstep on both sides
// at 500 nodes (PreemptionBasic at 100), with both samplings and one
// goroutine a side: each pod goes first to schedkit, then to upstream,
// which must find schedkit's node among the nodes tied at its best total
// (for a pod that preempts, among the candidates alike its choice) and
// then assumes it too, so that both go on from the same cluster.
func TestStreamAgrees(t *testing.T) {
	count := 60
	if testing.Short() {
		count = 15
	}
	for _, w := range streamWorkloads(500) {
		stream := w.streamPods(min(count, w.measurePods))
		for _, v := range streamVariants {
			t.Run(w.name+"/"+v.name, func(t *testing.T) {
				lockstep(t, w.nodes, w.initPods, w.objects, w.objects, stream, v.pct)
			})
		}
	}
}

// lockstep places stream on both sides, schedkit first, upstream then
// finding schedkit's node among its tied nodes (or alike preemption
// candidates) and assuming it too; one goroutine a side.
func lockstep(t *testing.T, nodes []*api.Node, pods []*api.Pod, skObjects, upObjects []any, stream []*api.Pod, pct int32) {
	t.Helper()
	ctx := context.Background()
	vn, vp := upstream.ConvertCluster(nodes, pods)
	_, vs := upstream.ConvertCluster(nil, stream)
	u, err := newUpStream(vn, vp, upObjects, pct, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	k, err := newSkStream(nodes, pods, skObjects, pct, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	placed, tiedSum := 0, 0
	for i, p := range stream {
		skNode, err := k.place(ctx, p)
		if err != nil {
			t.Fatalf("pod %d (%s): schedkit: %v", i, p.Name, err)
		}
		want := skNode
		if want == "" {
			want = "-"
		}
		upNode, tied, err := u.place(vs[i], want)
		if err != nil {
			t.Fatalf("pod %d (%s): upstream: %v", i, p.Name, err)
		}
		switch {
		case skNode == "" && upNode == "":
		case skNode == "" || upNode == "":
			t.Fatalf("pod %d (%s): schedkit %q, upstream %q", i, p.Name, skNode, upNode)
		case !slices.Contains(tied, skNode):
			t.Fatalf("pod %d (%s): schedkit chose %s, upstream %s, tied %v", i, p.Name, skNode, upNode, tied)
		default:
			placed++
			tiedSum += len(tied)
		}
	}
	t.Logf("%d of %d pods placed alike, %.1f nodes tied per pod on average", placed, len(stream), float64(tiedSum)/float64(max(placed, 1)))
}

// firstDecisionWorkloads are the workloads whose first decision
// BenchmarkFirstDecision times: a plain pod, the affinity and the spread
// workloads.
var firstDecisionWorkloads = []string{"SchedulingBasic", "SchedulingPodAntiAffinity", "SchedulingPodAffinity",
	"SchedulingPreferredPodAffinity", "SchedulingPreferredPodAntiAffinity", "TopologySpreading",
	"PreferredTopologySpreading", "DefaultTopologySpreading"}

// BenchmarkFirstDecision times the first decision of a pod shape on a
// fresh cluster: each op builds the workload's cluster at 5,000 nodes
// with its initial pods (off the clock; upstream's first UpdateSnapshot
// too, as its cache is long-lived), collects garbage, then times one
// decision of the workload's measured pod (not assumed). Names:
// FirstDecision/<Workload>/<all-nodes|sampled>/<upstream|schedkit>;
// cpu-ns/op counts the timed decisions only.
func BenchmarkFirstDecision(b *testing.B) {
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	for _, w := range streamWorkloads(*streamNodesFlag) {
		if !slices.Contains(firstDecisionWorkloads, w.name) {
			continue
		}
		pod := w.measured(0)
		for _, v := range streamVariants {
			b.Run(w.name+"/"+v.name+"/upstream", func(b *testing.B) {
				skipSide(b, "upstream")
				vn, vp := upstream.ConvertCluster(w.nodes, w.initPods)
				vpod := upstream.MustConvert[v1.Pod](pod)
				sbTimeFirst(b, func() (func(), func()) {
					u, err := newUpStream(vn, vp, w.objects, v.pct, par)
					if err != nil {
						b.Fatal(err)
					}
					if err := u.cache.UpdateSnapshot(u.logger, u.snap); err != nil {
						b.Fatal(err)
					}
					return func() {
						if c, err := u.cycle(vpod, false); err != nil || c.node == "" {
							b.Fatalf("upstream: %v", err)
						}
					}, u.Close
				})
			})
			b.Run(w.name+"/"+v.name+"/schedkit", func(b *testing.B) {
				skipSide(b, "schedkit")
				sbTimeFirst(b, func() (func(), func()) {
					k, err := newSkStream(w.nodes, w.initPods, w.objects, v.pct, par)
					if err != nil {
						b.Fatal(err)
					}
					return func() {
						if node, err := k.decide(ctx, pod); err != nil || node == "" {
							b.Fatalf("schedkit: %v", err)
						}
					}, k.Close
				})
			})
		}
	}
}

// sbTimeFirst times, per op, the decision build returns, after build and
// a garbage collection off the clock; cpu-ns/op is the CPU time of the
// timed decisions.
func sbTimeFirst(b *testing.B, build func() (decide, done func())) {
	b.ReportAllocs()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		decide, done := build()
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
