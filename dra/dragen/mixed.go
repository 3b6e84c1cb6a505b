package dragen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// Mixed is a World with what the other default plugins read beside
// DynamicResources: nodes with zones, allocatable, taints and cordons,
// pods bound to them with requests and labels, and the pod to place,
// which asks for the world's claims (by name, or by template with the
// claim the resourceclaim controller made for it; the first one
// sometimes already allocated for one node) and also has
// requests, tolerations, node affinity and topology spread.
type Mixed struct {
	World
	// Pods are bound to the world's nodes.
	Pods []*api.Pod
	// Pod is the pod to place, in namespace "ns" with uid MixedPodUID.
	Pod *api.Pod
}

// MixedPodUID is the uid of Mixed.Pod, the owner of its generated claims.
const MixedPodUID = "pod-uid"

// Zones are the zones of a Mixed world's nodes.
var Zones = []string{"z1", "z2"}

// TaintKey is the key of the taints a Mixed world's nodes may have.
const TaintKey = "example.com/accelerator"

func mustQ(s string) quantity.Quantity { return quantity.MustParse(s) }

// MixedGen draws a Mixed world. The claims' uids are claim-uid-N and
// the held claims' held-uid-N.
func MixedGen() *rapid.Generator[Mixed] {
	return rapid.Custom(func(t *rapid.T) Mixed {
		m := Mixed{World: WorldGen().Draw(t, "world")}
		if !chance(t, "world-claims", 50) {
			// Claims most nodes with devices can satisfy, so that the
			// other plugins decide among the nodes more often.
			m.Claims = nil
			for c := range rapid.IntRange(1, 2).Draw(t, "simple-claims-n") {
				cl := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("claim-%d", c), Namespace: "ns"}}
				cl.Spec.Devices.Requests = []api.DeviceRequest{{Name: "req-0", Exactly: &api.ExactDeviceRequest{
					DeviceClassName: oneOf(t, "simple-class", "class-any", "class-a", "class-b"),
					AllocationMode:  api.DeviceAllocationModeExactCount, Count: 1}}}
				m.Claims = append(m.Claims, cl)
			}
			// and node-local pools of plain devices on most nodes.
			for _, n := range m.Nodes {
				if chance(t, "no-node-pool", 30) {
					continue
				}
				driver := oneOf(t, "node-pool-driver", Drivers...)
				sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: driver + "-" + n.Name},
					Spec: api.ResourceSliceSpec{Driver: driver, NodeName: ptr(n.Name), Pool: api.ResourcePool{Name: n.Name, Generation: 1, ResourceSliceCount: 1}}}
				for d := range rapid.IntRange(1, 2).Draw(t, "node-pool-devices") {
					sl.Spec.Devices = append(sl.Spec.Devices, api.Device{Name: fmt.Sprintf("gpu-%d", d),
						Attributes: map[api.QualifiedName]api.DeviceAttribute{"model": {StringValue: ptr(oneOf(t, "node-pool-model", "a", "b"))}}})
				}
				m.Slices = append(m.Slices, sl)
			}
		}
		for i, c := range m.Claims {
			c.UID = fmt.Sprintf("claim-uid-%d", i)
		}
		for i, c := range m.Allocated {
			c.UID = fmt.Sprintf("held-uid-%d", i)
		}
		if len(m.Claims) > 0 && len(m.Slices) > 0 && chance(t, "pod-claim-allocated", 15) {
			// The pod's first claim was allocated before, for one node:
			// the others cannot use it.
			var devs []api.DeviceRequestAllocationResult
			for _, sl := range m.Slices {
				for _, d := range sl.Spec.Devices {
					devs = append(devs, api.DeviceRequestAllocationResult{Request: "req-0", Driver: sl.Spec.Driver, Pool: sl.Spec.Pool.Name, Device: d.Name})
				}
			}
			if len(devs) > 0 {
				m.Claims[0].Status.Allocation = &api.AllocationResult{
					Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{oneOf(t, "pod-claim-device", devs...)}},
					NodeSelector: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{
						Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{oneOf(t, "pod-claim-node", m.Nodes...).Name}}}}}},
				}
			}
		}
		for _, n := range m.Nodes {
			n.Labels["kubernetes.io/hostname"] = n.Name
			n.Labels["topology.kubernetes.io/zone"] = oneOf(t, "zone", Zones...)
			n.Status.Allocatable = api.ResourceList{
				api.ResourceCPU:    mustQ(oneOf(t, "cpu", "1", "2", "4")),
				api.ResourceMemory: mustQ(oneOf(t, "memory", "2Gi", "8Gi")),
				api.ResourcePods:   mustQ(oneOf(t, "pods", "2", "10")),
			}
			n.Status.Capacity = n.Status.Allocatable
			if rapid.Bool().Draw(t, "taint") {
				n.Spec.Taints = []api.Taint{{Key: TaintKey, Value: oneOf(t, "taint-value", "a", "b"),
					Effect: oneOf(t, "taint-effect", api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule)}}
			}
			n.Spec.Unschedulable = chance(t, "cordon", 10)
		}
		requests := func(label string) api.ResourceList {
			r := api.ResourceList{}
			if chance(t, label+"-cpu", 70) {
				r[api.ResourceCPU] = mustQ(oneOf(t, label+"-cpu-value", "100m", "500m", "1", "3"))
			}
			if chance(t, label+"-memory", 50) {
				r[api.ResourceMemory] = mustQ(oneOf(t, label+"-memory-value", "128Mi", "1Gi", "6Gi"))
			}
			return r
		}
		for i := range rapid.IntRange(0, 4).Draw(t, "bound") {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("bound-%d", i), Namespace: "ns", UID: fmt.Sprintf("bound-uid-%d", i),
				Labels: map[string]string{"app": oneOf(t, "bound-app", "a", "b")}}}
			p.Spec.NodeName = oneOf(t, "bound-node", m.Nodes...).Name
			p.Spec.Containers = []api.Container{{Name: "c", Image: "i", Resources: api.ResourceRequirements{Requests: requests("bound")}}}
			p.Status.Phase = api.PodRunning
			m.Pods = append(m.Pods, p)
		}
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: MixedPodUID, Labels: map[string]string{"app": "a"}}}
		ctr := api.Container{Name: "c", Image: "i", Resources: api.ResourceRequirements{Requests: requests("pod")}}
		for i, c := range m.Claims {
			entry := fmt.Sprintf("c%d", i)
			pc := api.PodResourceClaim{Name: entry}
			if rapid.Bool().Draw(t, "template") {
				// The claim the resourceclaim controller made from the
				// entry's template: owned by the pod, named in its status.
				c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID,
					Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
				pc.ResourceClaimTemplateName = ptr(fmt.Sprintf("template-%d", i))
				pod.Status.ResourceClaimStatuses = append(pod.Status.ResourceClaimStatuses, api.PodResourceClaimStatus{Name: entry, ResourceClaimName: ptr(c.Name)})
			} else {
				pc.ResourceClaimName = ptr(c.Name)
			}
			pod.Spec.ResourceClaims = append(pod.Spec.ResourceClaims, pc)
			ctr.Resources.Claims = append(ctr.Resources.Claims, api.ContainerResourceClaim{Name: entry})
		}
		pod.Spec.Containers = []api.Container{ctr}
		if rapid.Bool().Draw(t, "tolerate") {
			tol := api.Toleration{Key: TaintKey, Operator: api.TolerationOpExists}
			if chance(t, "tolerate-value", 50) {
				tol.Operator, tol.Value = api.TolerationOpEqual, "a"
			}
			pod.Spec.Tolerations = []api.Toleration{tol}
		}
		switch rapid.IntRange(0, 4).Draw(t, "node-affinity") {
		case 1:
			pod.Spec.NodeSelector = map[string]string{"region": oneOf(t, "selector-region", "r1", "r2")}
		case 2:
			pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{
					Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{oneOf(t, "affinity-zone", Zones...)}}}}}}}}
		case 3:
			pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
				Weight: rapid.Int32Range(1, 100).Draw(t, "preferred-weight"),
				Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{
					Key: "region", Operator: api.NodeSelectorOpIn, Values: []string{oneOf(t, "preferred-region", "r1", "r2")}}}}}}}}
		}
		if rapid.Bool().Draw(t, "spread") {
			pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: oneOf(t, "spread-key", "topology.kubernetes.io/zone", "kubernetes.io/hostname"),
				WhenUnsatisfiable: oneOf(t, "spread-when", api.DoNotSchedule, api.ScheduleAnyway),
				LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
			}}
		}
		m.Pod = pod
		return m
	})
}
