package predicates

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// This file is the volume binder of the VolumeBinding plugin: upstream's
// volumebinding binder (GetPodVolumeClaims, FindPodVolumes,
// AssumePodVolumes) and the PV controller's FindMatchingVolume, over the
// snapshot's object store. The pod's claims, the volumes of their
// classes, the classes, drivers and capacities are resolved and compiled
// once per pod (resolvePodVolumes); the per-node part (findPodVolumes)
// only matches compiled selectors against the node's labels.

// NotSupportedProvisioner is the provisioner of a StorageClass whose
// volumes are never provisioned dynamically.
const NotSupportedProvisioner = "kubernetes.io/no-provisioner"

// vbVolume is a PersistentVolume with what the binder reads compiled.
type vbVolume struct {
	pv       *api.PersistentVolume
	capacity quantity.Quantity
	// affinity is the volume's required node affinity; nil when the
	// volume has none, and then it fits every node.
	affinity *affinity.NodeSelector
}

// fits reports whether the volume's node affinity allows node, as
// upstream's CheckNodeAffinity: only the node's labels are matched (so
// matchFields never reject), and a term that does not compile matches
// nothing.
func (v *vbVolume) fits(node *api.Node) bool {
	if v.affinity == nil {
		return true
	}
	stub := api.Node{ObjectMeta: api.ObjectMeta{Labels: node.Labels}}
	ok, _ := v.affinity.Match(&stub)
	return ok
}

func newVBVolume(pv *api.PersistentVolume) *vbVolume {
	v := &vbVolume{pv: pv, capacity: pv.Spec.Capacity[api.ResourceStorage]}
	if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
		v.affinity = affinity.CompileNodeSelector(na.Required)
	}
	return v
}

// vbCapacity is a CSIStorageCapacity of a claim's class whose volume
// limit is large enough for the claim.
type vbCapacity struct {
	obj *api.CSIStorageCapacity
	// sel is the compiled nodeTopology; ok is false when it is nil or
	// does not compile, and then no node has access.
	sel affinity.Selector
	ok  bool
}

// vbTopology is a StorageClass's allowedTopologies compiled: an empty
// list allows every node; each term is an AND of In requirements; a term
// without requirements or that fails to compile matches nothing.
type vbTopology struct {
	all   bool
	terms []affinity.Selector
}

func compileTopology(terms []api.TopologySelectorTerm) vbTopology {
	if len(terms) == 0 {
		return vbTopology{all: true}
	}
	var t vbTopology
	for _, term := range terms {
		if len(term.MatchLabelExpressions) == 0 {
			continue
		}
		reqs := make([]affinity.Requirement, 0, len(term.MatchLabelExpressions))
		valid := true
		for _, e := range term.MatchLabelExpressions {
			r, err := affinity.NewRequirement(e.Key, affinity.OpIn, e.Values)
			if err != nil {
				valid = false
				break
			}
			reqs = append(reqs, r)
		}
		if valid {
			t.terms = append(t.terms, affinity.NewSelector(reqs...))
		}
	}
	return t
}

func (t *vbTopology) matches(labels map[string]string) bool {
	if t.all {
		return true
	}
	for i := range t.terms {
		if t.terms[i].Matches(labels) {
			return true
		}
	}
	return false
}

// vbClaim is an unbound WaitForFirstConsumer claim of the pod.
type vbClaim struct {
	pvc   *api.PersistentVolumeClaim
	class string
	// request is the storage requested; hasRequest is false without one.
	request    quantity.Quantity
	hasRequest bool
	// selectedNode is the volume.kubernetes.io/selected-node annotation.
	selectedNode string
	hasSelected  bool

	// Matching: the claim's compiled selector (selErr if it does not
	// compile) and the volumes of its class.
	selector    affinity.Selector
	hasSelector bool
	selErr      error
	volumes     []*vbVolume

	// Provisioning: provErr is the binder's error for a claim without a
	// class or whose class does not exist; provisionable is false for a
	// class without a (supported) provisioner.
	provErr       error
	provisionable bool
	topology      vbTopology
	// checkCapacity: the claim requests storage and the class's CSI
	// driver asks for capacity tracking; capacities are then the
	// CSIStorageCapacity objects of the class with a large enough limit.
	checkCapacity bool
	capacities    []vbCapacity
}

