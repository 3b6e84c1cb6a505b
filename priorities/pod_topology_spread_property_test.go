package priorities

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

func spreadScores(t *rapid.T, nodes []*api.Node, pods []*api.Pod, objs []any, pod *api.Pod) map[string]int64 {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := snap.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	pl, _ := NewPodTopologySpread(nil, testHandle{snap})
	p := pl.(*PodTopologySpreadPlugin)
	ctx := context.Background()
	state := framework.NewCycleState()
	st := p.PreScore(ctx, state, pod, snap.Nodes())
	if st.IsSkip() {
		return nil
	}
	if !st.IsSuccess() {
		t.Fatal(st)
	}
	var list framework.NodeScoreList
	for _, ni := range snap.Nodes() {
		s, st := p.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			t.Fatal(st)
		}
		list = append(list, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	if st := p.NormalizeScore(ctx, state, pod, list); !st.IsSuccess() {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, s := range list {
		out[s.Name] = s.Score
	}
	return out
}

// Normalised scores are within [0, 100] and do not depend on the order of
// nodes or pods, with the pod's own ScheduleAnyway constraints or with
// the system defaults through a Service.
func TestSpreadScoreProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
			b := spreadNode().Name(fmt.Sprintf("n%d", i)).Label("kubernetes.io/hostname", fmt.Sprintf("n%d", i))
			if rapid.IntRange(0, 4).Draw(t, "noZone") != 0 {
				b.Label("topology.kubernetes.io/zone", rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone"))
			}
			nodes = append(nodes, b.Obj())
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			b := spreadPod().Name(fmt.Sprintf("p%d", i)).Node(nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")].Name)
			if rapid.Bool().Draw(t, "foo") {
				b.Label("foo", "")
			}
			pods = append(pods, b.Obj())
		}
		in := spreadPod().Name("incoming").Label("foo", "")
		var objs []any
		if rapid.Bool().Draw(t, "system") {
			objs = append(objs, &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": ""}}})
		} else {
			for range rapid.IntRange(1, 2).Draw(t, "constraints") {
				in.SpreadConstraint(rapid.IntRange(1, 5).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}).Draw(t, "key"),
					api.ScheduleAnyway, fooSelector, nil, nil, nil, nil)
			}
		}
		pod := in.Obj()
		want := spreadScores(t, nodes, pods, objs, pod)
		for n, s := range want {
			if s < 0 || s > framework.MaxNodeScore {
				t.Fatalf("%s scored %d", n, s)
			}
		}
		got := spreadScores(t, rapid.Permutation(nodes).Draw(t, "nodeOrder"), rapid.Permutation(pods).Draw(t, "podOrder"), objs, pod)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("order changed the scores: %v vs %v", want, got)
		}
	})
}
