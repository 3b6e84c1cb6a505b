package scheduler

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// drawBatchPod draws a pod that exercises every in-tree filter and score
// plugin: a node name, tolerations, a node selector, required and
// preferred node affinity.
func drawBatchPod(t *rapid.T, nodes []*api.Node) *api.Pod {
	pod := clustergen.Pod().Draw(t, "pod")
	pod.Name, pod.UID = "incoming", "incoming"
	if rapid.IntRange(0, 3).Draw(t, "named") == 0 {
		pod.Spec.NodeName = rapid.SampledFrom(nodes).Draw(t, "nodeName").Name
	}
	for range rapid.IntRange(0, 2).Draw(t, "tolerations") {
		tol := api.Toleration{Key: fmt.Sprintf("example.com/taint-%d", rapid.IntRange(0, 1).Draw(t, "key")), Operator: api.TolerationOpExists}
		tol.Effect = rapid.SampledFrom([]api.TaintEffect{"", api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}).Draw(t, "effect")
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, tol)
	}
	if rapid.IntRange(0, 5).Draw(t, "unschedulableToleration") == 0 {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, api.Toleration{Key: "node.kubernetes.io/unschedulable", Operator: api.TolerationOpExists})
	}
	zones := rapid.SampledFrom(clustergen.Zones)
	if rapid.IntRange(0, 3).Draw(t, "selector") == 0 {
		pod.Spec.NodeSelector = map[string]string{clustergen.LabelZone: zones.Draw(t, "zone")}
	}
	if rapid.IntRange(0, 2).Draw(t, "nodeAffinity") == 0 {
		req := api.NodeSelectorRequirement{Key: clustergen.LabelZone, Operator: api.NodeSelectorOpIn, Values: []string{zones.Draw(t, "zone")}}
		na := &api.NodeAffinity{}
		if rapid.Bool().Draw(t, "required") {
			na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{req}}}}
		}
		if rapid.Bool().Draw(t, "preferred") {
			na.PreferredDuringSchedulingIgnoredDuringExecution = []api.PreferredSchedulingTerm{{Weight: int32(rapid.IntRange(1, 100).Draw(t, "weight")), Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req}}}}
		}
		if pod.Spec.Affinity == nil {
			pod.Spec.Affinity = &api.Affinity{}
		}
		pod.Spec.Affinity.NodeAffinity = na
	}
	return pod
}

// TestPropInTreeBatchMatchesSingle: every in-tree plugin's FilterNodes and
// ScoreNodes give each node what Filter and Score give it, with the
// plugin's PreFilter and PreScore state in place and without it, for the
// default arguments and for other scoring strategies and resources.
func TestPropInTreeBatchMatchesSingle(t *testing.T) {
	reg := DefaultRegistry()
	args := map[string][]any{
		config.NodeResourcesFitName: {nil,
			config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.MostAllocated}},
			config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated,
				Resources: []config.ResourceSpec{{Name: "cpu", Weight: 3}, {Name: "memory", Weight: 5}}}},
			config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated,
				Resources: []config.ResourceSpec{{Name: "memory", Weight: 2}, {Name: "cpu", Weight: 1}, {Name: string(clustergen.GPU), Weight: 4}}}},
			config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.RequestedToCapacityRatio,
				Resources:                []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
				RequestedToCapacityRatio: &config.RequestedToCapacityRatioParam{Shape: []config.UtilizationShapePoint{{Utilization: 0, Score: 10}, {Utilization: 100, Score: 0}}}}},
		},
		config.NodeResourcesBalancedAllocationName: {nil,
			config.NodeResourcesBalancedAllocationArgs{Resources: []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: string(api.ResourceEphemeralStorage), Weight: 1}}},
			config.NodeResourcesBalancedAllocationArgs{Resources: []config.ResourceSpec{{Name: "memory", Weight: 1}, {Name: "cpu", Weight: 1}}},
		},
	}
	names := make([]string, 0, len(reg))
	for name := range reg {
		names = append(names, name)
	}
	sort.Strings(names)
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 10).Draw(t, "nodes"), rapid.IntRange(0, 20).Draw(t, "pods")).Draw(t, "cluster")
		pool := rapid.Bool().Draw(t, "pool") // one machine type
		for _, n := range c.Nodes {
			n.Spec.Unschedulable = rapid.IntRange(0, 3).Draw(t, "cordoned") == 0
			if pool {
				n.Status.Allocatable, n.Status.Capacity = c.Nodes[0].Status.Allocatable, c.Nodes[0].Status.Capacity
				if rapid.Bool().Draw(t, "sameImages") {
					n.Status.Images = c.Nodes[0].Status.Images
				}
			}
		}
		snap, err := cluster.NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		// Nodes repeat now and then, as identical nodes of a pool follow
		// each other, which the plugins' loops take advantage of.
		var nodes []*cluster.NodeInfo
		for _, ni := range snap.View().Nodes() {
			for range rapid.IntRange(1, 3).Draw(t, "repeat") {
				nodes = append(nodes, ni)
			}
		}
		pod := drawBatchPod(t, c.Nodes)
		ctx := context.Background()
		h := handle{&Scheduler{snapshot: snap}}
		for _, name := range names {
			for _, a := range append([]any{nil}, args[name]...) {
				pl, err := reg[name](a, h)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				parts := []framework.Plugin{pl}
				if mp, ok := pl.(framework.MultiPointPlugin); ok {
					parts = mp.Parts()
				}
				for _, withState := range []bool{true, false} {
					state := framework.NewCycleState()
					for _, part := range parts {
						if !withState {
							break
						}
						if x, ok := part.(framework.PreFilterPlugin); ok {
							x.PreFilter(ctx, state, pod, nodes)
						}
						if x, ok := part.(framework.PreScorePlugin); ok {
							x.PreScore(ctx, state, pod, nodes)
						}
					}
					for _, part := range parts {
						if fn := framework.FastPathOf(part).FilterNodes; fn != nil {
							b := part.(framework.FilterPlugin)
							got := make([]*framework.Status, len(nodes))
							fn(ctx, state, pod, nodes, got)
							for i, ni := range nodes {
								if want := b.Filter(ctx, state, pod, ni); !got[i].Equal(want) {
									t.Fatalf("%s %v state %v: node %s: FilterNodes %v %q, Filter %v %q",
										name, a, withState, ni.Name(), got[i].Code(), got[i].Message(), want.Code(), want.Message())
								}
							}
						}
						if fn := framework.FastPathOf(part).ScoreNodes; fn != nil {
							b := part.(framework.ScorePlugin)
							got := make([]int64, len(nodes))
							fail, st := fn(ctx, state, pod, nodes, got)
							for i, ni := range nodes {
								want, wantSt := b.Score(ctx, state, pod, ni)
								if !wantSt.IsSuccess() {
									if fail != i || st.Message() != wantSt.Message() {
										t.Fatalf("%s %v state %v: ScoreNodes failed at %d with %q, Score fails at %d with %q",
											name, a, withState, fail, st.Message(), i, wantSt.Message())
									}
									break
								}
								if !st.IsSuccess() && fail <= i {
									t.Fatalf("%s %v state %v: ScoreNodes failed at %d with %q, Score does not", name, a, withState, fail, st.Message())
								}
								if got[i] != want {
									t.Fatalf("%s %v state %v: node %s: ScoreNodes %d, Score %d", name, a, withState, ni.Name(), got[i], want)
								}
							}
						}
					}
				}
			}
		}
	})
}
