// Command customplugin adds a score plugin of its own to kube-scheduler's
// default profile: PreferSpot gives nodes labelled
// node.example.com/lifecycle=spot the top score, so that cheap nodes fill
// first when everything else is equal, and explains the decision.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

// PreferSpot is a framework.ScorePlugin: a name, a Score, no normaliser.
// That is all a plugin needs; the scheduler runs it exactly.
type PreferSpot struct{}

// Name is the plugin's name in profiles.
func (PreferSpot) Name() string { return "PreferSpot" }

// Score is 100 on spot nodes, 0 elsewhere.
func (PreferSpot) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, n *cluster.NodeInfo) (int64, *framework.Status) {
	if n.Node().Labels["node.example.com/lifecycle"] == "spot" {
		return framework.MaxNodeScore, nil
	}
	return 0, nil
}

// ScoreExtensions returns nil: the scores are already in [0, 100].
func (PreferSpot) ScoreExtensions() framework.ScoreExtensions { return nil }

// FastPath joins the fast path (framework.FastPathPlugin): Score reads the
// node's labels only, so it does not depend on which nodes passed Filter,
// and the scheduler may score nodes as they pass. Without it, decisions
// are the same; cycles that score every node are slower.
func (PreferSpot) FastPath() framework.FastPath { return framework.FastPath{ScoresAnyNodes: true} }

func main() {
	var nodes []*api.Node
	for i, lifecycle := range []string{"on-demand", "spot", "on-demand"} {
		n := &api.Node{ObjectMeta: api.ObjectMeta{
			Name:   fmt.Sprintf("node-%d", i),
			Labels: map[string]string{"node.example.com/lifecycle": lifecycle},
		}}
		n.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("8"), "memory": resource.MustParse("32Gi"), "pods": resource.MustParse("110")}
		nodes = append(nodes, n)
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := scheduler.New(snap,
		scheduler.WithSeed(1),
		scheduler.WithPlugin("PreferSpot", func(any, framework.Handle) (framework.Plugin, error) { return PreferSpot{}, nil }),
		scheduler.WithProfiles(framework.ProfileConfig{Plugins: []framework.PluginRef{{Name: "PreferSpot", Weight: 5}}}),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default"}}
	pod.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse("1")}}}}
	res, err := s.Schedule(context.Background(), pod)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("batch →", res.Node)
	ex, err := s.Explain(context.Background(), pod)
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range ex.Nodes {
		for _, sc := range n.Scores {
			if sc.Plugin == "PreferSpot" {
				fmt.Printf("  %s: PreferSpot %d x %d, total %d\n", n.Name, sc.Normalized, sc.Weight, n.Total)
			}
		}
	}
}
