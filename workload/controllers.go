package workload

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload/internal/podhash"
)

// podTemplateHashLabel is the label the Deployment controller puts on a
// ReplicaSet's template and pods (apps/v1 DefaultDeploymentUniqueLabelKey).
const podTemplateHashLabel = "pod-template-hash"

// maxCollisions bounds the collisionCount the expander tries when
// ReplicaSet names collide.
const maxCollisions = 100

// deployment is the Deployment controller's sync as far as it creates
// pods now: the ReplicaSets the Deployment claims (by controller
// reference uid, orphans adopted by selector); if one has the
// Deployment's template (EqualIgnoreHash, the oldest first), it stands
// for the Deployment (it is expanded as a ReplicaSet); else, unless the
// Deployment is paused, a new ReplicaSet <name>-<pod-template-hash> with
// the replicas NewRSNewReplicas gives it (all for a first rollout; up to
// maxSurge above the old ReplicaSets' replicas for a RollingUpdate;
// none while a Recreate waits for old replicas to go).
func (e *expander) deployment(d *api.Deployment) {
	object := "Deployment " + d.Namespace + "/" + d.Name
	if d.DeletionTimestamp != nil {
		return
	}
	sel, ok := e.selector(d, object, d.Spec.Selector)
	if !ok {
		return
	}
	if rs := e.absentReplicaSet(d, sel); rs != "" {
		e.warn(d, object, "its pods are owned by ReplicaSet %s/%s, which is not among the objects: the Deployment is not expanded (no pods are created for it) and its pods are taken as they are; add its ReplicaSets to the input (kubectl get replicasets)", d.Namespace, rs)
		return
	}
	o := owner{"Deployment", &d.ObjectMeta}
	var rsList []*api.ReplicaSet
	for _, l := range e.rsIndex.candidates(o) {
		for _, obj := range l {
			if rs := obj.(*api.ReplicaSet); claims(o, sel, &rs.ObjectMeta) {
				rsList = append(rsList, rs)
			}
		}
	}
	// FindNewReplicaSet looks at the oldest first.
	sort.SliceStable(rsList, func(i, j int) bool {
		a, b := rsList[i].CreationTimestamp.Time, rsList[j].CreationTimestamp.Time
		if a.Equal(b) {
			return rsList[i].Name < rsList[j].Name
		}
		return a.Before(b)
	})
	dTpl := e.templateJSON(d, &d.ObjectMeta, &d.Spec.Template)
	var newRS *api.ReplicaSet
	var oldRSs []*api.ReplicaSet
	for _, rs := range rsList {
		if newRS != nil {
			oldRSs = append(oldRSs, rs)
			continue
		}
		same, why := e.equalIgnoreHash(dTpl, e.templateJSON(rs, &rs.ObjectMeta, &rs.Spec.Template), &d.Spec.Template, &rs.Spec.Template)
		if why != "" {
			e.warn(d, object, "ReplicaSet %s compared with the template by schedkit's fields only: %s", rs.Name, why)
		}
		if same {
			newRS = rs
		} else {
			oldRSs = append(oldRSs, rs)
		}
	}
	want := replicas(d.Spec.Replicas)
	if d.Spec.Paused || isScalingEvent(want, rsList) {
		// sync: scale, no rollout.
		e.scale(d, object, want, newRS, oldRSs)
		return
	}
	all := 0
	for _, rs := range rsList {
		all += replicas(rs.Spec.Replicas)
	}
	recreate := d.Spec.Strategy.Type == "Recreate"
	if recreate {
		for _, rs := range oldRSs {
			if replicas(rs.Spec.Replicas) > 0 || len(e.claimedPods(owner{"ReplicaSet", &rs.ObjectMeta}, nil, isActive)) > 0 {
				return // old replicas and their pods go first
			}
		}
	}
	surge := 0
	if !recreate {
		var err error
		if surge, err = maxSurge(d.Spec.Strategy.RollingUpdate, want); err != nil {
			e.warn(d, object, "spec.strategy.rollingUpdate.maxSurge: %v: not expanded", err)
			return
		}
	}
	if newRS != nil {
		// reconcileNewReplicaSet (scaleUpNewReplicaSetForRecreate).
		have := replicas(newRS.Spec.Replicas)
		if have >= want {
			e.rsReplicas[newRS] = want
		} else {
			e.rsReplicas[newRS] = newRSNewReplicas(recreate, want, surge, all, have)
		}
		return
	}
	n := newRSNewReplicas(recreate, want, surge, all, 0)
	cc := d.Status.CollisionCount
	var hash, rsName string
	_, hashErr := podhash.Hash(dTpl, cc)
	for range maxCollisions {
		h, err := podhash.Hash(dTpl, cc)
		if err != nil {
			h = fallbackHash(&d.Spec.Template, cc)
		}
		hash, rsName = h, d.Name+"-"+h
		if !e.replicaSetNamed(d.Namespace, rsName) {
			break
		}
		// The name is another ReplicaSet's: the controller bumps
		// status.collisionCount and tries again.
		next := int32(0)
		if cc != nil {
			next = *cc + 1
		} else {
			next = 1
		}
		cc = &next
	}
	if hashErr != nil {
		e.warn(d, object, "pod-template-hash %s is not the Deployment controller's: %v", hash, hashErr)
	}
	tpl := d.Spec.Template
	tpl.Labels = withLabel(tpl.Labels, podTemplateHashLabel, hash)
	rs := e.newReplicaSet(d, rsName, hash, tpl, n, want, surge, rsList)
	ref := controllerRef("ReplicaSet", "apps/v1", &rs.ObjectMeta)
	for range e.capped(o, n) {
		e.deploymentPods = append(e.deploymentPods, newPod(&tpl, d.Namespace, e.uniqueName(d.Namespace, rsName+"-"), ref))
	}
}

