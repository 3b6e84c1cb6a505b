package priorities

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
	"github.com/schedkit/schedkit/taints/taintsgen"
)

// genNode draws a node with random allocatable resources (some may be
// missing) and room for pods.
func genNode(t *rapid.T, name string) *api.Node {
	rl := resourcegen.ResourceList().Draw(t, name+"-allocatable")
	if rl == nil {
		rl = api.ResourceList{}
	}
	rl[api.ResourcePods] = resource.MustParse("110")
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Allocatable: rl}}
}

// genPods draws up to max pods bound to node, with unique names.
func genPods(t *rapid.T, node string, max int) []*api.Pod {
	n := rapid.IntRange(0, max).Draw(t, node+"-pods")
	var pods []*api.Pod
	for i := 0; i < n; i++ {
		p := resourcegen.Pod().Draw(t, fmt.Sprintf("%s-pod%d", node, i))
		p.Name, p.Namespace, p.Spec.NodeName = fmt.Sprintf("%s-pod%d", node, i), "default", node
		pods = append(pods, p)
	}
	return pods
}

func genResources(t *rapid.T) []config.ResourceSpec {
	names := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"cpu", "memory", "ephemeral-storage", "hugepages-2Mi", string(resourcegen.GPU)}), 1, 5, rapid.ID[string]).Draw(t, "resources")
	out := make([]config.ResourceSpec, len(names))
	for i, n := range names {
		out[i] = config.ResourceSpec{Name: n, Weight: rapid.Int64Range(1, 100).Draw(t, "weight")}
	}
	return out
}

func genShape(t *rapid.T) []config.UtilizationShapePoint {
	us := rapid.SliceOfNDistinct(rapid.Int32Range(0, 100), 1, 5, rapid.ID[int32]).Draw(t, "utilizations")
	for i := 1; i < len(us); i++ { // sort
		for j := i; j > 0 && us[j] < us[j-1]; j-- {
			us[j], us[j-1] = us[j-1], us[j]
		}
	}
	shape := make([]config.UtilizationShapePoint, len(us))
	for i, u := range us {
		shape[i] = config.UtilizationShapePoint{Utilization: u, Score: rapid.Int32Range(0, 10).Draw(t, "score")}
	}
	return shape
}

func inRange(t *rapid.T, what string, s int64) {
	if s < framework.MinNodeScore || s > framework.MaxNodeScore {
		t.Fatalf("%s score %d outside [0, 100]", what, s)
	}
}

// Every score plugin's scores, after its normalization if it has one,
// are in [MinNodeScore, MaxNodeScore].
func TestPropertyScoresInRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		numNodes := rapid.IntRange(1, 4).Draw(t, "nodes")
		var nodes []*api.Node
		var pods []*api.Pod
		for i := 0; i < numNodes; i++ {
			n := genNode(t, fmt.Sprintf("n%d", i))
			n.Spec.Taints = taintsgen.Taints().Draw(t, "taints")
			n.Status.Images = []api.ContainerImage{{Names: []string{"img:latest"}, SizeBytes: rapid.Int64Range(0, 5000*mb).Draw(t, "size")}}
			nodes = append(nodes, n)
			pods = append(pods, genPods(t, n.Name, 3)...)
		}
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		pod := resourcegen.Pod().Draw(t, "pod")
		pod.Spec.Tolerations = taintsgen.Tolerations().Draw(t, "tolerations")
		for i := range pod.Spec.Containers {
			pod.Spec.Containers[i].Image = rapid.SampledFrom([]string{"img", "other"}).Draw(t, "image")
		}
		resources, shape := genResources(t), genShape(t)
		var taintScores framework.NodeScoreList
		for _, ni := range snap.Nodes() {
			inRange(t, "LeastAllocated", LeastAllocated(pod, ni, resources))
			inRange(t, "MostAllocated", MostAllocated(pod, ni, resources))
			inRange(t, "RequestedToCapacityRatio", RequestedToCapacityRatio(pod, ni, resources, shape))
			bal := make([]config.ResourceSpec, len(resources))
			for i := range resources {
				bal[i] = config.ResourceSpec{Name: resources[i].Name, Weight: 1}
			}
			inRange(t, "BalancedAllocation", BalancedAllocation(pod, ni, bal))
			inRange(t, "ImageLocality", ImageLocality(pod, ni, snap.NumNodes()))
			taintScores = append(taintScores, framework.NodeScore{Name: ni.Name(), Score: TaintToleration(pod, ni.Node())})
		}
		DefaultNormalizeScore(framework.MaxNodeScore, true, taintScores)
		for _, s := range taintScores {
			inRange(t, "TaintToleration", s.Score)
		}
	})
}

// LeastAllocated never rises and MostAllocated never falls as the node's
// pods request more.
func TestPropertyAllocatedMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		node := genNode(t, "n")
		pods := genPods(t, "n", 4)
		k := rapid.IntRange(0, len(pods)).Draw(t, "prefix")
		fewer, more := cluster.NewNodeInfo(node, pods[:k]...), cluster.NewNodeInfo(node, pods...)
		pod := resourcegen.Pod().Draw(t, "pod")
		resources := genResources(t)
		if a, b := LeastAllocated(pod, fewer, resources), LeastAllocated(pod, more, resources); b > a {
			t.Fatalf("LeastAllocated rose from %d to %d as the node filled", a, b)
		}
		if a, b := MostAllocated(pod, fewer, resources), MostAllocated(pod, more, resources); b < a {
			t.Fatalf("MostAllocated fell from %d to %d as the node filled", a, b)
		}
	})
}

// DefaultNormalizeScore gives each node the same score whatever the order
// of the list, and stays in [0, maxPriority] for non-negative scores.
func TestPropertyNormalizeOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := rapid.SliceOfN(rapid.Int64Range(0, 1<<40), 0, 20).Draw(t, "scores")
		reverse := rapid.Bool().Draw(t, "reverse")
		list := make(framework.NodeScoreList, len(raw))
		for i, s := range raw {
			list[i] = framework.NodeScore{Name: fmt.Sprint(i), Score: s}
		}
		perm := rapid.Permutation(list).Draw(t, "perm")
		DefaultNormalizeScore(framework.MaxNodeScore, reverse, list)
		DefaultNormalizeScore(framework.MaxNodeScore, reverse, perm)
		byName := map[string]int64{}
		for _, s := range list {
			byName[s.Name] = s.Score
			inRange(t, "normalized", s.Score)
		}
		for _, s := range perm {
			if byName[s.Name] != s.Score {
				t.Fatalf("node %s: %d in one order, %d in another", s.Name, byName[s.Name], s.Score)
			}
		}
	})
}
