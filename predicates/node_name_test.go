package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
)

func nodeWithTaints(name string, ts []api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Taints: ts}}
}

func ExampleNodeUnschedulable() {
	cordoned := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Spec: api.NodeSpec{Unschedulable: true}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	st := NodeUnschedulable(pod, cordoned)
	fmt.Println(st.Code(), st.Message())

	pod.Spec.Tolerations = []api.Toleration{{Key: TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	fmt.Println(NodeUnschedulable(pod, cordoned).IsSuccess())
	// Output:
	// UnschedulableAndUnresolvable node(s) were unschedulable
	// true
}

func ExampleTaintToleration() {
	node := nodeWithTaints("n1", []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	fmt.Println(TaintToleration(pod, node))
	taint, _ := UntoleratedTaint(pod, node)
	fmt.Println(taint.Key, taint.Value, taint.Effect)
	// Output:
	// UnschedulableAndUnresolvable: node(s) had untolerated taint(s)
	// dedicated gpu NoSchedule
}