// vbBound is a bound claim of the pod and its volume (nil if the volume
// does not exist).
type vbBound struct {
	pvc *api.PersistentVolumeClaim
	pv  *vbVolume
	// plugin is the in-tree plugin of a volume the binder translates to
	// CSI on nodes that migrated it ("" for other volumes); migrated is
	// the translated volume, or migrateErr the translation's error.
	plugin     string
	migrated   *vbVolume
	migrateErr error
}

// volumeOn returns the volume as the binder checks it on a node with
// csiNode (nil for none): translated to CSI if the node migrated its
// plugin (upstream's tryTranslatePVToCSI).
func (b *vbBound) volumeOn(csiNode *api.CSINode) (*vbVolume, error) {
	if b.plugin == "" || !pluginMigratedOnNode(csiNode, b.plugin) {
		return b.pv, nil
	}
	return b.migrated, b.migrateErr
}

// podVolumes is what resolvePodVolumes finds for a pod with claims:
// upstream's PodVolumeClaims, compiled.
type podVolumes struct {
	bound []vbBound
	// objs is the object store, to look up nodes' CSINodes, when a bound
	// volume is translated to CSI on nodes that migrated its plugin.
	objs *cluster.Objects
	// scratch holds *nodeVolumes for the per-node checks, which run
	// concurrently: a nodeVolumes points into itself, so one on the stack
	// would escape to the heap at every node.
	scratch sync.Pool
	// delay are the unbound WaitForFirstConsumer claims, in volume order.
	delay []*vbClaim
	// everyNode is set when find reports no conflict, no error and no
	// volume on any node: every claim is bound to an existing volume
	// without node affinity (translated to CSI too, without error).
	everyNode bool
	// matching are the delay claims without a selected node, sorted by
	// increasing request (with sort.Sort, as upstream, so that equal
	// requests keep upstream's order).
	matching []*vbClaim
}

// claimError is a claim problem PreFilter reports as
// UnschedulableAndUnresolvable with the error's text.
type claimError struct{ msg string }

func (e *claimError) Error() string { return e.msg }

// podClaimName returns the name of the claim behind vol and whether it
// is a generic ephemeral volume; ok is false for other volume sources.
func podClaimName(pod *api.Pod, vol *api.Volume) (name string, ephemeral, ok bool) {
	switch {
	case vol.PersistentVolumeClaim != nil:
		return vol.PersistentVolumeClaim.ClaimName, false, true
	case vol.Ephemeral != nil:
		return pod.Name + "-" + vol.Name, true, true
	}
	return "", false, false
}

// HasPVCs reports whether the pod has a persistentVolumeClaim or
// generic ephemeral volume, the volumes VolumeBinding looks at.
func HasPVCs(pod *api.Pod) bool {
	for i := range pod.Spec.Volumes {
		if _, _, ok := podClaimName(pod, &pod.Spec.Volumes[i]); ok {
			return true
		}
	}
	return false
}

// ephemeralOwnerError is upstream's check that the claim of a generic
// ephemeral volume was made for the pod: same namespace and the pod as
// its controller.
func ephemeralOwnerError(pod *api.Pod, pvc *api.PersistentVolumeClaim) error {
	var ctrl *api.OwnerReference
	for i := range pvc.OwnerReferences {
		if r := &pvc.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			ctrl = r
			break
		}
	}
	if pvc.Namespace != pod.Namespace || ctrl == nil || ctrl.UID != pod.UID {
		return fmt.Errorf("PVC %s/%s was not created for pod %s/%s (pod is not owner)", pvc.Namespace, pvc.Name, pod.Namespace, pod.Name)
	}
	return nil
}

