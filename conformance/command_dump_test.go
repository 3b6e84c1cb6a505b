package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/schedkit/schedkit/api"
)

// The command benchmark's dump: what `kubectl get
// nodes,pods,deployments,replicasets,pv,pvc -A -o json` prints for a
// realistic cluster. 2,000 nodes in 3 zones (two instance types, one in
// ten tainted for batch), 200 Deployments (one ReplicaSet each) whose
// 40,000 pods are bound at random, and 500 pending pods: new replicas of
// 20 of the Deployments, whose templates are 20 shapes (anti-affinity,
// affinity, spread, selectors, tolerations, a claim, host ports, init
// containers). The pending pods come interleaved (shape i%20 for the i-th)
// or in bursts of 5 (shape i/5%20).

// dumpObjects is a generated dump as objects.
type dumpObjects struct {
	nodes   []*api.Node
	bound   []*api.Pod
	pending []*api.Pod
	// objects are the Deployments, ReplicaSets, volumes and claims.
	objects []any
}

// upstreamObjects are the objects upstream's scheduler reads (it does
// not read Deployments).
func (d *dumpObjects) upstreamObjects() []any {
	var out []any
	for _, o := range d.objects {
		if _, ok := o.(*api.Deployment); !ok {
			out = append(out, o)
		}
	}
	return out
}

const dumpShapes = 20

// dumpShape applies shape k to a pod spec of app.
func dumpShape(k int, app string, p *api.PodSpec, labels map[string]string) {
	own := &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	other := func(a string) *api.LabelSelector { return &api.LabelSelector{MatchLabels: map[string]string{"app": a}} }
	host, zone := "kubernetes.io/hostname", "topology.kubernetes.io/zone"
	spread := func(key string, skew int32, when api.UnsatisfiableConstraintAction) api.TopologySpreadConstraint {
		return api.TopologySpreadConstraint{MaxSkew: skew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: own}
	}
	switch k {
	case 1:
		p.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: own, TopologyKey: host}}}}
	case 2:
		p.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: own, TopologyKey: host}}}}}
	case 3:
		p.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: other("app-50"), TopologyKey: zone, NamespaceSelector: &api.LabelSelector{}}}}}
	case 4:
		p.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 50, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: other("app-51"), TopologyKey: host, NamespaceSelector: &api.LabelSelector{}}}}}}
	case 5:
		p.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(zone, 1, api.DoNotSchedule)}
	case 6:
		p.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(host, 1, api.ScheduleAnyway)}
	case 7:
		p.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(zone, 2, api.DoNotSchedule), spread(host, 1, api.ScheduleAnyway)}
	case 8:
		p.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(zone, 3, api.DoNotSchedule)}
		p.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: own, TopologyKey: host}}}}
	case 9:
		p.NodeSelector = map[string]string{"node.kubernetes.io/instance-type": "c6i.4xlarge"}
	case 10:
		p.NodeSelector = map[string]string{"pool": "batch"}
		p.Tolerations = append(p.Tolerations, api.Toleration{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "batch", Effect: api.TaintEffectNoSchedule})
	case 11:
		p.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: zone, Operator: api.NodeSelectorOpIn, Values: []string{"zone-a", "zone-b"}}}}}}}}
	case 12:
		p.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 10,
			Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "node.kubernetes.io/instance-type", Operator: api.NodeSelectorOpIn, Values: []string{"m6i.4xlarge"}}}}}}}}
	case 13:
		p.Volumes = []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "shared-data"}}}
	case 14:
		p.Containers[0].Ports = append(p.Containers[0].Ports, api.ContainerPort{ContainerPort: 9100, HostPort: 9100, Protocol: "TCP"})
	case 15:
		p.Containers[0].Resources = api.ResourceRequirements{Requests: sbList("cpu", "2", "memory", "4Gi"), Limits: sbList("memory", "4Gi")}
	case 16:
		c := spread(zone, 1, api.DoNotSchedule)
		c.MatchLabelKeys = []string{"pod-template-hash"}
		p.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
	case 17:
		p.NodeSelector = map[string]string{"node.kubernetes.io/instance-type": "m6i.4xlarge"}
		p.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 30, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: other("app-60"), TopologyKey: zone, NamespaceSelector: &api.LabelSelector{}}}}}}
	case 18:
		always := api.ContainerRestartPolicyAlways
		p.InitContainers = []api.Container{
			{Name: "migrate", Image: "shop/migrate:1.0", Resources: api.ResourceRequirements{Requests: sbList("cpu", "1", "memory", "512Mi")}},
			{Name: "proxy", Image: "shop/proxy:1.0", RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: sbList("cpu", "100m", "memory", "64Mi")}},
		}
	case 19:
		p.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: other("app-70"), TopologyKey: host}}}}
	}
}

