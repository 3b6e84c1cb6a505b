package conformance

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// The stream workloads are v1.37.2's scheduler_perf workloads
// (test/integration/scheduler_perf/*/performance-config.yaml and
// templates/) at their 5,000-node size: the node template, the initial
// pods bound where the scheduler puts them (round robin: one per node for
// the anti-affinity workloads, four per node for PreemptionBasic), the
// objects they read, and the template of the measured pods.

// streamWorkload is one scheduler_perf workload, as plain objects.
type streamWorkload struct {
	name string
	// nodes are the cluster's nodes, initPods its bound pods and objects
	// the other objects the plugins read (services, volumes, CSINodes).
	nodes    []*api.Node
	initPods []*api.Pod
	objects  []any
	// measured returns the i-th measured pod of the template (unbound).
	measured func(i int) *api.Pod
	// measurePods is the workload's measurePods at 5,000 nodes.
	measurePods int
	// churnEvery, when set, interleaves one pod of churn (an
	// unschedulable pod, tried once) before every churnEvery-th measured
	// pod, as Unschedulable's churn op creates them alongside the stream.
	churnEvery int
	churn      func(i int) *api.Pod
}

func sbList(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[api.ResourceName(kv[i])] = quantity.MustParse(kv[i+1])
	}
	return l
}

// sbNodes is templates/node-default.yaml n times (4 cpu, 32Gi, 110 pods;
// allocatable defaulted from capacity), named as createNodes names them,
// with label(i) added.
func sbNodes(n int, label func(i int) map[string]string, extra api.ResourceList) []*api.Node {
	nodes := make([]*api.Node, n)
	for i := range n {
		name := fmt.Sprintf("scheduler-perf-%05d", i)
		labels := map[string]string{"kubernetes.io/hostname": name}
		if label != nil {
			for k, v := range label(i) {
				labels[k] = v
			}
		}
		capacity := sbList("pods", "110", "cpu", "4", "memory", "32Gi")
		for k, v := range extra {
			capacity[k] = v
		}
		nodes[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, Labels: labels},
			Status: api.NodeStatus{Capacity: capacity, Allocatable: capacity,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
	}
	return nodes
}

func zone1(int) map[string]string { return map[string]string{"topology.kubernetes.io/zone": "zone1"} }

func moonZones(i int) map[string]string {
	return map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("moon-%d", i%3+1)}
}

// sbPod is templates/pod-default.yaml: a pause container with 100m cpu and
// 500Mi requested and limited, port 80.
func sbPod(name, ns string) *api.Pod {
	res := sbList("cpu", "100m", "memory", "500Mi")
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + ns + "-" + name},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10.2",
			Ports:     []api.ContainerPort{{ContainerPort: 80}},
			Resources: api.ResourceRequirements{Requests: res, Limits: res}}}}}
}

func sbPodTerm(color, key string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": color}},
		TopologyKey: key, Namespaces: []string{"sched-1", "sched-0"}}
}

// bindRoundRobin binds pods to nodes in turn.
func bindRoundRobin(pods []*api.Pod, nodes []*api.Node) []*api.Pod {
	for i, p := range pods {
		p.Spec.NodeName = nodes[i%len(nodes)].Name
	}
	return pods
}

func sbPods(n int, mk func(i int) *api.Pod) []*api.Pod {
	out := make([]*api.Pod, n)
	for i := range out {
		out[i] = mk(i)
	}
	return out
}

// affinityWorkload is one of affinity/performance-config.yaml's workloads:
// initPods of the template in sched-0, the measured ones in sched-1.
func affinityWorkload(name string, nodes []*api.Node, initPods, measurePods int, tmpl func(name, ns string) *api.Pod) streamWorkload {
	init := bindRoundRobin(sbPods(initPods, func(i int) *api.Pod { return tmpl(fmt.Sprintf("init-%05d", i), "sched-0") }), nodes)
	return streamWorkload{name: name, nodes: nodes, initPods: init, measurePods: measurePods,
		measured: func(i int) *api.Pod { return tmpl(fmt.Sprintf("measured-%05d", i), "sched-1") }}
}

func colored(color string, a *api.Affinity) func(name, ns string) *api.Pod {
	return func(name, ns string) *api.Pod {
		p := sbPod(name, ns)
		p.Labels = map[string]string{"color": color}
		p.Spec.Affinity = a
		return p
	}
}

