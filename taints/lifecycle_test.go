package taints_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

func TestWithConditionTaints(t *testing.T) {
	at := time.Unix(1000, 0)
	node := func(status api.ConditionStatus, existing ...api.Taint) *api.Node {
		n := &api.Node{}
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: status}}
		n.Spec.Taints = existing
		return n
	}
	keys := func(ts []api.Taint) string {
		s := ""
		for _, t := range ts {
			s += t.Key + ":" + string(t.Effect) + " "
		}
		return s
	}
	other := api.Taint{Key: "dedicated", Effect: api.TaintEffectNoSchedule}
	old := api.NewTime(time.Unix(1, 0))
	cases := []struct {
		n    *api.Node
		want string
	}{
		{node(api.ConditionTrue, other), "dedicated:NoSchedule "},
		{node(api.ConditionFalse, other), "dedicated:NoSchedule node.kubernetes.io/not-ready:NoSchedule node.kubernetes.io/not-ready:NoExecute "},
		{node(api.ConditionUnknown, api.Taint{Key: taints.NodeNotReady, Effect: api.TaintEffectNoExecute}, api.Taint{Key: taints.NodeNotReady, Effect: api.TaintEffectNoSchedule}),
			"node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute "},
		{node(api.ConditionTrue, api.Taint{Key: taints.NodeUnreachable, Effect: api.TaintEffectNoExecute}), ""},
		{node(api.ConditionFalse, api.Taint{Key: taints.NodeNotReady, Effect: api.TaintEffectNoExecute, TimeAdded: &old}), "node.kubernetes.io/not-ready:NoExecute node.kubernetes.io/not-ready:NoSchedule "},
	}
	for i, c := range cases {
		got := taints.WithConditionTaints(c.n, at)
		if keys(got) != c.want {
			t.Errorf("%d: %q, want %q", i, keys(got), c.want)
		}
	}
	pressure := node(api.ConditionTrue)
	pressure.Spec.Unschedulable = true
	pressure.Status.Conditions = append(pressure.Status.Conditions, api.NodeCondition{Type: "MemoryPressure", Status: api.ConditionTrue})
	if got := keys(taints.WithConditionTaints(pressure, at)); got != "node.kubernetes.io/memory-pressure:NoSchedule node.kubernetes.io/unschedulable:NoSchedule " {
		t.Errorf("pressure: %q", got)
	}
	if got := taints.WithConditionTaints(cases[4].n, at); !got[0].TimeAdded.Equal(old.Time) {
		t.Errorf("existing taint's timeAdded not kept: %v", got[0].TimeAdded)
	}
}

// A node stops reporting: the lifecycle controller taints it unreachable,
// and a pod admitted with the default tolerations is evicted 300 s later.
func ExampleWithConditionTaints() {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}
	at := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	newTaints := taints.WithConditionTaints(node, at)

	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	admission.AddDefaultTolerations(pod)
	for _, t := range newTaints {
		fmt.Println(t.Key, t.Effect)
	}
	fmt.Println(taints.EvictionTime(pod, newTaints, at))
	// Output:
	// node.kubernetes.io/unreachable NoSchedule
	// node.kubernetes.io/unreachable NoExecute
	// At(2026-01-02T15:05:00Z)
}