// checkPodClaims is upstream's podHasPVCs: whether the pod has claims,
// and the first problem with one (missing, lost, being deleted, or an
// ephemeral volume's claim not owned by the pod) as a *claimError.
func checkPodClaims(objs *cluster.Objects, pod *api.Pod) (bool, error) {
	has := false
	for i := range pod.Spec.Volumes {
		name, eph, ok := podClaimName(pod, &pod.Spec.Volumes[i])
		if !ok {
			continue
		}
		has = true
		pvc, found := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, name)
		if !found {
			if eph {
				return true, &claimError{fmt.Sprintf("waiting for ephemeral volume controller to create the persistentvolumeclaim %q", name)}
			}
			return true, &claimError{fmt.Sprintf("persistentvolumeclaim %q not found", name)}
		}
		if pvc.Status.Phase == api.ClaimLost {
			return true, &claimError{fmt.Sprintf("persistentvolumeclaim %q bound to non-existent persistentvolume %q", pvc.Name, pvc.Spec.VolumeName)}
		}
		if pvc.DeletionTimestamp != nil {
			return true, &claimError{fmt.Sprintf("persistentvolumeclaim %q is being deleted", pvc.Name)}
		}
		if eph {
			if err := ephemeralOwnerError(pod, pvc); err != nil {
				return true, &claimError{err.Error()}
			}
		}
	}
	return has, nil
}

// ClaimClass returns the class a claim asks for: the beta
// storage-class annotation if present, else spec.storageClassName, else
// "" (upstream's GetPersistentVolumeClaimClass).
func ClaimClass(pvc *api.PersistentVolumeClaim) string {
	if c, ok := pvc.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	if pvc.Spec.StorageClassName != nil {
		return *pvc.Spec.StorageClassName
	}
	return ""
}

// VolumeClass returns a volume's class: the beta storage-class
// annotation if present, else spec.storageClassName (upstream's
// GetPersistentVolumeClass).
func VolumeClass(pv *api.PersistentVolume) string {
	if c, ok := pv.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	return pv.Spec.StorageClassName
}

// claimFullyBound reports whether the claim names a volume and carries
// the bind-completed annotation.
func claimFullyBound(pvc *api.PersistentVolumeClaim) bool {
	if pvc.Spec.VolumeName == "" {
		return false
	}
	_, ok := pvc.Annotations[api.AnnBindCompleted]
	return ok
}

// isDelayBinding is upstream's IsDelayBindingMode: the claim's class
// exists and binds WaitForFirstConsumer. A class without a binding mode
// is an error.
func isDelayBinding(objs *cluster.Objects, pvc *api.PersistentVolumeClaim) (bool, error) {
	name := ClaimClass(pvc)
	if name == "" {
		return false, nil
	}
	sc, ok := cluster.GetObject[api.StorageClass](objs, "", name)
	if !ok {
		return false, nil
	}
	if sc.VolumeBindingMode == nil {
		return false, fmt.Errorf("VolumeBindingMode not set for StorageClass %q", name)
	}
	return *sc.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer, nil
}

