package customplugin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/examples/customplugin"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

// PreferSpot is registered with scheduler.WithPlugin and added to the
// default profile with weight 5. The pod lands on the spot node.
func Example() {
	var nodes []*api.Node
	for i, lifecycle := range []string{"on-demand", "spot", "on-demand"} {
		n := &api.Node{ObjectMeta: api.ObjectMeta{
			Name:   fmt.Sprintf("node-%d", i),
			Labels: map[string]string{customplugin.Lifecycle: lifecycle},
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
		scheduler.WithPlugin(customplugin.Name, customplugin.New),
		scheduler.WithProfiles(framework.ProfileConfig{Plugins: []framework.PluginRef{{Name: customplugin.Name, Weight: 5}}}),
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
			if sc.Plugin == customplugin.Name {
				fmt.Printf("  %s: PreferSpot %d x %d, total %d\n", n.Name, sc.Normalized, sc.Weight, n.Total)
			}
		}
	}
	// Output:
	// batch → node-1
	//   node-0: PreferSpot 0 x 5, total 464
	//   node-1: PreferSpot 100 x 5, total 964
	//   node-2: PreferSpot 0 x 5, total 464
}
