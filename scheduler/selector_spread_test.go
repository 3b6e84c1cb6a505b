package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/queuesort"
)

// SelectorSpread, enabled in a profile as the only scorer, places the
// pods of a Service one per zone first, then one per node.
func TestSelectorSpreadProfile(t *testing.T) {
	if _, ok := DefaultRegistry()[config.SelectorSpreadName]; !ok {
		t.Fatal("SelectorSpread is not registered")
	}
	for _, p := range framework.DefaultPlugins() {
		if p.Name == config.SelectorSpreadName {
			t.Fatal("SelectorSpread is in the default profile")
		}
	}
	nodes := benchNodes(6)
	for i, n := range nodes {
		n.Labels["topology.kubernetes.io/zone"] = fmt.Sprintf("zone-%d", i/2)
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}}); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, WithPercentageOfNodesToScore(100), WithProfiles(framework.ProfileConfig{
		Disabled: []string{"*"},
		Plugins:  []framework.PluginRef{{Name: queuesort.Name}, {Name: config.SelectorSpreadName, Weight: 1}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	zones, perNode := map[string]int{}, map[string]int{}
	for i, pod := range benchPods(6) {
		pod.Labels = map[string]string{"app": "web"}
		res, err := s.Schedule(context.Background(), pod)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Assume(pod, res.Node); err != nil {
			t.Fatal(err)
		}
		ni, _ := snap.Get(res.Node)
		zones[ni.Node().Labels["topology.kubernetes.io/zone"]]++
		perNode[res.Node]++
		if i == 2 && len(zones) != 3 {
			t.Errorf("first three pods in zones %v, want one per zone", zones)
		}
	}
	if len(perNode) != 6 {
		t.Errorf("six pods on nodes %v, want one per node", perNode)
	}
}
