package plugins

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/imagelocality"
)

// TestScoreNodesAllocations: after PreScore, ScoreNodes over every node
// allocates nothing.
func TestScoreNodesAllocations(t *testing.T) {
	snap := hotSnapshot(t)
	pod := hotPod()
	nodes := snap.Nodes()
	ctx := context.Background()
	scores := make([]int64, len(nodes))
	for _, c := range scoreCases(t, snap) {
		state := preScore(t, c.plugin, pod, snap)
		sp := framework.FastPathOf(c.plugin).ScoreNodes
		if i, st := sp(ctx, state, pod, nodes, scores); !st.IsSuccess() {
			t.Fatalf("%s: node %d: %v", c.name, i, st)
		}
		if allocs := testing.AllocsPerRun(100, func() { sp(ctx, state, pod, nodes, scores) }); allocs != 0 {
			t.Errorf("%s: ScoreNodes allocates %v times per run, want 0", c.name, allocs)
		}
	}
}

// benchScoreNodes reports ScoreNodes' time per node over 256 nodes like
// hotSnapshot's, each differing from the one before in its pods and image
// size, so that no score is carried over from node to node.
func benchScoreNodes(b *testing.B, name string) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range 256 {
		n := makeNode(fmt.Sprintf("n%03d", i), map[string]string{"cpu": "8", "memory": "32Gi", "example.com/gpu": "4"})
		n.Spec.Taints = []api.Taint{{Key: "spot", Effect: api.TaintEffectPreferNoSchedule}, {Key: "zone", Value: "x", Effect: api.TaintEffectPreferNoSchedule}}
		n.Status.Images = []api.ContainerImage{{Names: []string{"nginx:1.27", "nginx:latest"}, SizeBytes: int64(100+i) * mb}}
		nodes = append(nodes, n)
		for range i % 5 {
			pods = append(pods, makePod().node(n.Name).req(cpuAndMemory("500m", "1Gi")).Obj())
		}
	}
	snap := snapshot(b, nodes, pods)
	pod := hotPod()
	infos := snap.Nodes()
	scores := make([]int64, len(infos))
	ctx := context.Background()
	for _, c := range scoreCases(b, snap) {
		if c.name != name {
			continue
		}
		state := preScore(b, c.plugin, pod, snap)
		sp := framework.FastPathOf(c.plugin).ScoreNodes
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			sp(ctx, state, pod, infos, scores)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(infos)), "ns/node")
		return
	}
	b.Fatalf("no case %s", name)
}

func BenchmarkScoreNodesLeastAllocated(b *testing.B) { benchScoreNodes(b, "LeastAllocated") }
func BenchmarkScoreNodesBalanced(b *testing.B)       { benchScoreNodes(b, "Balanced") }
func BenchmarkScoreNodesTaintToleration(b *testing.B) {
	benchScoreNodes(b, "TaintToleration")
}
func BenchmarkScoreNodesImageLocality(b *testing.B) { benchScoreNodes(b, "ImageLocality") }

// TestImageLocalityScoreNodesSharedMaps: nodes reporting the same images
// share one image map and score alike; ScoreNodes still scores every
// other node on its own, whatever its neighbours.
func TestImageLocalityScoreNodesSharedMaps(t *testing.T) {
	img := func(size int64, names ...string) []api.ContainerImage {
		return []api.ContainerImage{{Names: names, SizeBytes: size * mb}}
	}
	lists := [][]api.ContainerImage{
		img(500, "nginx:1.27"), img(500, "nginx:1.27"), img(900, "nginx:1.27"), nil,
		img(500, "nginx:1.27"), img(300, "nginx:1.27", "nginx:latest"), img(300, "nginx:1.27", "nginx:latest"), img(700, "redis:7"),
	}
	var nodes []*api.Node
	for i, l := range lists {
		n := makeNode(fmt.Sprintf("n%d", i), map[string]string{"cpu": "8", "memory": "32Gi"})
		n.Status.Images = l
		nodes = append(nodes, n)
	}
	snap := snapshot(t, nodes, nil)
	infos := snap.Nodes()
	if !infos[0].SharesImages(infos[1]) || infos[1].SharesImages(infos[2]) {
		t.Fatalf("nodes 0 and 1 should share their image map, 1 and 2 not")
	}
	pl, err := imagelocality.New(nil, testHandle{snap})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// An image's size is the first size seen (as kube-scheduler's cache
	// takes it), so one image scores a node only by whether it holds it;
	// two images give the nodes three different scores.
	for _, image := range []string{"nginx:1.27", "nginx", "redis:7", "nginx:1.27,redis:7"} {
		pod := makePod().Obj()
		for i, im := range strings.Split(image, ",") {
			pod.Spec.Containers = append(pod.Spec.Containers, api.Container{Name: fmt.Sprint("c", i), Image: im})
		}
		state := preScore(t, pl, pod, snap)
		sp := framework.FastPathOf(pl).ScoreNodes
		got := make([]int64, len(infos))
		if i, st := sp(ctx, state, pod, infos, got); !st.IsSuccess() {
			t.Fatalf("node %d: %v", i, st)
		}
		distinct := map[int64]bool{}
		for i, ni := range infos {
			want, st := pl.(framework.ScorePlugin).Score(ctx, state, pod, ni)
			if !st.IsSuccess() || got[i] != want {
				t.Errorf("%s: node %s: ScoreNodes %d, Score %d %v", image, ni.Name(), got[i], want, st)
			}
			distinct[want] = true
		}
		if image == "nginx:1.27,redis:7" && len(distinct) < 3 {
			t.Errorf("%s: only %d distinct scores; the test needs nodes that score differently", image, len(distinct))
		}
	}
}
