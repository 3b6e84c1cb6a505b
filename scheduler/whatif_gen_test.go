package scheduler

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// whatIfWorld is a small random cluster and a pod, for the properties
// of LeaveOneOut and WhyNot: nodes of a few shapes in two zones, some
// tainted, cordoned or holding host ports, with bound pods, and a pod
// with requests, maybe a node selector, tolerations, a host port and
// preferences.
type whatIfWorld struct {
	nodes []*api.Node
	bound []*api.Pod
	pod   *api.Pod
}

func genWhatIfWorld(t *rapid.T) whatIfWorld {
	var w whatIfWorld
	n := rapid.IntRange(2, 7).Draw(t, "nodes")
	for i := range n {
		name := fmt.Sprintf("n%d", i)
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
			"kubernetes.io/hostname":      name,
			"topology.kubernetes.io/zone": rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "zone"),
		}}}
		if rapid.Bool().Draw(t, "disk") {
			node.Labels["disk"] = rapid.SampledFrom([]string{"ssd", "hdd"}).Draw(t, "diskType")
		}
		node.Status.Allocatable = api.ResourceList{
			api.ResourceCPU:    quantity.NewMilliQuantity(int64(rapid.IntRange(1, 8).Draw(t, "cpu"))*1000, quantity.DecimalSI),
			api.ResourceMemory: quantity.NewQuantity(int64(rapid.IntRange(1, 16).Draw(t, "mem"))<<30, quantity.BinarySI),
			api.ResourcePods:   quantity.NewQuantity(int64(rapid.IntRange(1, 10).Draw(t, "pods")), quantity.DecimalSI),
		}
		switch rapid.IntRange(0, 5).Draw(t, "taint") {
		case 0:
			node.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
		case 1:
			node.Spec.Taints = []api.Taint{{Key: "spot", Effect: api.TaintEffectPreferNoSchedule}}
		case 2:
			node.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}, {Key: "maint", Effect: api.TaintEffectNoExecute}}
		}
		if rapid.IntRange(0, 9).Draw(t, "cordon") == 0 {
			node.Spec.Unschedulable = true
		}
		w.nodes = append(w.nodes, node)
		// At most one bound pod holds the host port: a node's ports are
		// a set, so two holders could not both be there.
		portTaken := false
		for j := range rapid.IntRange(0, 3).Draw(t, "bound") {
			p := whatIfPod(fmt.Sprintf("b-%s-%d", name, j), rapid.IntRange(0, 4000).Draw(t, "bcpu"), rapid.IntRange(0, 8).Draw(t, "bmem"))
			p.Spec.NodeName = name
			p.Spec.Priority = ptr(int32(rapid.IntRange(0, 2).Draw(t, "bprio")))
			if rapid.Bool().Draw(t, "bweb") {
				p.Labels = map[string]string{"app": "web"}
			}
			if rapid.IntRange(0, 5).Draw(t, "banti") == 0 {
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: "topology.kubernetes.io/zone"}}}}
			}
			if !portTaken && rapid.IntRange(0, 4).Draw(t, "bport") == 0 {
				portTaken = true
				p.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 8080, ContainerPort: 8080, Protocol: api.ProtocolTCP}}
			}
			w.bound = append(w.bound, p)
		}
	}
	p := whatIfPod("p", rapid.IntRange(0, 6000).Draw(t, "cpu"), rapid.IntRange(0, 12).Draw(t, "mem"))
	p.Spec.Priority = ptr(int32(rapid.IntRange(0, 3).Draw(t, "prio")))
	p.Labels = map[string]string{"app": "web"}
	if rapid.IntRange(0, 2).Draw(t, "spread") == 0 {
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
			MaxSkew: int32(rapid.IntRange(1, 2).Draw(t, "maxSkew")), TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		}}
	}
	if rapid.Bool().Draw(t, "selector") {
		p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	}
	if rapid.Bool().Draw(t, "tolerate") {
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	}
	if rapid.IntRange(0, 3).Draw(t, "port") == 0 {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 8080, ContainerPort: 80, Protocol: api.ProtocolTCP}}
	}
	if rapid.IntRange(0, 5).Draw(t, "anti") == 0 {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: "kubernetes.io/hostname"}}}}
	}
	if rapid.Bool().Draw(t, "prefer") {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &api.Affinity{}
		}
		p.Spec.Affinity.NodeAffinity = &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
			Weight:     int32(rapid.IntRange(1, 100).Draw(t, "weight")),
			Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{"b"}}}},
		}}}
	}
	w.pod = p
	return w
}

func whatIfPod(name string, milliCPU, gib int) *api.Pod {
	p := makePod(name)
	p.Spec.Containers = []api.Container{{Name: "c", Image: "img", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		api.ResourceCPU:    quantity.NewMilliQuantity(int64(milliCPU), quantity.DecimalSI),
		api.ResourceMemory: quantity.NewQuantity(int64(gib)<<30, quantity.BinarySI),
	}}}}
	return p
}

// scheduler builds a scheduler over the world with opts.
func (w whatIfWorld) scheduler(t interface {
	Helper()
	Fatal(...any)
}, opts ...Option) *Scheduler {
	t.Helper()
	snap, err := cluster.NewSnapshot(w.nodes, w.bound)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
