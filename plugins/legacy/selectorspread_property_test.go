package legacy

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

func selectorSpreadScores(t *rapid.T, nodes []*api.Node, pods []*api.Pod, objs []any, pod *api.Pod) map[string]int64 {
	out := map[string]int64{}
	for _, s := range runSelectorSpread(t, nodes, pods, objs, pod) {
		out[s.Name] = s.Score
	}
	return out
}

// SelectorSpread's scores are within [0, 100] and do not depend on the
// order of nodes or pods; a node holding no matching pod in a zone
// holding none scores 100; adding a matching pod to a node never raises
// that node's score.
func TestSelectorSpreadProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
			b := spreadNode().Name(fmt.Sprintf("n%d", i))
			switch rapid.IntRange(0, 3).Draw(t, "zoneLabel") {
			case 1:
				b.Label("topology.kubernetes.io/zone", rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone"))
			case 2:
				b.Label(labelFailureDomainBetaZone, rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "betaZone"))
			case 3:
				b.Label("topology.kubernetes.io/region", rapid.SampledFrom([]string{"r1", "r2"}).Draw(t, "region"))
			}
			nodes = append(nodes, b.Obj())
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			b := spreadPod().Name(fmt.Sprintf("p%d", i)).Node(nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")].Name)
			if rapid.Bool().Draw(t, "app") {
				b.Label("app", "web")
			}
			if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
				b.Terminating()
			}
			pods = append(pods, b.Obj())
		}
		objs := []any{&api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}}}
		pod := spreadPod().Name("incoming").Label("app", "web").Obj()
		want := selectorSpreadScores(t, nodes, pods, objs, pod)
		for n, s := range want {
			if s < 0 || s > framework.MaxNodeScore {
				t.Fatalf("%s scored %d", n, s)
			}
		}
		got := selectorSpreadScores(t, rapid.Permutation(nodes).Draw(t, "nodeOrder"), rapid.Permutation(pods).Draw(t, "podOrder"), objs, pod)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("order changed the scores: %v vs %v", want, got)
		}
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")].Name
		more := append(append([]*api.Pod(nil), pods...), spreadPod().Name("extra").Node(target).Label("app", "web").Obj())
		after := selectorSpreadScores(t, nodes, more, objs, pod)
		if after[target] > want[target] {
			t.Fatalf("a matching pod on %s raised its score from %d to %d", target, want[target], after[target])
		}
	})
}
