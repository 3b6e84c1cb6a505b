package dynamicresources

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
)

// BenchmarkStream places a stream of new pods, each with a claim of one
// device, on 500 nodes of ten devices each, half of them held by
// allocated claims, every pod's allocation kept (Reserve) before the
// next: the shape of scheduler_perf's SchedulingWithResourceClaimTemplate
// (conformance's BenchmarkDRAStream runs it against upstream). It
// reports ns/pod and cpu-ns/pod; the cluster is built off the clock.
func BenchmarkStream(b *testing.B) {
	const nodes, pods = 500, 100
	var ns []*api.Node
	var objs []any
	c := mkClass()
	c.Spec.Selectors = []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.driver == "` + driver + `"`}}}
	objs = append(objs, c)
	for i := range nodes {
		n := mkNode(fmt.Sprintf("node-%d", i))
		ns = append(ns, n)
		var devs []api.Device
		for d := range 10 {
			devs = append(devs, api.Device{Name: fmt.Sprintf("dev-%d", d), Capacity: map[api.QualifiedName]api.DeviceCapacity{
				"memory": {Value: quantity.MustParse("24480Mi")}}})
		}
		s := mkSlice(n.Name, devs...)
		objs = append(objs, s)
	}
	for k := range nodes * 5 {
		h := mkClaim(fmt.Sprintf("held-%d", k))
		h.Namespace = "init"
		h.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{
			Request: "req-1", Driver: driver, Pool: fmt.Sprintf("node-%d", k%nodes), Device: fmt.Sprintf("dev-%d", k/nodes)}}}}
		objs = append(objs, h)
	}
	var stream []*api.Pod
	for i := range pods {
		name := fmt.Sprintf("pod-%d", i)
		objs = append(objs, mkClaim(name+"-claim"))
		p := podWithClaimName(name, name+"-claim")
		p.UID = "uid-" + name
		stream = append(stream, p)
	}
	ctx := context.Background()
	placed := 0
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		pl, snap := setup(b, ns, objs...)
		all := snap.View().Nodes()
		b.StartTimer()
		c0 := cpuTime()
		for _, pod := range stream {
			if placeOne(ctx, b, pl, pod, all) == "" {
				b.Fatalf("%s did not fit", pod.Name)
			}
			placed++
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(placed), "ns/pod")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(placed), "cpu-ns/pod")
}

// placeOne runs the pod's cycle with the plugin alone and reserves it
// on the first best node.
func placeOne(ctx context.Context, b *testing.B, pl *DynamicResources, pod *api.Pod, nodes []*cluster.NodeInfo) string {
	cs := framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, pod, nil); st != nil {
		b.Fatal(st)
	}
	best, bestScore := "", int64(-1)
	for _, ni := range nodes {
		if pl.Filter(ctx, cs, pod, ni) != nil {
			continue
		}
		sc, st := pl.Score(ctx, cs, pod, ni)
		if st != nil {
			b.Fatal(st)
		}
		if sc > bestScore {
			best, bestScore = ni.Node().Name, sc
		}
	}
	if best != "" {
		if st := pl.Reserve(ctx, cs, pod, best); st != nil {
			b.Fatal(st)
		}
	}
	return best
}
