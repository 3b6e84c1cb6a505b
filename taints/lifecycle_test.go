package taints_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

func secs(v int64) *int64 { return &v }

// upstream: plugin/pkg/admission/defaulttolerationseconds admission_test.go TestForgivenessAdmission.
func TestDefaultTolerations(t *testing.T) {
	notReady := api.Toleration{Key: taints.NodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(300)}
	unreachable := api.Toleration{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(300)}
	tests := []struct {
		name string
		in   []api.Toleration
		want []api.Toleration
	}{
		{"pod has no tolerations, expect add tolerations for `not-ready:NoExecute` and `unreachable:NoExecute`", nil, []api.Toleration{notReady, unreachable}},
		{"pod has tolerations, but none is for taint `not-ready:NoExecute` or `unreachable:NoExecute`, expect add tolerations",
			[]api.Toleration{{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule, TolerationSeconds: secs(700)}},
			[]api.Toleration{{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule, TolerationSeconds: secs(700)}, notReady, unreachable}},
		{"pod specified a toleration for taint `not-ready:NoExecute`, expect add toleration for `unreachable:NoExecute`",
			[]api.Toleration{{Key: taints.NodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(700)}},
			[]api.Toleration{{Key: taints.NodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(700)}, unreachable}},
		{"pod specified a toleration for taint `unreachable:NoExecute`, expect add toleration for `not-ready:NoExecute`",
			[]api.Toleration{{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(700)}},
			[]api.Toleration{{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(700)}, notReady}},
		{"pod specified tolerations for both `not-ready:NoExecute` and `unreachable:NoExecute`, expect no change",
			[]api.Toleration{notReady, unreachable}, []api.Toleration{notReady, unreachable}},
		{"pod specified toleration for taint `unreachable`, expect add toleration for `not-ready:NoExecute`",
			[]api.Toleration{{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists}},
			[]api.Toleration{{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists}, notReady}},
		{"pod has wildcard toleration for all kind of taints, expect no change",
			[]api.Toleration{{Operator: api.TolerationOpExists}}, []api.Toleration{{Operator: api.TolerationOpExists}}},
	}
	for _, tc := range tests {
		pod := &api.Pod{}
		pod.Spec.Tolerations = tc.in
		if diff := cmp.Diff(tc.want, taints.DefaultTolerations(pod)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

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
	pod.Spec.Tolerations = taints.DefaultTolerations(pod)
	for _, t := range newTaints {
		fmt.Println(t.Key, t.Effect)
	}
	fmt.Println(taints.EvictionTime(pod, newTaints, at))
	// Output:
	// node.kubernetes.io/unreachable NoSchedule
	// node.kubernetes.io/unreachable NoExecute
	// At(2026-01-02T15:05:00Z)
}