// resolvePodVolumes is upstream's GetPodVolumeClaims for a pod whose
// claims passed checkPodClaims, with everything the per-node check reads
// compiled. immediate counts the unbound claims that are not
// WaitForFirstConsumer (or are pre-bound to a volume).
func resolvePodVolumes(objs *cluster.Objects, pod *api.Pod) (pv *podVolumes, immediate int, err error) {
	pv = &podVolumes{}
	byClass := map[string][]*vbVolume{}
	for i := range pod.Spec.Volumes {
		name, _, ok := podClaimName(pod, &pod.Spec.Volumes[i])
		if !ok {
			continue
		}
		pvc, found := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, name)
		if !found {
			return nil, 0, fmt.Errorf("error getting PVC %q: persistentvolumeclaim %q not found", pod.Namespace+"/"+name, pod.Namespace+"/"+name)
		}
		if claimFullyBound(pvc) {
			b := vbBound{pvc: pvc}
			if v, ok := cluster.GetObject[api.PersistentVolume](objs, "", pvc.Spec.VolumeName); ok {
				b.pv = newVBVolume(v)
				if b.plugin = bindingMigratedPlugin(v); b.plugin != "" {
					pv.objs = objs
					if t, err := translatePVAffinity(v); err != nil {
						b.migrateErr = err
					} else {
						b.migrated = newVBVolume(t)
					}
				}
			}
			pv.bound = append(pv.bound, b)
			continue
		}
		delay, err := isDelayBinding(objs, pvc)
		if err != nil {
			return nil, 0, err
		}
		if !delay || pvc.Spec.VolumeName != "" {
			immediate++
			continue
		}
		c := newVBClaim(objs, pvc)
		if _, ok := byClass[c.class]; !ok {
			byClass[c.class] = classVolumes(objs, c.class)
		}
		c.volumes = byClass[c.class]
		pv.delay = append(pv.delay, c)
	}
	for _, c := range pv.delay {
		if !c.hasSelected {
			pv.matching = append(pv.matching, c)
		}
	}
	sort.Sort(byRequest(pv.matching))
	pv.everyNode = len(pv.delay) == 0 && !slices.ContainsFunc(pv.bound, func(b vbBound) bool {
		return b.pv == nil || b.pv.affinity != nil || b.plugin != "" && (b.migrateErr != nil || b.migrated.affinity != nil)
	})
	return pv, immediate, nil
}

// byRequest sorts claims by increasing storage request, as upstream's
// byPVCSize.
type byRequest []*vbClaim

func (a byRequest) Len() int           { return len(a) }
func (a byRequest) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byRequest) Less(i, j int) bool { return a[i].request.Cmp(a[j].request) < 0 }

// classVolumes returns the volumes of class, in name order (upstream
// lists them from an index in no fixed order).
func classVolumes(objs *cluster.Objects, class string) []*vbVolume {
	var out []*vbVolume
	for v := range cluster.AllObjects[api.PersistentVolume](objs) {
		if VolumeClass(v) == class {
			out = append(out, newVBVolume(v))
		}
	}
	return out
}

func newVBClaim(objs *cluster.Objects, pvc *api.PersistentVolumeClaim) *vbClaim {
	c := &vbClaim{pvc: pvc, class: ClaimClass(pvc)}
	c.request, c.hasRequest = pvc.Spec.Resources.Requests[api.ResourceStorage]
	c.selectedNode, c.hasSelected = pvc.Annotations[api.AnnSelectedNode]
	if pvc.Spec.Selector != nil {
		c.hasSelector = true
		sel, err := affinity.CompileLabelSelector(pvc.Spec.Selector)
		if err != nil {
			c.selErr = fmt.Errorf("error creating internal label selector for claim: %s/%s: %v", pvc.Namespace, pvc.Name, err)
		}
		c.selector = sel
	}
	key := pvc.Namespace + "/" + pvc.Name
	if c.class == "" {
		c.provErr = fmt.Errorf("no class for claim %q", key)
		return c
	}
	sc, ok := cluster.GetObject[api.StorageClass](objs, "", c.class)
	if !ok {
		c.provErr = fmt.Errorf("failed to find storage class %q", c.class)
		return c
	}
	if sc.Provisioner == "" || sc.Provisioner == NotSupportedProvisioner {
		return c
	}
	c.provisionable = true
	c.topology = compileTopology(sc.AllowedTopologies)
	if !c.hasRequest {
		return c
	}
	drv, ok := cluster.GetObject[api.CSIDriver](objs, "", sc.Provisioner)
	if !ok || drv.Spec.StorageCapacity == nil || !*drv.Spec.StorageCapacity {
		return c
	}
	c.checkCapacity = true
	size := c.request.Value()
	for cap := range cluster.AllObjects[api.CSIStorageCapacity](objs) {
		if cap.StorageClassName != sc.Name {
			continue
		}
		limit := cap.MaximumVolumeSize
		if limit == nil {
			limit = cap.Capacity
		}
		if limit == nil || limit.Value() < size {
			continue
		}
		vc := vbCapacity{obj: cap}
		if cap.NodeTopology != nil {
			if sel, err := affinity.CompileLabelSelector(cap.NodeTopology); err == nil {
				vc.sel, vc.ok = sel, true
			}
		}
		c.capacities = append(c.capacities, vc)
	}
	return c
}