// Annotations the Deployment controller writes on its ReplicaSets.
const (
	// desiredReplicasAnnotation records, on each ReplicaSet, the
	// replicas the Deployment had.
	desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// maxReplicasAnnotation records the replicas plus maxSurge.
	maxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// revisionAnnotation numbers the Deployment's rollouts.
	revisionAnnotation = "deployment.kubernetes.io/revision"
)

// notCopiedAnnotations are the Deployment annotations the controller does
// not copy onto its ReplicaSets (skipCopyAnnotation).
var notCopiedAnnotations = [...]string{
	"kubectl.kubernetes.io/last-applied-configuration",
	revisionAnnotation,
	"deployment.kubernetes.io/revision-history",
	desiredReplicasAnnotation,
	maxReplicasAnnotation,
	"deprecated.deployment.rollback.to",
}

// newReplicaSet is the ReplicaSet the Deployment controller's
// getNewReplicaSet creates: named rsName, owned by d, labelled as its
// template (tpl, which carries the pod-template-hash), its selector d's
// plus the hash label, n replicas, d's minReadySeconds, and the
// annotations SetNewReplicaSetAnnotations writes: d's own but those the
// controller skips, the revision after the highest of rsList, and the
// desired and max replicas. It is recorded among the created objects.
func (e *expander) newReplicaSet(d *api.Deployment, rsName, hash string, tpl api.PodTemplateSpec, n, want, surge int, rsList []*api.ReplicaSet) *api.ReplicaSet {
	sel := *d.Spec.Selector
	sel.MatchLabels = withLabel(d.Spec.Selector.MatchLabels, podTemplateHashLabel, hash)
	sel.MatchExpressions = append([]api.LabelSelectorRequirement(nil), d.Spec.Selector.MatchExpressions...)
	ann := map[string]string{}
	for k, v := range d.Annotations {
		ann[k] = v
	}
	for _, k := range notCopiedAnnotations {
		delete(ann, k)
	}
	var rev int64
	for _, rs := range rsList {
		if r, err := strconv.ParseInt(rs.Annotations[revisionAnnotation], 10, 64); err == nil && r > rev {
			rev = r
		}
	}
	ann[revisionAnnotation] = strconv.FormatInt(rev+1, 10)
	ann[desiredReplicasAnnotation] = strconv.Itoa(want)
	ann[maxReplicasAnnotation] = strconv.Itoa(want + surge)
	count := int32(n)
	rs := &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: rsName, Namespace: d.Namespace, Labels: tpl.Labels, Annotations: ann,
			OwnerReferences: []api.OwnerReference{controllerRef("Deployment", "apps/v1", &d.ObjectMeta)}},
		Spec: api.ReplicaSetSpec{Replicas: &count, MinReadySeconds: d.Spec.MinReadySeconds, Selector: &sel, Template: tpl},
	}
	e.replicaSets = append(e.replicaSets, rs)
	return rs
}

// isScalingEvent is the Deployment controller's test: an active
// ReplicaSet records other desired replicas than the Deployment's.
func isScalingEvent(want int, rsList []*api.ReplicaSet) bool {
	for _, rs := range rsList {
		if replicas(rs.Spec.Replicas) == 0 {
			continue
		}
		if n, ok := annotationInt32(rs, desiredReplicasAnnotation); ok && int(n) != want {
			return true
		}
	}
	return false
}

