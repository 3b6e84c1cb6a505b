package plugins

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/nodename"
	"github.com/schedkit/schedkit/plugins/nodeports"
	"github.com/schedkit/schedkit/plugins/noderesources"
	"github.com/schedkit/schedkit/plugins/nodeunschedulable"
	"github.com/schedkit/schedkit/plugins/tainttoleration"
	"github.com/schedkit/schedkit/resource"
)

// hotNode is a node with a few pods, cpu/memory/pods allocatable and a
// couple of taints, as a Filter sees it in a real cycle.
func hotNode() *cluster.NodeInfo {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"},
		Spec: api.NodeSpec{Taints: []api.Taint{{Key: "a", Effect: api.TaintEffectPreferNoSchedule}, {Key: "b", Value: "x", Effect: api.TaintEffectNoSchedule}}},
		Status: api.NodeStatus{Allocatable: api.ResourceList{
			"cpu": resource.MustParse("8"), "memory": resource.MustParse("32Gi"), "pods": resource.MustParse("110"),
			"ephemeral-storage": resource.MustParse("100Gi"), "example.com/gpu": resource.MustParse("4"),
		}}}
	var pods []*api.Pod
	for i := 0; i < 5; i++ {
		p := newResourcePod(usage{cpu: 500, mem: 1 << 30})
		p.Name = string(rune('a' + i))
		p.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: int32(8000 + i)}}
		pods = append(pods, p)
	}
	return cluster.NewNodeInfo(node, pods...)
}

// plainPod requests only cpu and memory and tolerates taint b.
func plainPod(cpu, mem int64) *api.Pod {
	p := newResourcePod(usage{cpu: cpu, mem: mem})
	p.Spec.Tolerations = []api.Toleration{{Key: "b", Operator: api.TolerationOpExists}}
	p.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 9000}}
	return p
}

type filterCase struct {
	name   string
	plugin framework.Plugin
	pod    *api.Pod
	want   framework.Code
}

func filterCases(t testing.TB) []filterCase {
	mk := func(f framework.PluginFactory) framework.Plugin {
		p, err := f(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fit := mk(noderesources.NewFit)
	gpuPod := plainPod(100, 1<<20)
	gpuPod.Spec.Containers[0].Resources.Requests["example.com/gpu"] = resource.MustParse("2")
	return []filterCase{
		{"NodeResourcesFit/fits", fit, plainPod(100, 1<<20), framework.Success},
		{"NodeResourcesFit/fits-scalar", fit, gpuPod, framework.Success},
		{"NodeResourcesFit/insufficient-cpu", fit, plainPod(6000, 1<<20), framework.Unschedulable},
		{"NodeResourcesFit/unresolvable-cpu-memory", fit, plainPod(9000, 64<<30), framework.UnschedulableAndUnresolvable},
		{"NodeName", mk(nodename.New), plainPod(1, 1), framework.Success},
		{"NodeUnschedulable", mk(nodeunschedulable.New), plainPod(1, 1), framework.Success},
		{"TaintToleration/tolerated", mk(tainttoleration.New), plainPod(1, 1), framework.Success},
		{"TaintToleration/untolerated", mk(tainttoleration.New), newResourcePod(usage{cpu: 1}), framework.UnschedulableAndUnresolvable},
		{"NodePorts", mk(nodeports.New), plainPod(1, 1), framework.Success},
	}
}

// prepare runs the plugin's PreFilter, if any, into a fresh state.
func prepare(t testing.TB, c filterCase) *framework.CycleState {
	state := framework.NewCycleState()
	if pf, ok := c.plugin.(framework.PreFilterPlugin); ok {
		if _, st := pf.PreFilter(context.Background(), state, c.pod, nil); !st.IsSuccess() {
			t.Fatalf("%s: PreFilter: %v", c.name, st)
		}
	}
	return state
}

// TestFilterAllocations proves the hot path: with PreFilter state in
// place, Filter of one node allocates nothing, whether it accepts the
// node or rejects it with fixed reasons.
func TestFilterAllocations(t *testing.T) {
	ni := hotNode()
	ctx := context.Background()
	for _, c := range filterCases(t) {
		state := prepare(t, c)
		f := c.plugin.(framework.FilterPlugin)
		if got := f.Filter(ctx, state, c.pod, ni).Code(); got != c.want {
			t.Errorf("%s: code %v, want %v", c.name, got, c.want)
		}
		allocs := testing.AllocsPerRun(100, func() { f.Filter(ctx, state, c.pod, ni) })
		if allocs != 0 {
			t.Errorf("%s: Filter allocates %v times per run, want 0", c.name, allocs)
		}
	}
}

func benchFilter(b *testing.B, name string) {
	ni := hotNode()
	ctx := context.Background()
	for _, c := range filterCases(b) {
		if c.name != name {
			continue
		}
		state := prepare(b, c)
		f := c.plugin.(framework.FilterPlugin)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			f.Filter(ctx, state, c.pod, ni)
		}
		return
	}
	b.Fatalf("no case %s", name)
}

func BenchmarkFilterFit(b *testing.B)       { benchFilter(b, "NodeResourcesFit/fits") }
func BenchmarkFilterFitScalar(b *testing.B) { benchFilter(b, "NodeResourcesFit/fits-scalar") }
func BenchmarkFilterFitInsufficient(b *testing.B) {
	benchFilter(b, "NodeResourcesFit/insufficient-cpu")
}
func BenchmarkFilterTaintToleration(b *testing.B) { benchFilter(b, "TaintToleration/tolerated") }
func BenchmarkFilterNodeUnschedulable(b *testing.B) {
	benchFilter(b, "NodeUnschedulable")
}
func BenchmarkFilterNodePorts(b *testing.B) { benchFilter(b, "NodePorts") }
func BenchmarkFilterNodeName(b *testing.B)  { benchFilter(b, "NodeName") }