// volumeBoundToClaim is upstream's IsVolumeBoundToClaim: the volume's
// claimRef names the claim (and its UID, if the reference has one).
func volumeBoundToClaim(pv *api.PersistentVolume, pvc *api.PersistentVolumeClaim) bool {
	r := pv.Spec.ClaimRef
	if r == nil || r.Name != pvc.Name || r.Namespace != pvc.Namespace {
		return false
	}
	return r.UID == "" || r.UID == pvc.UID
}

func volumeModeOf(m *api.PersistentVolumeMode) api.PersistentVolumeMode {
	if m == nil {
		return api.PersistentVolumeFilesystem
	}
	return *m
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// accessModesFit reports whether the volume supports every access mode
// the claim asks for.
func accessModesFit(pvc *api.PersistentVolumeClaim, pv *api.PersistentVolume) bool {
	for _, m := range pvc.Spec.AccessModes {
		found := false
		for _, have := range pv.Spec.AccessModes {
			if have == m {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// findMatchingVolume is the PV controller's FindMatchingVolume on the
// scheduler's path (a node given, delayed binding, volume attributes
// classes enabled): the volume pre-bound to the claim if it fits the
// node (none if it does not), else the smallest available volume of the
// claim's class that is large enough, of the same volume mode and
// attributes class, matches the claim's selector and access modes and
// fits the node. Volumes in chosen are skipped.
func (c *vbClaim) findMatchingVolume(node *api.Node, chosen []*vbVolume) (*vbVolume, error) {
	if c.selErr != nil {
		return nil, c.selErr
	}
	var smallest *vbVolume
	claimMode := volumeModeOf(c.pvc.Spec.VolumeMode)
	claimVAC := derefString(c.pvc.Spec.VolumeAttributesClassName)
next:
	for _, v := range c.volumes {
		for _, x := range chosen {
			if x.pv.Name == v.pv.Name {
				continue next
			}
		}
		pv := v.pv
		prebound := volumeBoundToClaim(pv, c.pvc)
		if pv.Spec.ClaimRef != nil && !prebound {
			continue
		}
		if v.capacity.Cmp(c.request) < 0 {
			continue
		}
		if volumeModeOf(pv.Spec.VolumeMode) != claimMode {
			continue
		}
		if derefString(pv.Spec.VolumeAttributesClassName) != claimVAC {
			continue
		}
		if pv.DeletionTimestamp != nil {
			continue
		}
		fits := v.fits(node)
		if prebound {
			if !fits {
				return nil, nil
			}
			return v, nil
		}
		if pv.Status.Phase != api.VolumeAvailable {
			continue
		}
		if c.hasSelector && !c.selector.Matches(pv.Labels) {
			continue
		}
		if VolumeClass(pv) != c.class || !fits || !accessModesFit(c.pvc, pv) {
			continue
		}
		if smallest == nil || smallest.capacity.Cmp(v.capacity) > 0 {
			smallest = v
		}
	}
	return smallest, nil
}

// hasCapacity is upstream's hasEnoughCapacity for a claim whose class can
// be provisioned: true when no capacity check applies, else the first
// capacity of the class with a large enough limit that the node can
// reach.
func (c *vbClaim) hasCapacity(node *api.Node) (bool, *api.CSIStorageCapacity) {
	if !c.checkCapacity {
		return true, nil
	}
	for i := range c.capacities {
		if vc := &c.capacities[i]; vc.ok && vc.sel.Matches(node.Labels) {
			return true, vc.obj
		}
	}
	return false, nil
}

// Volume binding conflicts on a node, as flags in upstream's reason
// order.
const (
	conflictNode uint8 = 1 << iota
	conflictBind
	conflictSpace
	conflictPVMissing
)

// staticBinding is an available volume chosen for a claim.
type staticBinding struct {
	claim *vbClaim
	pv    *vbVolume
}

// dynamicProvision is a claim to provision, with the capacity that
// allowed it (nil when no capacity check applied).
type dynamicProvision struct {
	claim    *vbClaim
	capacity *api.CSIStorageCapacity
}

// nodeVolumes is upstream's PodVolumes for one node: the static
// bindings and dynamic provisions the pod would get there. The buffers
// let a few claims be handled without allocating.
type nodeVolumes struct {
	static  []staticBinding
	dynamic []dynamicProvision

	staticBuf  [4]staticBinding
	dynamicBuf [4]dynamicProvision
	chosenBuf  [4]*vbVolume
	provBuf    [4]*vbClaim
}

// scratchVolumes returns a nodeVolumes to pass to find; give it back
// with release.
func (p *podVolumes) scratchVolumes() *nodeVolumes {
	if nv, ok := p.scratch.Get().(*nodeVolumes); ok {
		return nv
	}
	return new(nodeVolumes)
}

// release returns nv to p's pool.
func (p *podVolumes) release(nv *nodeVolumes) {
	nv.reset()
	p.scratch.Put(nv)
}

func (nv *nodeVolumes) reset() {
	nv.static, nv.dynamic = nv.staticBuf[:0], nv.dynamicBuf[:0]
}

// find is upstream's FindPodVolumes for node: the conflicts (flags) and
// the volumes the pod would get, in nv, or the binder's error.
func (p *podVolumes) find(node *api.Node, nv *nodeVolumes) (uint8, error) {
	nv.reset()
	var conflicts uint8
	var csiNode *api.CSINode
	if p.objs != nil {
		csiNode, _ = cluster.GetObject[api.CSINode](p.objs, "", node.Name)
	}
	for i := range p.bound {
		b := &p.bound[i]
		if b.pv == nil {
			conflicts |= conflictPVMissing
			break
		}
		v, err := b.volumeOn(csiNode)
		if err != nil {
			nv.reset()
			return 0, err
		}
		if !v.fits(node) {
			conflicts |= conflictNode
			break
		}
	}
	if len(p.delay) == 0 {
		return conflicts, nil
	}
	provision := nv.provBuf[:0]
	for _, c := range p.delay {
		if c.hasSelected {
			if c.selectedNode != node.Name {
				return conflicts | conflictBind, nil
			}
			provision = append(provision, c)
		}
	}
	if len(p.matching) > 0 {
		chosen := nv.chosenBuf[:0]
		all := true
		for _, c := range p.matching {
			v, err := c.findMatchingVolume(node, chosen)
			if err != nil {
				nv.reset()
				return 0, err
			}
			if v == nil {
				provision = append(provision, c)
				all = false
				continue
			}
			chosen = append(chosen, v)
			nv.static = append(nv.static, staticBinding{claim: c, pv: v})
		}
		if !all {
			conflicts |= conflictBind
		}
	}
	if len(provision) == 0 {
		return conflicts, nil
	}
	// Provisioning decides the unbound claims' outcome, replacing the
	// matching's.
	conflicts &^= conflictBind
	for _, c := range provision {
		if c.provErr != nil {
			nv.reset()
			return 0, c.provErr
		}
		if !c.provisionable || !c.topology.matches(node.Labels) {
			nv.dynamic = nv.dynamic[:0]
			return conflicts | conflictBind, nil
		}
		ok, capacity := c.hasCapacity(node)
		if !ok {
			nv.dynamic = nv.dynamic[:0]
			return conflicts | conflictSpace, nil
		}
		nv.dynamic = append(nv.dynamic, dynamicProvision{claim: c, capacity: capacity})
	}
	return conflicts, nil
}
