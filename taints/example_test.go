package taints_test

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

func ExampleTolerates() {
	taint := api.Taint{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule}
	fmt.Println(taints.Tolerates(api.Toleration{Key: "dedicated", Value: "infra"}, taint))
	fmt.Println(taints.Tolerates(api.Toleration{Key: "dedicated", Value: "web"}, taint))
	fmt.Println(taints.Tolerates(api.Toleration{Operator: api.TolerationOpExists}, taint))
	// Output:
	// true
	// false
	// true
}

func ExampleFindUntolerated() {
	nodeTaints := []api.Taint{
		{Key: "spot", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "gpu", Effect: api.TaintEffectNoSchedule},
	}
	t, ok := taints.FindUntolerated(nodeTaints, nil, api.TaintEffectNoSchedule, api.TaintEffectNoExecute)
	fmt.Println(taints.FormatTaint(t), ok)
	fmt.Println(taints.CountIntolerablePreferNoSchedule(nodeTaints, nil))
	// Output:
	// gpu:NoSchedule true
	// 1
}

func ExampleEvictionTime() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	unreachable := []api.Taint{{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoExecute}}
	five := int64(300)
	pod := &api.Pod{}
	pod.Spec.Tolerations = []api.Toleration{{Key: "node.kubernetes.io/unreachable", Operator: api.TolerationOpExists, TolerationSeconds: &five}}
	fmt.Println(taints.EvictionTime(pod, unreachable, now))
	fmt.Println(taints.EvictionTime(&api.Pod{}, unreachable, now))
	// Output:
	// At(2026-01-01T12:05:00Z)
	// Now
}

func ExampleParseTaints() {
	add, remove, err := taints.ParseTaints([]string{"dedicated=infra:NoSchedule", "gpu:NoExecute-", "spot-"})
	fmt.Println(len(add), taints.FormatTaint(add[0]), len(remove), taints.FormatTaint(remove[0]), taints.FormatTaint(remove[1]), err)
	_, err = taints.ParseTaint("dedicated=infra:Sometimes")
	fmt.Println(err)
	// Output:
	// 1 dedicated=infra:NoSchedule 2 gpu:NoExecute spot <nil>
	// invalid taint effect: Sometimes, unsupported taint effect
}
