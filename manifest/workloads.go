package manifest

import (
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"strconv"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/taints"
)

// nameAlphabet is the alphabet of the API server's generated name
// suffixes (apimachinery's rand.String): no vowels, no 0, 1 or 3.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// expander makes the pods workload controllers would create.
type expander struct {
	objs *Objects
	rng  *rand.Rand
	// owned counts the non-terminal pods each controller owns, by
	// kind/namespace/name of the controller owner reference.
	owned map[objectKey]int
	// ownedOnNode is the set of nodes a DaemonSet's pods run on.
	ownedOnNode map[objectKey]map[string]bool
	// names are the pod names taken, by namespace/name.
	names map[[2]string]bool
	pods  []*api.Pod
}

func newExpander(objs *Objects, seed uint64) *expander {
	e := &expander{objs: objs, rng: rand.New(rand.NewPCG(seed, 0x6d616e6966657374)), owned: map[objectKey]int{},
		ownedOnNode: map[objectKey]map[string]bool{}, names: map[[2]string]bool{}}
	for _, p := range objs.Pods {
		e.names[[2]string{p.Namespace, p.Name}] = true
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		for _, o := range p.OwnerReferences {
			if o.Controller != nil && *o.Controller {
				k := objectKey{kind: o.Kind, namespace: p.Namespace, name: o.Name}
				e.owned[k]++
				if p.Spec.NodeName != "" {
					if e.ownedOnNode[k] == nil {
						e.ownedOnNode[k] = map[string]bool{}
					}
					e.ownedOnNode[k][p.Spec.NodeName] = true
				}
			}
		}
	}
	return e
}

// uniqueName is the name the API server gives a pod created with
// generateName prefix, not yet taken in ns.
func (e *expander) uniqueName(ns, prefix string) string {
	n := generatedName(e.rng, prefix, func(n string) bool { return e.names[[2]string{ns, n}] })
	e.names[[2]string{ns, n}] = true
	return n
}

func controllerRef(kind, apiVersion string, meta *api.ObjectMeta) api.OwnerReference {
	t := true
	return api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: meta.Name, UID: meta.UID, Controller: &t, BlockOwnerDeletion: &t}
}

// newPod is a pod from a template, owned by ref.
func newPod(tpl *api.PodTemplateSpec, ns, name string, ref api.OwnerReference) *api.Pod {
	src := &api.Pod{ObjectMeta: tpl.ObjectMeta, Spec: tpl.Spec}
	p := resource.DeepCopyPod(src)
	p.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "Pod"}
	p.Name, p.GenerateName, p.Namespace = name, "", ns
	p.UID, p.ResourceVersion, p.CreationTimestamp = "", "", api.Time{}
	p.OwnerReferences = []api.OwnerReference{ref}
	p.Spec.NodeName = ""
	return p
}

func replicas(r *int32) int {
	if r == nil {
		return 1
	}
	return int(*r)
}

// templateHash stands for the Deployment controller's pod-template-hash:
// a 32-bit FNV-1a hash of the template, written with the name alphabet.
// Upstream hashes a Go-specific dump of its own structs, which schedkit
// cannot reproduce; the hash here is stable for a template's JSON.
func templateHash(tpl *api.PodTemplateSpec) string {
	h := fnv.New32a()
	b, _ := json.Marshal(tpl)
	h.Write(b)
	v := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(v))
	for i := range v {
		out[i] = nameAlphabet[(int(v[i])*7+i)%len(nameAlphabet)]
	}
	return string(out)
}

func (e *expander) replicaSet(ns, rsName string, tpl *api.PodTemplateSpec, want int, ref api.OwnerReference) {
	have := e.owned[objectKey{kind: ref.Kind, namespace: ns, name: rsName}]
	for range want - have {
		e.pods = append(e.pods, newPod(tpl, ns, e.uniqueName(ns, rsName+"-"), ref))
	}
}