// volumeWorkload is one of volumes/performance-config.yaml's workloads:
// every pod (initial and measured) has its own claim, bound to its own
// volume (CreatePodWithPersistentVolume with bindVolume), made by pv.
func volumeWorkload(name string, nodes []*api.Node, initPods, measurePods int, pv func(name string) api.PersistentVolumeSource, objects []any) streamWorkload {
	withVolume := func(name, ns string, i int) (*api.Pod, []any) {
		p := sbPod(name, ns)
		claim := fmt.Sprintf("pvc-%s-%d", ns, i)
		vol := fmt.Sprintf("%s-vol-%d", ns, i)
		p.Spec.Volumes = []api.Volume{{Name: "vol", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}}
		pvObj := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: vol, UID: "uid-" + vol},
			Spec: api.PersistentVolumeSpec{Capacity: sbList("storage", "1Gi"), PersistentVolumeSource: pv(vol),
				AccessModes:                   []api.PersistentVolumeAccessMode{api.ReadOnlyMany},
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimRetain,
				ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: claim, APIVersion: "v1"}},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeBound}}
		pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: claim, Namespace: ns, UID: "uid-" + claim,
			Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "true"}},
			Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadOnlyMany},
				Resources: api.VolumeResourceRequirements{Requests: sbList("storage", "1Gi")}, VolumeName: vol},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}}
		return p, []any{pvObj, pvc}
	}
	var init []*api.Pod
	for i := range initPods {
		p, objs := withVolume(fmt.Sprintf("init-%05d", i), "init", i)
		init = append(init, p)
		objects = append(objects, objs...)
	}
	bindRoundRobin(init, nodes)
	measured := make([]*api.Pod, measurePods)
	for i := range measured {
		p, objs := withVolume(fmt.Sprintf("measured-%05d", i), "measure", i)
		measured[i] = p
		// The claims and volumes of the measured pods exist from the
		// start: no decision reads another pod's unbound claim.
		objects = append(objects, objs...)
	}
	return streamWorkload{name: name, nodes: nodes, initPods: init, objects: objects, measurePods: measurePods,
		measured: func(i int) *api.Pod { return measured[i%len(measured)] }}
}