// annotationInt32 is getNonNegativeInt32FromAnnotation: the annotation
// as a non-negative int32; ok false when it is absent or not one.
func annotationInt32(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// scale is the Deployment controller's scale, run on a scaling event or
// while paused: the one active ReplicaSet (or, with none active, the
// newest) gets the Deployment's replicas; else, when the new ReplicaSet
// is saturated, the old active ones go to zero; else a RollingUpdate
// Deployment's active ReplicaSets are scaled proportionally (see
// proportionalScale).
func (e *expander) scale(d *api.Deployment, object string, want int, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) {
	if rs := activeOrLatest(newRS, oldRSs); rs != nil {
		e.rsReplicas[rs] = want
		return
	}
	if isSaturated(newRS, want) {
		for _, rs := range oldRSs {
			if replicas(rs.Spec.Replicas) > 0 {
				e.rsReplicas[rs] = 0
			}
		}
		return
	}
	if d.Spec.Strategy.Type == "Recreate" {
		return
	}
	surge, err := maxSurge(d.Spec.Strategy.RollingUpdate, want)
	if err != nil {
		e.warn(d, object, "spec.strategy.rollingUpdate.maxSurge: %v: not expanded", err)
		return
	}
	for rs, n := range proportionalScale(int32(want), int32(surge), d.Status.Replicas, newRS, oldRSs) {
		e.rsReplicas[rs] = int(n)
	}
}

// isSaturated is deploymentutil.IsSaturated: the new ReplicaSet has the
// Deployment's replicas, records them as desired, and has them all
// available.
func isSaturated(rs *api.ReplicaSet, want int) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[desiredReplicasAnnotation])
	return err == nil && replicas(rs.Spec.Replicas) == want && desired == want && int(rs.Status.AvailableReplicas) == want
}

// proportionalScale is the proportional half of the Deployment
// controller's scale: the active ReplicaSets (replicas > 0) share the
// difference between the allowed size (want plus surge; 0 when want is)
// and their replicas, each by its proportion (replicaSetProportion),
// visited largest first (ties: the newer first when adding, the older
// first when removing: ReplicaSetsBySizeNewer / ReplicaSetsBySizeOlder),
// the first also taking what rounding left over (never below zero). It
// returns the new replicas of each active ReplicaSet.
func proportionalScale(want, surge, statusReplicas int32, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) map[*api.ReplicaSet]int32 {
	var all []*api.ReplicaSet
	var sum int32
	for _, rs := range append(oldRSs[:len(oldRSs):len(oldRSs)], newRS) {
		if rs != nil && replicas(rs.Spec.Replicas) > 0 {
			all = append(all, rs)
			sum += int32(replicas(rs.Spec.Replicas))
		}
	}
	allowed := int32(0)
	if want > 0 {
		allowed = want + surge
	}
	toAdd := allowed - sum
	older := func(a, b *api.ReplicaSet) bool { // ReplicaSetsByCreationTimestamp
		if a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.Name < b.Name
		}
		return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
	}
	if toAdd != 0 {
		sort.SliceStable(all, func(i, j int) bool {
			ri, rj := replicas(all[i].Spec.Replicas), replicas(all[j].Spec.Replicas)
			if ri != rj {
				return ri > rj
			}
			if toAdd > 0 {
				return older(all[j], all[i])
			}
			return older(all[i], all[j])
		})
	}
	out := make(map[*api.ReplicaSet]int32, len(all))
	added := int32(0)
	for _, rs := range all {
		r := int32(replicas(rs.Spec.Replicas))
		p := replicaSetProportion(rs, want, surge, statusReplicas, toAdd, added)
		out[rs] = r + p
		added += p
	}
	if len(all) > 0 && toAdd != 0 {
		out[all[0]] = max(0, out[all[0]]+toAdd-added)
	}
	return out
}

// replicaSetProportion is GetReplicaSetProportion: what a ReplicaSet
// gains (or loses) of the toAdd replicas, added of them already given
// out: its fraction (replicaSetFraction), within what is left.
func replicaSetProportion(rs *api.ReplicaSet, want, surge, statusReplicas, toAdd, added int32) int32 {
	if rs == nil || replicas(rs.Spec.Replicas) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := replicaSetFraction(rs, want, surge, statusReplicas)
	if toAdd > 0 {
		return min(f, toAdd-added)
	}
	return max(f, toAdd-added)
}

// replicaSetFraction is getReplicaSetFraction: the ReplicaSet's replicas
// scaled from the Deployment's size when it last set them (the
// max-replicas annotation; status.replicas when that is missing or 0) to
// want plus surge, rounded half away from zero, less its replicas; all
// of them when want is 0; none when neither size is known. The product
// is an int32, as upstream computes it.
func replicaSetFraction(rs *api.ReplicaSet, want, surge, statusReplicas int32) int32 {
	r := int32(replicas(rs.Spec.Replicas))
	if want == 0 {
		return -r
	}
	before, ok := annotationInt32(rs, maxReplicasAnnotation)
	if !ok || before == 0 {
		before = statusReplicas
		if before == 0 {
			return 0
		}
	}
	size := float64(r*(want+surge)) / float64(before)
	return int32(math.Round(size)) - r
}

// activeOrLatest is FindActiveOrLatest: the one ReplicaSet with replicas
// (nil when several have some), or with none active the new one, else
// the newest old one.
func activeOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	var active []*api.ReplicaSet
	for _, rs := range append([]*api.ReplicaSet{newRS}, oldRSs...) {
		if rs != nil && replicas(rs.Spec.Replicas) > 0 {
			active = append(active, rs)
		}
	}
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		if len(oldRSs) > 0 {
			return oldRSs[len(oldRSs)-1] // sorted oldest first
		}
		return nil
	case 1:
		return active[0]
	}
	return nil
}

