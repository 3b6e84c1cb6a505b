package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
)

func expr(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

// requiredPod is a pod whose required node affinity has the given terms.
func requiredPod(terms ...api.NodeSelectorTerm) *api.Pod {
	return &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}}}
}

func ExampleNodeAffinity() {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{"topology.kubernetes.io/zone": "eu-1a"}}}
	pod := requiredPod(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
		expr("topology.kubernetes.io/zone", api.NodeSelectorOpIn, "us-1a", "us-1b")}})
	fmt.Println(NodeAffinity(pod, node))
	fmt.Println(NodeAffinity(&api.Pod{}, node).IsSuccess())
	// Output:
	// UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector
	// true
}