// streamWorkloads builds the workloads at n nodes (5,000 in the
// benchmarks; PreemptionBasic has 1,000 nodes at full size, n/5 here),
// with the initial pod counts scaled as n/5000.
func streamWorkloads(n int) []streamWorkload {
	scale := func(c int) int { return max(c*n/5000, 1) }
	var ws []streamWorkload
	// misc: SchedulingBasic 5000Nodes: 1,000 initial and 1,000 measured pods.
	{
		nodes := sbNodes(n, nil, nil)
		init := bindRoundRobin(sbPods(scale(1000), func(i int) *api.Pod { return sbPod(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		ws = append(ws, streamWorkload{name: "SchedulingBasic", nodes: nodes, initPods: init, measurePods: 1000,
			measured: func(i int) *api.Pod { return sbPod(fmt.Sprintf("measured-%05d", i), "measure") }})
	}
	ws = append(ws,
		affinityWorkload("SchedulingPodAntiAffinity", sbNodes(n, nil, nil), scale(1000), 1000,
			colored("green", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{sbPodTerm("green", "kubernetes.io/hostname")}}})),
		affinityWorkload("SchedulingPodAffinity", sbNodes(n, zone1, nil), scale(5000), 1000,
			colored("blue", &api.Affinity{PodAffinity: &api.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{sbPodTerm("blue", "topology.kubernetes.io/zone")}}})),
		affinityWorkload("SchedulingPreferredPodAffinity", sbNodes(n, nil, nil), scale(5000), 1000,
			colored("red", &api.Affinity{PodAffinity: &api.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: sbPodTerm("red", "kubernetes.io/hostname")}}}})),
		affinityWorkload("SchedulingPreferredPodAntiAffinity", sbNodes(n, nil, nil), scale(5000), 1000,
			colored("yellow", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: sbPodTerm("yellow", "kubernetes.io/hostname")}}}})),
	)
	// SchedulingNodeAffinity: nodes in zone1, pods requiring zone1 or zone2.
	{
		nodes := sbNodes(n, zone1, nil)
		tmpl := func(name, ns string) *api.Pod {
			p := sbPod(name, ns)
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{
					Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{"zone1", "zone2"}}}}}}}}
			return p
		}
		init := bindRoundRobin(sbPods(scale(5000), func(i int) *api.Pod { return tmpl(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		ws = append(ws, streamWorkload{name: "SchedulingNodeAffinity", nodes: nodes, initPods: init, measurePods: 1000,
			measured: func(i int) *api.Pod { return tmpl(fmt.Sprintf("measured-%05d", i), "measure") }})
	}
	// topology_spreading: nodes in moon-1..3, 5,000 plain pods, then the
	// spread pods (2,000 measured at 5000Nodes).
	spread := func(name string, when api.UnsatisfiableConstraintAction) streamWorkload {
		nodes := sbNodes(n, moonZones, nil)
		init := bindRoundRobin(sbPods(scale(5000), func(i int) *api.Pod { return sbPod(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		return streamWorkload{name: name, nodes: nodes, initPods: init, measurePods: 2000, measured: func(i int) *api.Pod {
			p := sbPod(fmt.Sprintf("spreading-pod-%05d", i), "measure")
			p.Labels = map[string]string{"color": "blue"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 5, TopologyKey: "topology.kubernetes.io/zone",
				WhenUnsatisfiable: when, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"color": "blue"}}}}
			return p
		}}
	}
	ws = append(ws, spread("TopologySpreading", api.DoNotSchedule), spread("PreferredTopologySpreading", api.ScheduleAnyway))
	// DefaultTopologySpreading: a Service selecting app=scheduler-perf in
	// service-ns; its pods (templates/pod-with-label.yaml, no requests)
	// get the system default constraints.
	{
		nodes := sbNodes(n, moonZones, nil)
		init := bindRoundRobin(sbPods(scale(5000), func(i int) *api.Pod { return sbPod(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "service-0", Namespace: "service-ns", UID: "uid-service-0"},
			Spec: api.ServiceSpec{Selector: map[string]string{"app": "scheduler-perf"}, Ports: []api.ServicePort{{Protocol: "TCP", Port: 80}}}}
		ws = append(ws, streamWorkload{name: "DefaultTopologySpreading", nodes: nodes, initPods: init, objects: []any{svc}, measurePods: 10000,
			measured: func(i int) *api.Pod {
				name := fmt.Sprintf("pod-%05d", i)
				return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "service-ns", UID: "uid-svc-" + name, Labels: map[string]string{"app": "scheduler-perf"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10.1"}}}}
			}})
	}
	// volumes: SchedulingCSIPVs (CSI volumes, 39 attachable per node and a
	// CSINode per node) and SchedulingInTreePVs (AWS EBS volumes, default
	// nodes): 5,000 initial pods, 1,000 measured.
	{
		csiNodes := sbNodes(n, nil, sbList("attachable-volumes-csi-ebs.csi.aws.com", "39"))
		var objs []any
		count := int32(39)
		for _, nd := range csiNodes {
			objs = append(objs, &api.CSINode{ObjectMeta: api.ObjectMeta{Name: nd.Name, UID: "uid-csinode-" + nd.Name, Annotations: map[string]string{"storage.alpha.kubernetes.io/migrated-plugins": ""}},
				Spec: api.CSINodeSpec{Drivers: []api.CSINodeDriver{{Name: "ebs.csi.aws.com", NodeID: nd.Name, Allocatable: &api.VolumeNodeResources{Count: &count}}}}})
		}
		ws = append(ws, volumeWorkload("SchedulingCSIPVs", csiNodes, scale(5000), 1000, func(name string) api.PersistentVolumeSource {
			return api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "ebs.csi.aws.com", VolumeHandle: name}}
		}, objs))
		ws = append(ws, volumeWorkload("SchedulingInTreePVs", sbNodes(n, nil, nil), scale(5000), 1000, func(name string) api.PersistentVolumeSource {
			return api.PersistentVolumeSource{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: name}}
		}, nil))
	}
	// default_preemption: PreemptionBasic 1000Nodes: 4,000 pods of 900m
	// fill the nodes (four each); each measured pod (3 cpu, priority 10)
	// preempts.
	{
		pn := max(n/5, 1)
		nodes := sbNodes(pn, nil, nil)
		zero := int32(0)
		low := func(name, ns string) *api.Pod {
			p := sbPod(name, ns)
			res := sbList("cpu", "900m", "memory", "500Mi")
			p.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: res, Limits: res}
			p.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10.1"
			p.Spec.Priority = &zero
			return p
		}
		init := bindRoundRobin(sbPods(4*pn, func(i int) *api.Pod { return low(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		ten := int32(10)
		ws = append(ws, streamWorkload{name: "PreemptionBasic", nodes: nodes, initPods: init, measurePods: 1000,
			measured: func(i int) *api.Pod {
				p := sbPod(fmt.Sprintf("pod-high-priority-%05d", i), "measure")
				res := sbList("cpu", "3", "memory", "500Mi")
				p.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: res, Limits: res}
				p.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10.1"
				p.Spec.Priority = &ten
				return p
			}})
	}
	// Unschedulable 5kNodes/100Init/1kPods: plain pods, and the churn of
	// high-priority 9-cpu pods no node can hold (one every 200 ms; at
	// upstream's rate, about one per 20 measured pods).
	{
		nodes := sbNodes(n, nil, nil)
		init := bindRoundRobin(sbPods(scale(100), func(i int) *api.Pod { return sbPod(fmt.Sprintf("init-%05d", i), "init") }), nodes)
		ten := int32(10)
		ws = append(ws, streamWorkload{name: "Unschedulable", nodes: nodes, initPods: init, measurePods: 1000, churnEvery: 20,
			measured: func(i int) *api.Pod { return sbPod(fmt.Sprintf("measured-%05d", i), "measure") },
			churn: func(i int) *api.Pod {
				p := sbPod(fmt.Sprintf("pod-h-%05d", i), "churn")
				p.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: sbList("cpu", "9", "memory", "500Mi")}
				p.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10.1"
				p.Spec.Priority = &ten
				return p
			}})
	}
	return ws
}

// streamPods is the stream of a workload: count measured pods, with the
// churn pods interleaved.
func (w streamWorkload) streamPods(count int) []*api.Pod {
	var out []*api.Pod
	for i := range count {
		if w.churnEvery > 0 && i%w.churnEvery == 0 {
			out = append(out, w.churn(i/w.churnEvery))
		}
		out = append(out, w.measured(i))
	}
	return out
}