func (e *expander) replicaSetNamed(ns, name string) bool {
	if e.rsNames == nil {
		e.rsNames = map[[2]string]bool{}
		for _, rs := range e.objs.ReplicaSets {
			e.rsNames[[2]string{rs.Namespace, rs.Name}] = true
		}
	}
	return e.rsNames[[2]string{ns, name}]
}

// newRSNewReplicas is the Deployment controller's NewRSNewReplicas: the
// replicas of the new ReplicaSet (now newRS of them) when the
// ReplicaSets have current replicas in all (newRS's included): a Recreate
// goes to want at once; a RollingUpdate grows the new ReplicaSet to at
// most want, keeping the total within want plus surge.
func newRSNewReplicas(recreate bool, want, surge, current, newRS int) int {
	if recreate {
		return want
	}
	total := want + surge
	if current >= total {
		return newRS
	}
	return newRS + min(total-current, want-newRS)
}

// maxSurge resolves a RollingUpdate's maxSurge against the replicas
// (default 25%; a percentage rounds up), as ResolveFenceposts does.
func maxSurge(ru *api.RollingUpdateDeployment, want int) (int, error) {
	v := api.IntOrString{IsString: true, StrVal: "25%"}
	if ru != nil && ru.MaxSurge != nil {
		v = *ru.MaxSurge
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	p, ok := strings.CutSuffix(v.StrVal, "%")
	n, err := strconv.Atoi(p)
	if !ok || err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q", v.StrVal)
	}
	return int(math.Ceil(float64(n) * float64(want) / 100)), nil
}

// templateJSON is the JSON value of a workload's pod template as the API
// server stores it: from the document read (fields schedkit does not
// model included) or, for objects built in Go, from schedkit's types;
// defaulted as on create when the object is new.
func (e *expander) templateJSON(obj any, meta *api.ObjectMeta, tpl *api.PodTemplateSpec) any {
	var v any
	if raw := e.objs.Raw[obj]; raw != nil {
		if doc, err := decodeJSONValue(raw); err == nil {
			if m, ok := doc.(map[string]any); ok {
				if spec, ok := m["spec"].(map[string]any); ok {
					v = spec["template"]
				}
			}
		}
	}
	if v == nil {
		b, _ := json.Marshal(tpl)
		v, _ = decodeJSONValue(b)
	}
	if v == nil {
		v = map[string]any{}
	}
	if !IsStoredMeta(meta) {
		podhash.Default(v)
	}
	return v
}

// equalIgnoreHash is the Deployment controller's EqualIgnoreHash: the
// templates are equal but for the pod-template-hash label, compared as
// apimachinery's Semantic.DeepEqual compares the Go values the controller
// holds (see podhash.Equal); when one cannot be decoded, by schedkit's
// fields, and why says so.
func (e *expander) equalIgnoreHash(a, b any, ta, tb *api.PodTemplateSpec) (same bool, why string) {
	eq, err := podhash.Equal(withoutHashLabel(a), withoutHashLabel(b))
	if err == nil {
		return eq, ""
	}
	ca, cb := *ta, *tb
	ca.Labels, cb.Labels = withoutKey(ca.Labels, podTemplateHashLabel), withoutKey(cb.Labels, podTemplateHashLabel)
	ja, _ := json.Marshal(ca)
	jb, _ := json.Marshal(cb)
	return string(ja) == string(jb), err.Error()
}

// withoutHashLabel is a template's JSON value without the
// pod-template-hash label (the value is not changed).
func withoutHashLabel(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok {
		return v
	}
	labels, ok := meta["labels"].(map[string]any)
	if !ok {
		return v
	}
	if _, has := labels[podTemplateHashLabel]; !has {
		return v
	}
	nl := make(map[string]any, len(labels))
	for k, x := range labels {
		if k != podTemplateHashLabel {
			nl[k] = x
		}
	}
	nm := make(map[string]any, len(meta))
	for k, x := range meta {
		nm[k] = x
	}
	nm["labels"] = nl
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	out["metadata"] = nm
	return out
}

