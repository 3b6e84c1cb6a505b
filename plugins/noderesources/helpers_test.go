package noderesources

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

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

// scoreNodes runs PreScore (when asked) and Score of p over the nodes of
// s in the order given, as the upstream tests do.
func scoreNodes(t *testing.T, p framework.Plugin, pod *api.Pod, s *cluster.Snapshot, nodes []*api.Node, preScore bool) (framework.NodeScoreList, []*framework.Status) {
	t.Helper()
	ctx := context.Background()
	state := framework.NewCycleState()
	if preScore {
		if st := p.(framework.PreScorePlugin).PreScore(ctx, state, pod, s.Nodes()); !st.IsSuccess() {
			t.Fatalf("PreScore: %v", st)
		}
	}
	var out framework.NodeScoreList
	var sts []*framework.Status
	for _, n := range nodes {
		ni, ok := s.Get(n.Name)
		if !ok {
			t.Fatalf("no node %s", n.Name)
		}
		score, st := p.(framework.ScorePlugin).Score(ctx, state, pod, ni)
		out = append(out, framework.NodeScore{Name: n.Name, Score: score})
		sts = append(sts, st)
	}
	return out, sts
}

func checkScores(t *testing.T, got, want framework.NodeScoreList) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scores (-want,+got):\n%s", diff)
	}
}

func cpuOnly(req string) map[string]string { return map[string]string{"cpu": req} }

func cpuAndMemory(cpu, mem string) map[string]string {
	return map[string]string{"cpu": cpu, "memory": mem}
}

func cpuAndMemoryAndGpu(cpu, mem, gpu string) map[string]string {
	return map[string]string{"cpu": cpu, "memory": mem, "nvidia.com/gpu": gpu}
}

func gpu(n int64) map[string]int64 { return map[string]int64{"nvidia.com/gpu": n} }

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

// newResourceInitPod mirrors upstream's newResourceInitPod.
func newResourceInitPod(pod *api.Pod, us ...usage) *api.Pod {
	pod.Spec.InitContainers = newResourcePod(us...).Spec.Containers
	for i := range pod.Spec.InitContainers {
		pod.Spec.InitContainers[i].Name = fmt.Sprintf("init%d", i)
	}
	return pod
}

func newResourceOverheadPod(pod *api.Pod, overhead api.ResourceList) *api.Pod {
	pod.Spec.Overhead = overhead
	return pod
}

func newPodLevelResourcesPod(pod *api.Pod, r api.ResourceRequirements) *api.Pod {
	pod.Spec.Resources = &r
	return pod
}

// makeAllocatableResources mirrors upstream's helper of that name.
func makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA int64) api.ResourceList {
	return api.ResourceList{
		api.ResourceCPU:              resource.NewMilliQuantity(milliCPU, resource.DecimalSI),
		api.ResourceMemory:           resource.NewQuantity(memory, resource.BinarySI),
		api.ResourcePods:             resource.NewQuantity(pods, resource.DecimalSI),
		extendedResourceA:            resource.NewQuantity(extendedA, resource.DecimalSI),
		api.ResourceEphemeralStorage: resource.NewQuantity(storage, resource.BinarySI),
		hugePageResourceA:            resource.NewQuantity(hugePageA, resource.BinarySI),
	}
}

var (
	extendedResourceA     = api.ResourceName("example.com/aaa")
	extendedResourceB     = api.ResourceName("example.com/bbb")
	kubernetesIOResourceA = api.ResourceName("kubernetes.io/something")
	kubernetesIOResourceB = api.ResourceName("subdomain.kubernetes.io/something")
	hugePageResourceA     = api.ResourceName("hugepages-2Mi")
)

func insufficient(n api.ResourceName) string { return "Insufficient " + string(n) }

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
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

// sidecarReq adds a restartable init container requesting m
// (st.MakePod().SidecarReq).
func (b *podBuilder) sidecarReq(m map[string]string) *podBuilder {
	always := api.ContainerRestartPolicyAlways
	b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, api.Container{
		Name: fmt.Sprintf("sidecar-con%d", len(b.p.Spec.InitContainers)), Image: "registry.k8s.io/pause:3.10",
		RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: resourceList(m)},
	})
	return b
}

// container adds a container without requests (st.MakePod().Container).
func (b *podBuilder) container(image string) *podBuilder {
	b.p.Spec.Containers = append(b.p.Spec.Containers, api.Container{Name: fmt.Sprintf("con%d", len(b.p.Spec.Containers)), Image: image})
	return b
}
