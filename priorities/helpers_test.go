package priorities

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

// podBuilder mirrors the parts of upstream's st.MakePod() the ported
// tests use.
type podBuilder struct{ p api.Pod }

var podSeq int

func makePod() *podBuilder {
	podSeq++
	return &podBuilder{p: api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", podSeq), Namespace: "default"}}}
}

func (b *podBuilder) Obj() *api.Pod { return &b.p }

func (b *podBuilder) node(n string) *podBuilder { b.p.Spec.NodeName = n; return b }

func resourceList(m map[string]string) api.ResourceList {
	rl := api.ResourceList{}
	for k, v := range m {
		rl[api.ResourceName(k)] = resource.MustParse(v)
	}
	return rl
}

// req adds a container requesting m (st.MakePod().Req).
func (b *podBuilder) req(m map[string]string) *podBuilder {
	if len(m) == 0 {
		return b
	}
	b.p.Spec.Containers = append(b.p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(b.p.Spec.Containers)), Image: "registry.k8s.io/pause:3.10",
		Resources: api.ResourceRequirements{Requests: resourceList(m)},
	})
	return b
}

// makeNode mirrors st.MakeNode().Name(name).Capacity(capacity): pods 32
// plus the given capacity, as both capacity and allocatable.
func makeNode(name string, capacity map[string]string) *api.Node {
	rl := resourceList(capacity)
	rl[api.ResourcePods] = resource.MustParse("32")
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Capacity: rl, Allocatable: rl}}
}

// makeNodeMilli mirrors noderesources/util_test.go makeNode: cpu in
// millicores, memory in bytes, extended resources in units.
func makeNodeMilli(name string, milliCPU, memory int64, extended map[string]int64) *api.Node {
	rl := api.ResourceList{
		api.ResourceCPU:    resource.NewMilliQuantity(milliCPU, resource.DecimalSI),
		api.ResourceMemory: resource.NewQuantity(memory, resource.BinarySI),
	}
	for k, v := range extended {
		rl[api.ResourceName(k)] = resource.NewQuantity(v, resource.DecimalSI)
	}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Capacity: rl, Allocatable: rl}}
}

func checkScores(t *testing.T, got, want framework.NodeScoreList) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scores (-want,+got):\n%s", diff)
	}
}

func cpuAndMemory(cpu, mem string) map[string]string {
	return map[string]string{"cpu": cpu, "memory": mem}
}