// genDump generates the dump: nodes nodes, bound pods and pending pods
// (in bursts of burst pods of one shape; 1 is interleaved), the same for
// a seed.
func genDump(nodes, bound, pending, burst int, seed uint64) *dumpObjects {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := &dumpObjects{}
	zones := []string{"zone-a", "zone-b", "zone-c"}
	created := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var tainted, untainted []string
	for i := range nodes {
		name := fmt.Sprintf("node-%04d", i)
		it := "m6i.4xlarge"
		if i%4 == 0 {
			it = "c6i.4xlarge"
		}
		labels := map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
			"topology.kubernetes.io/zone": zones[i%3], "topology.kubernetes.io/region": "region-1", "node.kubernetes.io/instance-type": it}
		n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: api.ObjectMeta{Name: name, UID: fmt.Sprintf("uid-node-%d", i), Labels: labels, CreationTimestamp: created},
			Status: api.NodeStatus{Capacity: sbList("cpu", "16", "memory", "64Gi", "pods", "110", "ephemeral-storage", "200Gi"),
				Allocatable: sbList("cpu", "15890m", "memory", "63000Mi", "pods", "110", "ephemeral-storage", "180Gi"),
				Conditions:  []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
				Images: []api.ContainerImage{{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 750000},
					{Names: []string{fmt.Sprintf("shop/app-%d:1.0", i%20)}, SizeBytes: 150000000}}}}
		if i%10 == 9 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "batch", Effect: api.TaintEffectNoSchedule}}
			labels["pool"] = "batch"
			tainted = append(tainted, name)
		} else {
			untainted = append(untainted, name)
		}
		d.nodes = append(d.nodes, n)
	}
	const apps = 200
	yes := true
	template := func(k int) api.PodTemplateSpec {
		app := fmt.Sprintf("app-%d", k)
		cpu := []string{"100m", "250m", "500m"}[k%3]
		mem := []string{"128Mi", "256Mi", "512Mi", "1Gi"}[k%4]
		t := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": app}},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "main", Image: fmt.Sprintf("shop/%s:1.0", app),
				Ports:     []api.ContainerPort{{ContainerPort: 8080, Protocol: "TCP"}},
				Resources: api.ResourceRequirements{Requests: sbList("cpu", cpu, "memory", mem), Limits: sbList("memory", mem)}}},
				Tolerations: []api.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}}}}
		if k < dumpShapes {
			dumpShape(k, app, &t.Spec, t.Labels)
		}
		return t
	}
	counts := make([]int, apps)
	for i := range bound {
		counts[i%apps]++
	}
	pendingOf := make([]int, dumpShapes)
	for i := range pending {
		pendingOf[shapeOf(i, burst)]++
	}
	rsOf := make([]*api.ReplicaSet, apps)
	for k := range apps {
		app := fmt.Sprintf("app-%d", k)
		ns := fmt.Sprintf("team-%d", k%30)
		hash := fmt.Sprintf("%08x", uint32(k*2654435761))[:8]
		replicas := int32(counts[k])
		if k < dumpShapes {
			replicas += int32(pendingOf[k])
		}
		t := template(k)
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
		dep := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: app, Namespace: ns, UID: "uid-deploy-" + app, CreationTimestamp: created, Generation: 1},
			Spec:       api.DeploymentSpec{Replicas: &replicas, Selector: sel, Template: t},
			Status:     api.DeploymentStatus{ObservedGeneration: 1, Replicas: replicas, UpdatedReplicas: replicas}}
		rst := t
		rst.Labels = map[string]string{"app": app, "pod-template-hash": hash}
		rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: api.ObjectMeta{Name: app + "-" + hash, Namespace: ns, UID: "uid-rs-" + app, CreationTimestamp: created, Generation: 1,
				Labels:          map[string]string{"app": app, "pod-template-hash": hash},
				Annotations:     map[string]string{"deployment.kubernetes.io/revision": "1"},
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: app, UID: dep.UID, Controller: &yes}}},
			Spec:   api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: rst.Labels}, Template: rst},
			Status: api.ReplicaSetStatus{Replicas: replicas, ObservedGeneration: 1}}
		rsOf[k] = rs
		d.objects = append(d.objects, dep, rs)
	}
	// Shape 13's claim: one ReadWriteMany volume of zone-a.
	{
		ns := fmt.Sprintf("team-%d", 13%30)
		d.objects = append(d.objects,
			&api.PersistentVolume{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
				ObjectMeta: api.ObjectMeta{Name: "pv-shared-data", UID: "uid-pv-shared-data", CreationTimestamp: created},
				Spec: api.PersistentVolumeSpec{Capacity: sbList("storage", "100Gi"),
					PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "efs.csi.aws.com", VolumeHandle: "fs-1"}},
					AccessModes:            []api.PersistentVolumeAccessMode{api.ReadWriteMany},
					ClaimRef:               &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: "shared-data", UID: "uid-pvc-shared-data", APIVersion: "v1"},
					NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
						MatchExpressions: []api.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{"zone-a"}}}}}}}},
				Status: api.PersistentVolumeStatus{Phase: api.VolumeBound}},
			&api.PersistentVolumeClaim{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
				ObjectMeta: api.ObjectMeta{Name: "shared-data", Namespace: ns, UID: "uid-pvc-shared-data", CreationTimestamp: created,
					Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "yes"}},
				Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteMany},
					Resources: api.VolumeResourceRequirements{Requests: sbList("storage", "10Gi")}, VolumeName: "pv-shared-data"},
				Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}})
	}
	newPod := func(k, i int, t time.Time) *api.Pod {
		rs := rsOf[k]
		name := fmt.Sprintf("%s-%05x", rs.Name, i)
		tmpl := rs.Spec.Template
		spec := tmpl.Spec
		spec.Containers = append([]api.Container(nil), spec.Containers...)
		labels := map[string]string{}
		for k, v := range tmpl.Labels {
			labels[k] = v
		}
		return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: rs.Namespace, UID: fmt.Sprintf("uid-pod-%d-%d", k, i), Labels: labels,
				CreationTimestamp: api.NewTime(t),
				OwnerReferences:   []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}},
			Spec: spec}
	}
	for i := range bound {
		k := i % apps
		p := newPod(k, i, created.Time)
		// Bound pods sit where their selectors and tolerations allow:
		// shape 10's on the batch nodes, the others elsewhere.
		if k == 10 {
			p.Spec.NodeName = tainted[rng.IntN(len(tainted))]
		} else {
			p.Spec.NodeName = untainted[rng.IntN(len(untainted))]
		}
		p.Status = api.PodStatus{Phase: api.PodRunning}
		d.bound = append(d.bound, p)
	}
	for i := range pending {
		p := newPod(shapeOf(i, burst), bound+i, created.Add(time.Hour+time.Duration(i)*time.Second))
		p.Status = api.PodStatus{Phase: api.PodPending}
		d.pending = append(d.pending, p)
	}
	return d
}

func shapeOf(i, burst int) int { return i / burst % dumpShapes }

// writeDump writes the dump as one JSON List.
func writeDump(path string, d *dumpObjects) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	items := make([]any, 0, len(d.nodes)+len(d.bound)+len(d.pending)+len(d.objects))
	for _, n := range d.nodes {
		items = append(items, n)
	}
	items = append(items, d.objects...)
	for _, p := range d.bound {
		items = append(items, p)
	}
	for _, p := range d.pending {
		items = append(items, p)
	}
	if _, err := w.WriteString(`{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[` + "\n"); err != nil {
		f.Close()
		return err
	}
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			f.Close()
			return err
		}
		if i > 0 {
			w.WriteString(",\n")
		}
		w.Write(b)
	}
	w.WriteString("\n]}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
