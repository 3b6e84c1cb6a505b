package priorities

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

func expr(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func preferred(weight int32, reqs ...api.NodeSelectorRequirement) api.PreferredSchedulingTerm {
	return api.PreferredSchedulingTerm{Weight: weight, Preference: api.NodeSelectorTerm{MatchExpressions: reqs}}
}

func labelledNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

func ExampleNodeAffinity() {
	pod := &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
			preferred(10, expr("disk", api.NodeSelectorOpIn, "ssd")),
			preferred(5, expr("zone", api.NodeSelectorOpIn, "a")),
		}}}}}
	scores := framework.NodeScoreList{}
	for _, n := range []*api.Node{
		labelledNode("fast", map[string]string{"disk": "ssd", "zone": "a"}),
		labelledNode("near", map[string]string{"zone": "a"}),
	} {
		s, _ := NodeAffinity(pod, n)
		scores = append(scores, framework.NodeScore{Name: n.Name, Score: s})
	}
	fmt.Println(scores)
	DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
	fmt.Println(scores)
	// Output:
	// [{fast 15} {near 5}]
	// [{fast 100} {near 33}]
}
