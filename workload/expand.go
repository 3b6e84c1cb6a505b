package workload

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

// expander makes the pods workload controllers would create.
type expander struct {
	objs *Input
	rng  *rand.Rand
	// podByName are the pods read, by namespace/name.
	podByName map[[2]string]*api.Pod
	// pods and replicaSets index the pods and ReplicaSets read by
	// controller, so that claiming costs what a controller may claim.
	podIndex, rsIndex claimIndex
	// rsNames are the ReplicaSets' namespace/name, built when first
	// needed.
	rsNames map[[2]string]bool
	// rsReplicas are the replicas Deployments give their ReplicaSets now,
	// where they change them.
	rsReplicas map[*api.ReplicaSet]int
	// names are the pod names taken by the pods made, by namespace/name;
	// the pods read hold theirs in podByName, not copied here (one map
	// entry a pod read fewer).
	names    map[[2]string]bool
	pods     []*api.Pod
	warnings []Warning
	// replicaSets, revisions and claims are the objects other than pods
	// the controllers create, in creation order.
	replicaSets []*api.ReplicaSet
	revisions   []*api.ControllerRevision
	claims      []*api.PersistentVolumeClaim
	// owners are the workload controllers read, by kind, namespace and
	// name, and by kind and uid, built when first needed.
	owners map[[3]string]bool
	// rsOrphans are the active pods read whose controller is a
	// ReplicaSet not read, by namespace in the order read, built when
	// first needed: each Deployment looks among them only.
	rsOrphans map[string][]*api.Pod
	// claimNames are the claims' namespace/name, read and created, built
	// when first needed.
	claimNames map[[2]string]bool
	// deploymentPods are the pods of Deployments' new ReplicaSets, added
	// after the ReplicaSets' and ReplicationControllers' pods.
	deploymentPods []*api.Pod
	// crByNS are the ControllerRevisions by namespace, built when first
	// needed; crData their data as the controllers hold it (see
	// revisionData).
	crByNS map[string][]*api.ControllerRevision
	crData map[*api.ControllerRevision][]byte
	// now is the time reference of the dump (Input.Now), zero when
	// none is given.
	now time.Time
}

func newExpander(objs *Input, seed uint64) *expander {
	e := &expander{objs: objs, rng: rand.New(rand.NewPCG(seed, 0x6d616e6966657374)),
		podByName: make(map[[2]string]*api.Pod, len(objs.Pods)),
		names:     map[[2]string]bool{}, now: objs.Now}
	e.podIndex, e.rsIndex = newClaimIndex(), newClaimIndex()
	e.rsReplicas = map[*api.ReplicaSet]int{}
	for _, p := range objs.Pods {
		e.podByName[[2]string{p.Namespace, p.Name}] = p
		e.podIndex.add(&p.ObjectMeta, p)
	}
	for _, rs := range objs.ReplicaSets {
		e.rsIndex.add(&rs.ObjectMeta, rs)
	}
	return e
}

// claimIndex holds objects by their controller reference (uid, and kind
// and name in a namespace), and the orphans by namespace, in reading
// order.
type claimIndex struct {
	byUID   map[string][]any
	byName  map[[3]string][]any
	orphans map[string][]any
}

func newClaimIndex() claimIndex {
	return claimIndex{byUID: map[string][]any{}, byName: map[[3]string][]any{}, orphans: map[string][]any{}}
}

func (x claimIndex) add(m *api.ObjectMeta, obj any) {
	ref := controllerOf(m)
	if ref == nil {
		x.orphans[m.Namespace] = append(x.orphans[m.Namespace], obj)
		return
	}
	x.byUID[ref.UID] = append(x.byUID[ref.UID], obj)
	k := [3]string{ref.Kind, m.Namespace, ref.Name}
	x.byName[k] = append(x.byName[k], obj)
}

// candidates are the objects o may claim: those whose controller
// reference may name it (see refersTo), then the orphans of its
// namespace.
func (x claimIndex) candidates(o owner) [][]any {
	own := x.byName[[3]string{o.kind, o.meta.Namespace, o.meta.Name}]
	if o.meta.UID != "" {
		own = x.byUID[o.meta.UID]
	}
	return [][]any{own, x.orphans[o.meta.Namespace]}
}

// MaxExpandedPods is the most pods one workload is expanded to; a
// workload that would create more is cut there, with a warning, so that a
// manifest cannot make Expand build billions of pods.
const MaxExpandedPods = 100000

// capped is n, or MaxExpandedPods with a warning on o when n is more.
func (e *expander) capped(o owner, n int) int {
	if n <= MaxExpandedPods {
		return n
	}
	e.warn(nil, o.kind+" "+o.meta.Namespace+"/"+o.meta.Name, "would create %d pods: expanded to the first %d", n, MaxExpandedPods)
	return MaxExpandedPods
}

