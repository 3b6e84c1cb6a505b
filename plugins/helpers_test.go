package plugins

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

// usage is what one container of newResourcePod requests, like upstream
// tests' framework.Resource: cpu in millicores, memory and ephemeral
// storage in bytes, scalars in units. Like upstream, cpu, memory, pods and
// ephemeral-storage are always set, even to zero.
type usage struct {
	cpu, mem, eph int64
	scalars       map[api.ResourceName]int64
}

// newResourcePod mirrors upstream's fit_test.go newResourcePod.
func newResourcePod(us ...usage) *api.Pod {
	var cs []api.Container
	for i, u := range us {
		rl := api.ResourceList{
			api.ResourceCPU:              resource.NewMilliQuantity(u.cpu, resource.DecimalSI),
			api.ResourceMemory:           resource.NewQuantity(u.mem, resource.BinarySI),
			api.ResourcePods:             resource.NewQuantity(0, resource.BinarySI),
			api.ResourceEphemeralStorage: resource.NewQuantity(u.eph, resource.BinarySI),
		}
		for n, v := range u.scalars {
			rl[n] = resource.NewQuantity(v, resource.DecimalSI)
		}
		cs = append(cs, api.Container{Name: fmt.Sprintf("c%d", i), Resources: api.ResourceRequirements{Requests: rl}})
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{Containers: cs}}
}

func makePod() *podBuilder {
	podSeq++
	return &podBuilder{p: api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", podSeq), Namespace: "default"}}}
}

// makeNode mirrors st.MakeNode().Name(name).Capacity(capacity): pods 32
// plus the given capacity, as both capacity and allocatable.
func makeNode(name string, capacity map[string]string) *api.Node {
	rl := resourceList(capacity)
	rl[api.ResourcePods] = resource.MustParse("32")
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Capacity: rl, Allocatable: rl}}
}

// testHandle is a framework.Handle over a fixed snapshot.
type testHandle struct{ s *cluster.Snapshot }

func (h testHandle) Snapshot() *cluster.Snapshot { return h.s }

func snapshot(t testing.TB, nodes []*api.Node, pods []*api.Pod) *cluster.Snapshot {
	t.Helper()
	var bound []*api.Pod
	for _, p := range pods {
		if p.Spec.NodeName != "" { // upstream's cache ignores unbound pods
			bound = append(bound, p)
		}
	}
	s, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func cpuAndMemory(cpu, mem string) map[string]string {
	return map[string]string{"cpu": cpu, "memory": mem}
}

func volPod(name, node string, vols ...api.Volume) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: node, Volumes: vols, Containers: []api.Container{{Name: "c"}}}}
}

// podBuilder mirrors the parts of upstream's st.MakePod() the ported
// tests use.
type podBuilder struct{ p api.Pod }

var podSeq int

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
