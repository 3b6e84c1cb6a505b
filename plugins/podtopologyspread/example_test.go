package podtopologyspread_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/podtopologyspread"
)

type exampleHandle struct{ s *cluster.Snapshot }

func (h exampleHandle) Snapshot() *cluster.Snapshot { return h.s }

// A web pod spread over zones with maxSkew 1: zone a already holds one
// web pod and zone b none, so only zone b's node fits; the node without
// a zone never does.
func ExampleNew() {
	zoned := func(name, zone string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}}}
		if zone != "" {
			n.Labels["zone"] = zone
		}
		return n
	}
	web := map[string]string{"app": "web"}
	existing := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: web}, Spec: api.PodSpec{NodeName: "a1"}}
	snap, _ := cluster.NewSnapshot([]*api.Node{zoned("a1", "a"), zoned("b1", "b"), zoned("x", "")}, []*api.Pod{existing})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-2", Namespace: "default", Labels: web}}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: web},
	}}
	pl, _ := podtopologyspread.New(nil, exampleHandle{snap})
	f := pl.(*podtopologyspread.PodTopologySpread)
	state := framework.NewCycleState()
	f.PreFilter(context.Background(), state, pod, snap.Nodes())
	for _, name := range []string{"a1", "b1", "x"} {
		ni, _ := snap.Get(name)
		if st := f.Filter(context.Background(), state, pod, ni); st != nil {
			fmt.Printf("%s: %v\n", name, st)
		} else {
			fmt.Printf("%s fits\n", name)
		}
	}
	// Output:
	// a1: Unschedulable: node(s) didn't match pod topology spread constraints
	// b1 fits
	// x: UnschedulableAndUnresolvable: node(s) didn't match pod topology spread constraints (missing required label)
}