func withoutKey(m map[string]string, key string) map[string]string {
	if _, ok := m[key]; !ok {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// fallbackHash stands for the pod-template-hash when the controller's
// cannot be rebuilt (a warning says why): FNV-32a of schedkit's JSON of
// the template, encoded as upstream encodes its hash.
func fallbackHash(tpl *api.PodTemplateSpec, cc *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(tpl)
	h.Write(b)
	if cc != nil {
		h.Write([]byte(strconv.Itoa(int(*cc))))
	}
	return podhash.SafeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// isRunningAndReady is the StatefulSet controller's test before it goes
// on to the next ordinal.
func isRunningAndReady(p *api.Pod) bool {
	if p.Status.Phase != api.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// statefulSet creates the pods <name>-<ordinal> the StatefulSet
// controller would: for each ordinal from spec.ordinals.start, a pod when
// none has the name (or the one it owns has failed or succeeded, which
// it replaces); with the default OrderedReady policy it creates one pod
// and waits, and stops at a pod that is not Running and Ready or that
// another controller owns. Pods get the identity newStatefulSetPod gives
// them (the pod-name and pod-index labels, hostname the pod's name,
// subdomain spec.serviceName, the claims of the volumeClaimTemplates);
// each is made from the revision newVersionedStatefulSetPod picks (see
// usesCurrentRevision): the current revision's template restored from
// its ControllerRevision, or the set's own, and labelled with that
// revision's name as controller-revision-hash (see revisionsOfSet).
func (e *expander) statefulSet(ss *api.StatefulSet) {
	object := "StatefulSet " + ss.Namespace + "/" + ss.Name
	if ss.DeletionTimestamp != nil {
		return
	}
	sel, ok := e.selector(ss, object, ss.Spec.Selector)
	if !ok {
		return
	}
	o := owner{"StatefulSet", &ss.ObjectMeta}
	ordered := ss.Spec.PodManagementPolicy != api.ParallelPodManagement
	start := 0
	if ss.Spec.Ordinals != nil {
		start = int(ss.Spec.Ordinals.Start)
	}
	ref := controllerRef("StatefulSet", "apps/v1", &ss.ObjectMeta)
	revs := e.revisionsOfSet(ss, sel, object)
	warned := false
	end := start + e.capped(o, replicas(ss.Spec.Replicas))
	for i := start; i < end; i++ {
		name := ss.Name + "-" + strconv.Itoa(i)
		if p := e.podByName[[2]string{ss.Namespace, name}]; p != nil {
			ours := claims(o, sel, &p.ObjectMeta)
			replace := ours && p.DeletionTimestamp == nil && (p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded)
			if !replace {
				if ordered && (!ours || !isRunningAndReady(p)) {
					if i+1 < end {
						why := "is not Running and Ready"
						if !ours {
							why = "is not the set's"
						}
						e.warn(ss, object, "podManagementPolicy OrderedReady: pod %s %s, so the controller creates none of the %d pod(s) after it yet", name, why, end-i-1)
					}
					return
				}
				continue
			}
		} else if e.names[[2]string{ss.Namespace, name}] {
			continue // created by another workload here
		}
		e.names[[2]string{ss.Namespace, name}] = true
		tpl, revision := &ss.Spec.Template, revs.update
		if usesCurrentRevision(ss, start, i) {
			switch {
			case revs.currentTpl != nil:
				tpl, revision = revs.currentTpl, revs.current
			case revs.missingName != "" && !warned:
				warned = true
				e.warn(ss, object, "ControllerRevision %s (status.currentRevision) is not among the objects: the pods the controller makes from it get the update revision %s", revs.missingName, revs.update)
			}
		}
		p := newPod(tpl, ss.Namespace, name, ref)
		p.Labels = withLabel(p.Labels, "statefulset.kubernetes.io/pod-name", name)
		p.Labels = withLabel(p.Labels, "apps.kubernetes.io/pod-index", strconv.Itoa(i))
		p.Labels = withLabel(p.Labels, controllerRevisionHashLabel, revision)
		p.Spec.Hostname, p.Spec.Subdomain = name, ss.Spec.ServiceName
		for _, vct := range ss.Spec.VolumeClaimTemplates {
			claim := vct.Name + "-" + name
			e.createClaim(ss, &vct, claim)
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
		if ordered {
			if i+1 < end {
				e.warn(ss, object, "podManagementPolicy OrderedReady: the controller creates %s and waits for it to be Running and Ready before creating the %d pod(s) after it (podManagementPolicy Parallel creates them at once)", name, end-i-1)
			}
			return
		}
	}
}

// createClaim records the claim the StatefulSet controller's
// createPersistentVolumeClaims creates before a pod, unless one named
// name exists: the template with that name in the set's namespace,
// labelled with the template's labels and the selector's matchLabels
// over them (getPersistentVolumeClaims), and, as the retention policy's
// update right after the pod's creation makes it, a controller reference
// to the set when whenDeleted is Delete (a pod in the set's ordinal
// range gets no reference of its own).
func (e *expander) createClaim(ss *api.StatefulSet, tpl *api.PersistentVolumeClaim, name string) {
	if e.claimNames == nil {
		e.claimNames = map[[2]string]bool{}
		for _, c := range e.objs.Claims {
			ns := c.Namespace
			if ns == "" {
				ns = "default"
			}
			e.claimNames[[2]string{ns, c.Name}] = true
		}
	}
	k := [2]string{ss.Namespace, name}
	if e.claimNames[k] {
		return
	}
	e.claimNames[k] = true
	c := &api.PersistentVolumeClaim{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, Spec: tpl.Spec}
	c.ObjectMeta = api.ObjectMeta{Name: name, Namespace: ss.Namespace, Annotations: tpl.Annotations, Finalizers: tpl.Finalizers}
	labels := make(map[string]string, len(tpl.Labels)+len(ss.Spec.Selector.MatchLabels))
	for k, v := range tpl.Labels {
		labels[k] = v
	}
	for k, v := range ss.Spec.Selector.MatchLabels {
		labels[k] = v
	}
	if len(labels) > 0 {
		c.Labels = labels
	}
	if p := ss.Spec.PersistentVolumeClaimRetentionPolicy; p != nil && p.WhenDeleted == "Delete" {
		c.OwnerReferences = []api.OwnerReference{controllerRef("StatefulSet", "apps/v1", &ss.ObjectMeta)}
	}
	e.claims = append(e.claims, c)
}

// Job controller names and values (k8s.io/api batch/v1).
const (
	jobCompletionIndexKey = "batch.kubernetes.io/job-completion-index"
	jobTrackingFinalizer  = "batch.kubernetes.io/job-tracking"
	// maxGeneratedNameLength is the longest generateName prefix the API
	// server keeps whole (63 less its 5-character suffix).
	maxGeneratedNameLength = 58
)

// completionIndex is a Job pod's completion index as the Job controller
// reads it (getCompletionIndex): from the annotation only, -1 when it has
// none or it is not a non-negative integer.
func completionIndex(p *api.Pod) int {
	s, ok := p.Annotations[jobCompletionIndexKey]
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 {
		return -1
	}
	return i
}

// parseIndexes is the Job controller's parseIndexesFromString: the
// indexes below completions that a status.completedIndexes (or
// failedIndexes) string such as "1,3-5" lists; an interval that is not
// integers is skipped, and the list ends at the first interval starting
// at or past completions.
func parseIndexes(s string, completions int, into map[int]bool) {
	if s == "" {
		return
	}
	for _, part := range strings.Split(s, ",") {
		lim := strings.Split(part, "-")
		first, err := strconv.Atoi(lim[0])
		if err != nil {
			continue
		}
		if first >= completions {
			return
		}
		last := first
		if len(lim) > 1 {
			if last, err = strconv.Atoi(lim[1]); err != nil {
				continue
			}
			last = min(last, completions-1)
		}
		for i := max(first, 0); i <= last; i++ {
			into[i] = true
		}
	}
}

func hasFinalizer(m *api.ObjectMeta, f string) bool {
	for _, x := range m.Finalizers {
		if x == f {
			return true
		}
	}
	return false
}

// isTerminating is controller.FilterTerminatingPods' test: being deleted
// and not finished.
func isTerminating(p *api.Pod) bool {
	return p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

// job creates the pods the Job controller's manageJob would: none for a
// suspended, finished or deleted Job, nor for one syncJob fails or
// succeeds now (see jobFailure, matchSuccessPolicy); else up to
// parallelism active pods,
// fewer as completions near. Succeeded pods count as upstream counts
// them: status.succeeded plus the succeeded pods still holding the
// job-tracking finalizer (the others are in the status already); an
// Indexed Job's succeeded are its completed indexes (status.completedIndexes
// and those succeeded pods' indexes below completions), and it takes the
// lowest indexes neither completed, nor held by an active pod, nor
// (podReplacementPolicy Failed) by a terminating one, nor (with
// backoffLimitPerIndex) listed in status.failedIndexes; with
// backoffLimitPerIndex, failed indexes beyond maxFailedIndexes, or
// failed and completed indexes reaching completions, fail the Job. With
// podReplacementPolicy Failed (the default with a podFailurePolicy),
// terminating pods count against the pods to create. An Indexed Job with
// active pods of a missing, out-of-range or repeated index deletes them
// first and creates nothing (a warning says so). Pods are the Job's by its selector (the generated
// controller-uid one) and controller reference; a Job without a
// selector (not yet through the API server) by controller reference
// only. Each pod has the job-tracking finalizer and the job-name labels;
// an Indexed Job's pods also the completion index annotation and label,
// hostname <job>-<index> and the name prefix <job>-<index>- (not the
// JOB_COMPLETION_INDEX variable upstream adds to every container:
// schedkit does not model container env).
func (e *expander) job(j *api.Job) {
	if j.DeletionTimestamp != nil || (j.Spec.Suspend != nil && *j.Spec.Suspend) ||
		jobHasCondition(j, jobComplete, jobFailed, jobFailureTarget, jobSuccessCriteriaMet) {
		return
	}
	object := "Job " + j.Namespace + "/" + j.Name
	var sel *affinity.Selector
	if j.Spec.Selector != nil {
		var ok bool
		if sel, ok = e.selector(j, object, j.Spec.Selector); !ok {
			return
		}
	}
	o := owner{"Job", &j.ObjectMeta}
	claimed := e.claimedPods(o, sel, func(*api.Pod) bool { return true })
	indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion && j.Spec.Completions != nil
	// podReplacementPolicy defaults to Failed with a podFailurePolicy.
	onlyFailed := j.Spec.PodReplacementPolicy != nil && *j.Spec.PodReplacementPolicy == "Failed" ||
		j.Spec.PodReplacementPolicy == nil && j.Spec.PodFailurePolicy != nil
	completions := 0
	if j.Spec.Completions != nil {
		completions = int(*j.Spec.Completions)
	}
	if e.jobFailure(j, object, claimed, onlyFailed, indexed, completions) != "" {
		return // the controller fails the Job and deletes its active pods
	}
	active, terminating := 0, 0
	newSucceeded := 0
	done := map[int]bool{} // completed indexes
	if indexed {
		parseIndexes(j.Status.CompletedIndexes, completions, done)
	}
	taken := map[int]bool{} // indexes of active (or terminating) pods
	removed := 0            // active pods an Indexed Job deletes first
	activeIdx := map[int]bool{}
	for _, p := range claimed {
		switch {
		case isActive(p):
			active++
			i := completionIndex(p)
			if indexed && (i < 0 || i >= completions || activeIdx[i]) {
				removed++
			}
			if i >= 0 {
				taken[i], activeIdx[i] = true, true
			}
		case p.Status.Phase == api.PodSucceeded && hasFinalizer(&p.ObjectMeta, jobTrackingFinalizer):
			newSucceeded++
			if i := completionIndex(p); indexed && i >= 0 && i < completions {
				done[i] = true
			}
		}
		if isTerminating(p) {
			terminating++
			if i := completionIndex(p); onlyFailed && i >= 0 {
				taken[i] = true
			}
		}
	}
	succeeded := int(j.Status.Succeeded) + newSucceeded
	if indexed {
		succeeded = len(done)
		if matchSuccessPolicy(j.Spec.SuccessPolicy, completions, done) {
			return // SuccessCriteriaMet: the controller deletes the active pods
		}
		if j.Spec.BackoffLimitPerIndex != nil && j.Status.FailedIndexes != nil {
			failed := map[int]bool{}
			parseIndexes(*j.Status.FailedIndexes, completions, failed)
			// The Job fails (and creates nothing) past maxFailedIndexes,
			// or when failed and succeeded indexes together reach
			// completions.
			if m := j.Spec.MaxFailedIndexes; m != nil && len(failed) > int(*m) || len(failed) > 0 && len(failed)+succeeded >= completions {
				return
			}
			for i := range failed {
				done[i] = true
			}
		}
	}
	want := replicas(j.Spec.Parallelism)
	if j.Spec.Completions != nil {
		want = min(want, max(0, completions-succeeded))
	} else if succeeded > 0 {
		want = 0
	}
	if !onlyFailed {
		terminating = 0
	}
	create := want - terminating - active
	if create <= 0 {
		return
	}
	if removed > 0 {
		// manageJob deletes them (activePodsForRemoval) and creates
		// nothing in that sync.
		e.warn(j, object, "deletes %d active pods with a missing, out-of-range or repeated completion index before it creates any", removed)
		return
	}
	create = e.capped(o, create)
	e.warnBackoff(j, object, claimed, onlyFailed)
	ref := controllerRef("Job", "batch/v1", &j.ObjectMeta)
	next := 0
	for range create {
		prefix, idx := j.Name+"-", -1
		if indexed {
			for next < completions && (done[next] || taken[next]) {
				next++
			}
			if next >= completions {
				break
			}
			idx = next
			taken[idx] = true
			prefix = indexedPrefix(j.Name, idx)
		}
		p := newPod(&j.Spec.Template, j.Namespace, e.uniqueName(j.Namespace, prefix), ref)
		p.Labels = withLabel(p.Labels, "batch.kubernetes.io/job-name", j.Name)
		p.Labels = withLabel(p.Labels, "job-name", j.Name)
		if !hasFinalizer(&p.ObjectMeta, jobTrackingFinalizer) {
			p.Finalizers = append(p.Finalizers, jobTrackingFinalizer)
		}
		if idx >= 0 {
			p.Labels = withLabel(p.Labels, jobCompletionIndexKey, strconv.Itoa(idx))
			p.Annotations = withLabel(p.Annotations, jobCompletionIndexKey, strconv.Itoa(idx))
			p.Spec.Hostname = j.Name + "-" + strconv.Itoa(idx)
		}
		e.pods = append(e.pods, p)
	}
}

// indexedPrefix is podGenerateNameWithIndex: <job>-<index>-, the job
// name cut so that the prefix fits maxGeneratedNameLength.
func indexedPrefix(job string, idx int) string {
	tail := "-" + strconv.Itoa(idx) + "-"
	if len(job)+len(tail) > maxGeneratedNameLength {
		job = job[:maxGeneratedNameLength-len(tail)]
	}
	return job + tail
}

// targetNode is the node a daemon pod is for (GetTargetNodeName): its
// spec.nodeName, or the one node its required node affinity's
// matchFields metadata.name names.
func targetNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, r := range t.MatchFields {
			if r.Key == "metadata.name" && r.Operator == api.NodeSelectorOpIn && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return ""
}

// daemonSet creates a daemon pod for each eligible node where the
// DaemonSet has no active pod (its pods by selector and controller
// reference, bound or bound-to-be by node affinity), labelled as the
// DaemonSet controller's CreatePodTemplate labels them (see
// daemonSetRevision).
func (e *expander) daemonSet(ds *api.DaemonSet) {
	object := "DaemonSet " + ds.Namespace + "/" + ds.Name
	if ds.DeletionTimestamp != nil {
		return
	}
	sel, ok := e.selector(ds, object, ds.Spec.Selector)
	if !ok {
		return
	}
	on := map[string]bool{}
	for _, p := range e.claimedPods(owner{"DaemonSet", &ds.ObjectMeta}, sel, isActive) {
		if n := targetNode(p); n != "" {
			on[n] = true
		}
	}
	ref := controllerRef("DaemonSet", "apps/v1", &ds.ObjectMeta)
	hash, gen := e.daemonSetRevision(ds, sel, object)
	for _, n := range e.objs.Nodes {
		if on[n.Name] {
			continue
		}
		if nn := ds.Spec.Template.Spec.NodeName; nn != "" && nn != n.Name {
			continue // NodeShouldRunDaemonPod: a template bound to one node
		}
		p := newPod(&ds.Spec.Template, ds.Namespace, "", ref)
		addDaemonTolerations(p)
		if !daemonFits(p, n) {
			continue
		}
		p.Name = e.uniqueName(ds.Namespace, ds.Name+"-")
		setNodeNameAffinity(p, n.Name)
		if gen != "" {
			p.Labels = withLabel(p.Labels, daemonSetTemplateGenerationLabel, gen)
		}
		p.Labels = withLabel(p.Labels, controllerRevisionHashLabel, hash)
		e.pods = append(e.pods, p)
	}
}

// Labels the DaemonSet and StatefulSet controllers put on their pods.
const (
	// controllerRevisionHashLabel is apps/v1 ControllerRevisionHashLabelKey
	// (DefaultDaemonSetUniqueLabelKey, StatefulSetRevisionLabel).
	controllerRevisionHashLabel = "controller-revision-hash"
	// daemonSetTemplateGenerationLabel is the deprecated
	// DaemonSetTemplateGenerationKey.
	daemonSetTemplateGenerationLabel = "pod-template-generation"
	// templateGenerationAnnotation is apps/v1
	// DeprecatedTemplateGeneration, which the API server keeps
	// spec.templateGeneration in.
	templateGenerationAnnotation = "deprecated.daemonset.template.generation"
)

// daemonSetRevision is what the DaemonSet controller labels its new pods
// with: the hash of its current ControllerRevision (see
// daemonSetRevisionHash), which for a DaemonSet without one read is the
// one it creates, ComputeHash of the template with status.collisionCount
// (the hash the Deployment controller computes: PodTemplateHash); and the
// template generation from the deprecated.daemonset.template.generation
// annotation ("" when absent or not an integer, as GetTemplateGeneration
// then gives none). A DaemonSet not yet through the API server gets what
// create would store: the defaulted template, no collisionCount, and
// template generation 1 unless the annotation gives a higher one.
func (e *expander) daemonSetRevision(ds *api.DaemonSet, sel *affinity.Selector, object string) (hash, gen string) {
	tpl := e.templateJSON(ds, &ds.ObjectMeta, &ds.Spec.Template)
	cc := ds.Status.CollisionCount
	v, has := ds.Annotations[templateGenerationAnnotation]
	g, err := strconv.ParseInt(v, 10, 64)
	switch {
	case IsStoredMeta(&ds.ObjectMeta):
		if has && err == nil {
			gen = strconv.FormatInt(g, 10)
		}
	case has && err != nil:
		e.warn(ds, object, "metadata.annotations[%s]: Invalid value: %q: the API server would refuse the DaemonSet", templateGenerationAnnotation, v)
	default:
		cc = nil
		gen = strconv.FormatInt(max(g, 1), 10)
	}
	warned := false
	hashOf := func(cc *int32) string {
		h, err := podhash.Hash(tpl, cc)
		if err != nil {
			h = fallbackHash(&ds.Spec.Template, cc)
			if !warned {
				warned = true
				e.warn(ds, object, "controller-revision-hash %s is not the DaemonSet controller's: %v", h, err)
			}
		}
		return h
	}
	return e.daemonSetRevisionHash(ds, sel, tpl, cc, hashOf), gen
}
