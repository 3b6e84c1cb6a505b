package plugins

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/imagelocality"
	"github.com/schedkit/schedkit/plugins/noderesources"
	"github.com/schedkit/schedkit/plugins/tainttoleration"
)

// hotSnapshot is a small cluster as Score sees it: nodes with pods,
// PreferNoSchedule taints and images.
func hotSnapshot(t testing.TB) *cluster.Snapshot {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := 0; i < 4; i++ {
		n := makeNode(string(rune('a'+i)), map[string]string{"cpu": "8", "memory": "32Gi", "example.com/gpu": "4"})
		n.Spec.Taints = []api.Taint{{Key: "spot", Effect: api.TaintEffectPreferNoSchedule}, {Key: "zone", Value: "x", Effect: api.TaintEffectPreferNoSchedule}}
		n.Status.Images = []api.ContainerImage{{Names: []string{"nginx:1.27", "nginx:latest"}, SizeBytes: 200 * mb}}
		nodes = append(nodes, n)
		for j := 0; j < 5; j++ {
			pods = append(pods, makePod().node(n.Name).req(cpuAndMemory("500m", "1Gi")).Obj())
		}
	}
	return snapshot(t, nodes, pods)
}

// hotPod requests cpu and memory only (a "plain resources-only pod"),
// tolerates one taint and runs an untagged image.
func hotPod() *api.Pod {
	p := makePod().req(cpuAndMemory("250m", "512Mi")).Obj()
	p.Spec.Containers[0].Image = "nginx"
	p.Spec.Tolerations = []api.Toleration{{Key: "spot", Operator: api.TolerationOpExists}}
	return p
}

type scoreCase struct {
	name   string
	plugin framework.Plugin
}

func scoreCases(t testing.TB, snap *cluster.Snapshot) []scoreCase {
	mk := func(f framework.PluginFactory, args any) framework.Plugin {
		p, err := f(args, testHandle{snap})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	strategy := func(typ config.ScoringStrategyType) *config.NodeResourcesFitArgs {
		a := &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: typ}}
		if typ == config.RequestedToCapacityRatio {
			a.ScoringStrategy.RequestedToCapacityRatio = &config.RequestedToCapacityRatioParam{
				Shape: []config.UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}
		}
		return a
	}
	return []scoreCase{
		{"LeastAllocated", mk(noderesources.NewFit, nil)},
		{"MostAllocated", mk(noderesources.NewFit, strategy(config.MostAllocated))},
		{"RequestedToCapacityRatio", mk(noderesources.NewFit, strategy(config.RequestedToCapacityRatio))},
		{"Balanced", mk(noderesources.NewBalancedAllocation, nil)},
		{"TaintToleration", mk(tainttoleration.New, nil)},
		{"ImageLocality", mk(imagelocality.New, nil)},
	}
}

func preScore(t testing.TB, p framework.Plugin, pod *api.Pod, snap *cluster.Snapshot) *framework.CycleState {
	state := framework.NewCycleState()
	if st := p.(framework.PreScorePlugin).PreScore(context.Background(), state, pod, snap.Nodes()); !st.IsSuccess() {
		t.Fatalf("%s PreScore: %v", p.Name(), st)
	}
	return state
}

// TestScoreAllocations proves the hot path: after PreScore, Score of one
// node allocates nothing.
func TestScoreAllocations(t *testing.T) {
	snap := hotSnapshot(t)
	pod := hotPod()
	ni := snap.Nodes()[0]
	ctx := context.Background()
	for _, c := range scoreCases(t, snap) {
		state := preScore(t, c.plugin, pod, snap)
		sp := c.plugin.(framework.ScorePlugin)
		score, st := sp.Score(ctx, state, pod, ni)
		if !st.IsSuccess() || score < 0 {
			t.Fatalf("%s: %d %v", c.name, score, st)
		}
		if allocs := testing.AllocsPerRun(100, func() { sp.Score(ctx, state, pod, ni) }); allocs != 0 {
			t.Errorf("%s: Score allocates %v times per run, want 0", c.name, allocs)
		}
	}
}

func benchScore(b *testing.B, name string) {
	snap := hotSnapshot(b)
	pod := hotPod()
	ni := snap.Nodes()[0]
	ctx := context.Background()
	for _, c := range scoreCases(b, snap) {
		if c.name != name {
			continue
		}
		state := preScore(b, c.plugin, pod, snap)
		sp := c.plugin.(framework.ScorePlugin)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			sp.Score(ctx, state, pod, ni)
		}
		return
	}
	b.Fatalf("no case %s", name)
}

func BenchmarkScoreLeastAllocated(b *testing.B) { benchScore(b, "LeastAllocated") }
func BenchmarkScoreMostAllocated(b *testing.B)  { benchScore(b, "MostAllocated") }
func BenchmarkScoreRequestedToCapacityRatio(b *testing.B) {
	benchScore(b, "RequestedToCapacityRatio")
}
func BenchmarkScoreBalanced(b *testing.B)        { benchScore(b, "Balanced") }
func BenchmarkScoreTaintToleration(b *testing.B) { benchScore(b, "TaintToleration") }
func BenchmarkScoreImageLocality(b *testing.B)   { benchScore(b, "ImageLocality") }

// mb is a mebibyte, as the image sizes count it.
const mb int64 = 1024 * 1024
