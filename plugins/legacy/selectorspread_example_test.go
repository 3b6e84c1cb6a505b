package legacy

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// SelectorSpread spreads the pods a Service selects over nodes and
// zones: a node already running one scores 0; a node of the same zone a
// third of the way (the zone weighs 2/3); nodes of other zones 100.
func ExampleNewSelectorSpread() {
	zone := func(name, z string) *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"topology.kubernetes.io/zone": z}}}
	}
	nodes := []*api.Node{zone("a1", "a"), zone("a2", "a"), zone("b1", "b")}
	web := func(name, node string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}}}
		p.Spec.NodeName = node
		return p
	}
	snap, _ := cluster.NewSnapshot(nodes, []*api.Pod{web("web-1", "a1")})
	_ = snap.AddObjects(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}})

	pl, _ := NewSelectorSpread(nil, testHandle{snap})
	p := pl.(*SelectorSpread)
	ctx, state, pod := context.Background(), framework.NewCycleState(), web("web-2", "")
	p.PreScore(ctx, state, pod, snap.Nodes())
	var scores framework.NodeScoreList
	for _, ni := range snap.Nodes() { // the snapshot's order: zones interleaved
		s, _ := p.Score(ctx, state, pod, ni)
		scores = append(scores, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	p.NormalizeScore(ctx, state, pod, scores)
	for _, s := range scores {
		fmt.Println(s.Name, s.Score)
	}
	// Output:
	// a1 0
	// b1 100
	// a2 33
}
