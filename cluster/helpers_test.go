package cluster

import (
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// rl builds a resource list from name/quantity pairs.
func rl(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[api.ResourceName(kv[i])] = quantity.MustParse(kv[i+1])
	}
	return l
}

// podB is a small pod builder in the spirit of upstream's st.MakePod.
type podB struct{ p *api.Pod }

func mkPod(ns, name, uid, node string) podB {
	return podB{&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, UID: uid}, Spec: api.PodSpec{NodeName: node}}}
}

func (b podB) container(req api.ResourceList, ports ...api.ContainerPort) podB {
	b.p.Spec.Containers = append(b.p.Spec.Containers, api.Container{
		Name: "c" + string(rune('0'+len(b.p.Spec.Containers))), Resources: api.ResourceRequirements{Requests: req}, Ports: ports})
	return b
}

func (b podB) init(sidecar bool, req api.ResourceList, ports ...api.ContainerPort) podB {
	c := api.Container{Name: "i" + string(rune('0'+len(b.p.Spec.InitContainers))), Resources: api.ResourceRequirements{Requests: req}, Ports: ports}
	if sidecar {
		always := api.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, c)
	return b
}

func (b podB) overhead(l api.ResourceList) podB { b.p.Spec.Overhead = l; return b }

func (b podB) pvc(claim string) podB {
	b.p.Spec.Volumes = append(b.p.Spec.Volumes, api.Volume{Name: claim, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}})
	return b
}

func (b podB) antiAffinity(key string) podB {
	b.p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{TopologyKey: key,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}}}}}
	return b
}

func (b podB) preferredAffinity(key string) podB {
	b.p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1,
			PodAffinityTerm: api.PodAffinityTerm{TopologyKey: key}}}}}
	return b
}

func (b podB) obj() *api.Pod { return b.p }

func tcp(ip string, port int32) api.ContainerPort {
	return api.ContainerPort{HostIP: ip, HostPort: port, ContainerPort: port, Protocol: api.ProtocolTCP}
}

func mkNode(name string, alloc api.ResourceList, labels map[string]string, images ...api.ContainerImage) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Status: api.NodeStatus{Allocatable: alloc, Images: images}}
}

func img(size int64, names ...string) api.ContainerImage {
	return api.ContainerImage{Names: names, SizeBytes: size}
}

// nodeInfoCmp compares NodeInfos on their exported state and ports,
// ignoring Generation and the order of pods (which removal changes).
var nodeInfoCmp = []cmp.Option{
	cmp.AllowUnexported(NodeInfo{}, HostPortInfo{}, hostPortEntry{}, PodInfo{}),
	// images is derived from ImageStates (see TestPropLookupImageIsMapLookup).
	cmpopts.IgnoreFields(NodeInfo{}, "images"),
	cmpopts.IgnoreFields(NodeInfo{}, "Generation", "cow", "slot"), // slot: the snapshot's numbering (Topology)
	cmpopts.EquateEmpty(),
	cmpopts.SortSlices(func(a, b *PodInfo) bool { return podName(a.Pod) < podName(b.Pod) }),
	cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 }),
	cmp.Comparer(func(a, b affinity.Selector) bool { return a.String() == b.String() }),
}

func mustQ(s string) quantity.Quantity { return quantity.MustParse(s) }

func qEq(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 }