func (e *expander) warn(obj any, object, format string, args ...any) {
	e.warnings = append(e.warnings, Warning{Workload: obj, Object: object, Message: fmt.Sprintf(format, args...)})
}

// taken reports whether a pod read or made is named ns/name.
func (e *expander) taken(ns, name string) bool {
	k := [2]string{ns, name}
	return e.podByName[k] != nil || e.names[k]
}

// uniqueName is the name the API server gives a pod created with
// generateName prefix, not yet taken in ns.
func (e *expander) uniqueName(ns, prefix string) string {
	n := GenerateName(e.rng, prefix, func(n string) bool { return e.taken(ns, n) })
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
	p := src.DeepCopy()
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

// owner is a controller claiming objects.
type owner struct {
	kind string
	meta *api.ObjectMeta
}

// controllerOf is the object's controller reference, nil when it has
// none.
func controllerOf(m *api.ObjectMeta) *api.OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// refersTo reports whether a controller reference names o: by uid, as
// the controllers compare it, or, for a controller without a uid (one
// written by hand, not yet through an API server), by kind and name.
func refersTo(ref *api.OwnerReference, o owner) bool {
	if o.meta.UID != "" {
		return ref.UID == o.meta.UID
	}
	return ref.Kind == o.kind && ref.Name == o.meta.Name
}

// claims is the controller ref manager's ClaimObject: whether o counts m
// (a pod, or a ReplicaSet for a Deployment) as its own. An object whose
// controller reference names o is its own while sel matches its labels
// (else o releases it); an orphan whose labels sel matches is adopted,
// unless o or the orphan is being deleted; objects of other controllers
// are not o's. A nil sel (a Job whose selector the API server has not
// generated yet) claims by controller reference alone.
func claims(o owner, sel *affinity.Selector, m *api.ObjectMeta) bool {
	if m.Namespace != o.meta.Namespace {
		return false
	}
	if ref := controllerOf(m); ref != nil {
		return refersTo(ref, o) && (sel == nil || sel.Matches(m.Labels))
	}
	return sel != nil && o.meta.DeletionTimestamp == nil && m.DeletionTimestamp == nil && sel.Matches(m.Labels)
}

// isActive is controller.IsPodActive: not Succeeded, not Failed, not
// being deleted.
func isActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// claimedPods are the pods o claims with sel, those keep accepts.
func (e *expander) claimedPods(o owner, sel *affinity.Selector, keep func(*api.Pod) bool) []*api.Pod {
	var out []*api.Pod
	for _, l := range e.podIndex.candidates(o) {
		for _, obj := range l {
			p := obj.(*api.Pod)
			if keep(p) && claims(o, sel, &p.ObjectMeta) {
				out = append(out, p)
			}
		}
	}
	return out
}

// selector compiles a workload's label selector; a missing or invalid
// one is a warning (the API server would refuse the object) and ok false.
func (e *expander) selector(obj any, object string, ls *api.LabelSelector) (*affinity.Selector, bool) {
	if ls == nil {
		e.warn(obj, object, "spec.selector: Required value: not expanded")
		return nil, false
	}
	sel, err := affinity.CompileLabelSelector(ls)
	if err != nil {
		e.warn(obj, object, "spec.selector: %v: not expanded", err)
		return nil, false
	}
	return &sel, true
}

// replicaSet creates the pods a ReplicaSet (or ReplicationController)
// controller would: want minus the active pods it claims.
func (e *expander) replicaSet(o owner, apiVersion string, sel *affinity.Selector, tpl *api.PodTemplateSpec, want int) {
	if o.meta.DeletionTimestamp != nil {
		return
	}
	have := len(e.claimedPods(o, sel, isActive))
	ref := controllerRef(o.kind, apiVersion, o.meta)
	for range e.capped(o, want-have) {
		e.pods = append(e.pods, newPod(tpl, o.meta.Namespace, e.uniqueName(o.meta.Namespace, o.meta.Name+"-"), ref))
	}
}

// expand returns the pods the controllers of the workloads would create
// now (see Expand), with warnings on what they could not do as
// upstream does.
func (e *expander) expand() ([]*api.Pod, []Warning) {
	o := e.objs
	e.absentOwners()
	// Deployments first: they set their ReplicaSets' replicas (their new
	// ReplicaSets' pods are queued after the ReplicaSets' own).
	for _, d := range o.Deployments {
		e.deployment(d)
	}
	for _, rs := range o.ReplicaSets {
		name := "ReplicaSet " + rs.Namespace + "/" + rs.Name
		want, scaled := e.rsReplicas[rs]
		if !scaled {
			want = replicas(rs.Spec.Replicas)
		}
		if sel, ok := e.selector(rs, name, rs.Spec.Selector); ok {
			e.replicaSet(owner{"ReplicaSet", &rs.ObjectMeta}, "apps/v1", sel, &rs.Spec.Template, want)
		}
	}
	for _, rc := range o.ReplicationControllers {
		if rc.Spec.Template == nil {
			continue
		}
		set := rc.Spec.Selector
		if len(set) == 0 {
			set = rc.Spec.Template.Labels // defaulted from the template
		}
		sel := affinity.SelectorFromSet(set)
		e.replicaSet(owner{"ReplicationController", &rc.ObjectMeta}, "v1", &sel, rc.Spec.Template, replicas(rc.Spec.Replicas))
	}
	e.pods = append(e.pods, e.deploymentPods...)
	for _, ss := range o.StatefulSets {
		e.statefulSet(ss)
	}
	for _, j := range o.Jobs {
		e.job(j)
	}
	for _, ds := range o.DaemonSets {
		e.daemonSet(ds)
	}
	return e.pods, e.warnings
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

// ownerKinds are the controllers of pods, with the resource kubectl gets
// them by.
var ownerKinds = map[string]string{
	"ReplicaSet":            "replicasets",
	"ReplicationController": "replicationcontrollers",
	"StatefulSet":           "statefulsets",
	"DaemonSet":             "daemonsets",
	"Job":                   "jobs",
}

// ownerRead reports whether a controller of kind named name (or with
// uid) in ns is among the objects.
func (e *expander) ownerRead(kind, ns, name, uid string) bool {
	if e.owners == nil {
		e.owners = map[[3]string]bool{}
		add := func(kind string, m *api.ObjectMeta) {
			e.owners[[3]string{kind, m.Namespace, m.Name}] = true
			if m.UID != "" {
				e.owners[[3]string{kind, "uid", string(m.UID)}] = true
			}
		}
		for _, x := range e.objs.ReplicaSets {
			add("ReplicaSet", &x.ObjectMeta)
		}
		for _, x := range e.objs.ReplicationControllers {
			add("ReplicationController", &x.ObjectMeta)
		}
		for _, x := range e.objs.StatefulSets {
			add("StatefulSet", &x.ObjectMeta)
		}
		for _, x := range e.objs.DaemonSets {
			add("DaemonSet", &x.ObjectMeta)
		}
		for _, x := range e.objs.Jobs {
			add("Job", &x.ObjectMeta)
		}
	}
	return e.owners[[3]string{kind, ns, name}] || (uid != "" && e.owners[[3]string{kind, "uid", uid}])
}

// absentOwners warns, once per controller, about the active pods whose
// controller reference names a workload controller that is not among
// the objects (a Deployment dumped without its ReplicaSets, say): that
// controller is not emulated, its pods are taken as they are, and the
// warning names the kind to add to the dump.
func (e *expander) absentOwners() {
	type key struct{ kind, ns, name string }
	count := map[key]int{}
	first := map[key]*api.Pod{}
	var order []key
	for _, p := range e.objs.Pods {
		ref := controllerOf(&p.ObjectMeta)
		if ref == nil || !isActive(p) {
			continue
		}
		if _, ok := ownerKinds[ref.Kind]; !ok || e.ownerRead(ref.Kind, p.Namespace, ref.Name, string(ref.UID)) {
			continue
		}
		k := key{ref.Kind, p.Namespace, ref.Name}
		if count[k] == 0 {
			order = append(order, k)
			first[k] = p
		}
		count[k]++
	}
	for _, k := range order {
		e.warn(first[k], k.kind+" "+k.ns+"/"+k.name, "not among the objects, and %d active pod(s) name it their controller (the first %s): its controller is not emulated and its pods are taken as they are; add it to the input (kubectl get %s)",
			count[k], first[k].Name, ownerKinds[k.kind])
	}
}

// absentReplicaSet is the ReplicaSet, not among the objects, that owns an
// active pod the Deployment's selector matches in its namespace; "" when
// there is none. The Deployment controller would find that ReplicaSet in
// the cluster.
func (e *expander) absentReplicaSet(d *api.Deployment, sel *affinity.Selector) string {
	if e.rsOrphans == nil {
		e.rsOrphans = map[string][]*api.Pod{}
		for _, p := range e.objs.Pods {
			ref := controllerOf(&p.ObjectMeta)
			if ref == nil || ref.Kind != "ReplicaSet" || !isActive(p) || e.ownerRead("ReplicaSet", p.Namespace, ref.Name, string(ref.UID)) {
				continue
			}
			e.rsOrphans[p.Namespace] = append(e.rsOrphans[p.Namespace], p)
		}
	}
	for _, p := range e.rsOrphans[d.Namespace] {
		if sel.Matches(p.Labels) {
			return controllerOf(&p.ObjectMeta).Name
		}
	}
	return ""
}