// expand returns the pods the controllers of the workloads would create
// now: ReplicaSets and ReplicationControllers their missing replicas,
// Deployments without a ReplicaSet of their own a new ReplicaSet's,
// StatefulSets their missing ordinals, Jobs their missing active pods,
// DaemonSets one pod per eligible node that has none.
func (e *expander) expand() []*api.Pod {
	o := e.objs
	for _, rs := range o.ReplicaSets {
		e.replicaSet(rs.Namespace, rs.Name, &rs.Spec.Template, replicas(rs.Spec.Replicas), controllerRef("ReplicaSet", "apps/v1", &rs.ObjectMeta))
	}
	for _, rc := range o.ReplicationControllers {
		if rc.Spec.Template != nil {
			e.replicaSet(rc.Namespace, rc.Name, rc.Spec.Template, replicas(rc.Spec.Replicas), controllerRef("ReplicationController", "v1", &rc.ObjectMeta))
		}
	}
	for _, d := range o.Deployments {
		if e.ownsReplicaSet(d) {
			continue // its ReplicaSets stand for it
		}
		hash := templateHash(&d.Spec.Template)
		tpl := d.Spec.Template
		tpl.Labels = withLabel(tpl.Labels, "pod-template-hash", hash)
		rsMeta := api.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace}
		e.replicaSet(d.Namespace, rsMeta.Name, &tpl, replicas(d.Spec.Replicas), controllerRef("ReplicaSet", "apps/v1", &rsMeta))
	}
	for _, ss := range o.StatefulSets {
		start := 0
		if ss.Spec.Ordinals != nil {
			start = int(ss.Spec.Ordinals.Start)
		}
		ref := controllerRef("StatefulSet", "apps/v1", &ss.ObjectMeta)
		for i := start; i < start+replicas(ss.Spec.Replicas); i++ {
			name := ss.Name + "-" + strconv.Itoa(i)
			if e.names[[2]string{ss.Namespace, name}] {
				continue
			}
			e.names[[2]string{ss.Namespace, name}] = true
			p := newPod(&ss.Spec.Template, ss.Namespace, name, ref)
			p.Labels = withLabel(p.Labels, "statefulset.kubernetes.io/pod-name", name)
			p.Labels = withLabel(p.Labels, "apps.kubernetes.io/pod-index", strconv.Itoa(i))
			for _, vct := range ss.Spec.VolumeClaimTemplates {
				claim := vct.Name + "-" + name
				vol := api.Volume{Name: vct.Name}
				vol.PersistentVolumeClaim = &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}
				replaced := false
				for j := range p.Spec.Volumes {
					if p.Spec.Volumes[j].Name == vct.Name {
						p.Spec.Volumes[j], replaced = vol, true
					}
				}
				if !replaced {
					p.Spec.Volumes = append(p.Spec.Volumes, vol)
				}
			}
			e.pods = append(e.pods, p)
		}
	}
	for _, j := range o.Jobs {
		parallel := replicas(j.Spec.Parallelism)
		if c := j.Spec.Completions; c != nil && int(*c) < parallel {
			parallel = int(*c)
		}
		ref := controllerRef("Job", "batch/v1", &j.ObjectMeta)
		have := e.owned[objectKey{kind: "Job", namespace: j.Namespace, name: j.Name}]
		indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion
		for i := have; i < parallel; i++ {
			prefix := j.Name + "-"
			if indexed {
				prefix += strconv.Itoa(i) + "-"
			}
			p := newPod(&j.Spec.Template, j.Namespace, e.uniqueName(j.Namespace, prefix), ref)
			p.Labels = withLabel(p.Labels, "batch.kubernetes.io/job-name", j.Name)
			p.Labels = withLabel(p.Labels, "job-name", j.Name)
			if indexed {
				p.Labels = withLabel(p.Labels, "batch.kubernetes.io/job-completion-index", strconv.Itoa(i))
				p.Annotations = withLabel(p.Annotations, "batch.kubernetes.io/job-completion-index", strconv.Itoa(i))
			}
			e.pods = append(e.pods, p)
		}
	}
	for _, ds := range o.DaemonSets {
		ref := controllerRef("DaemonSet", "apps/v1", &ds.ObjectMeta)
		on := e.ownedOnNode[objectKey{kind: "DaemonSet", namespace: ds.Namespace, name: ds.Name}]
		for _, n := range o.Nodes {
			if on[n.Name] {
				continue
			}
			p := newPod(&ds.Spec.Template, ds.Namespace, "", ref)
			addDaemonTolerations(p)
			if !daemonFits(p, n) {
				continue
			}
			p.Name = e.uniqueName(ds.Namespace, ds.Name+"-")
			setNodeNameAffinity(p, n.Name)
			e.pods = append(e.pods, p)
		}
	}
	return e.pods
}

func (e *expander) ownsReplicaSet(d *api.Deployment) bool {
	for _, rs := range e.objs.ReplicaSets {
		if rs.Namespace != d.Namespace {
			continue
		}
		for _, o := range rs.OwnerReferences {
			if o.Kind == "Deployment" && o.Name == d.Name && o.Controller != nil && *o.Controller {
				return true
			}
		}
	}
	return false
}

func withLabel(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// addDaemonTolerations adds the tolerations the DaemonSet controller gives
// every daemon pod (k8s.io/kubernetes pkg/controller/daemon/util
// AddOrUpdateDaemonPodTolerations), when the pod lacks them.
func addDaemonTolerations(p *api.Pod) {
	add := func(key string, effect api.TaintEffect) {
		for _, t := range p.Spec.Tolerations {
			if t.Key == key && t.Effect == effect && t.Operator == api.TolerationOpExists {
				return
			}
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect})
	}
	add("node.kubernetes.io/not-ready", api.TaintEffectNoExecute)
	add("node.kubernetes.io/unreachable", api.TaintEffectNoExecute)
	add("node.kubernetes.io/disk-pressure", api.TaintEffectNoSchedule)
	add("node.kubernetes.io/memory-pressure", api.TaintEffectNoSchedule)
	add("node.kubernetes.io/pid-pressure", api.TaintEffectNoSchedule)
	add("node.kubernetes.io/unschedulable", api.TaintEffectNoSchedule)
	if p.Spec.HostNetwork {
		add("node.kubernetes.io/network-unavailable", api.TaintEffectNoSchedule)
	}
}

// daemonFits is the DaemonSet controller's predicate: the node matches the
// pod's node selector and required node affinity, and the pod tolerates
// the node's NoSchedule and NoExecute taints.
func daemonFits(p *api.Pod, n *api.Node) bool {
	ok, err := affinity.GetRequiredNodeAffinity(p).Match(n)
	if err != nil || !ok {
		return false
	}
	_, untolerated := taints.FindUntolerated(n.Spec.Taints, p.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute)
	return !untolerated
}

// setNodeNameAffinity binds a daemon pod to its node as the DaemonSet
// controller does (ReplaceDaemonSetPodNodeNameNodeAffinity): the required
// node affinity becomes the single term matchFields metadata.name In
// [node], replacing the template's terms (the controller has already
// checked them against the node).
func setNodeNameAffinity(p *api.Pod, node string) {
	req := api.NodeSelectorRequirement{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{node}}
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &api.Affinity{}
	}
	if p.Spec.Affinity.NodeAffinity == nil {
		p.Spec.Affinity.NodeAffinity = &api.NodeAffinity{}
	}
	p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{req}}}}
}
