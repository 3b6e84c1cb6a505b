package manifest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/workload"
)

// claimNameStream is the PCG stream of the names of the claims the
// resourceclaim controller creates.
const claimNameStream = 0x636c61696d6e616d

// Cluster is what Load builds from manifests: the snapshot of nodes and
// bound pods, the pending pods in the order kube-scheduler's queue would
// take them, the objects read, and the report of what was not taken as
// it was.
type Cluster struct {
	// Snapshot holds the nodes and the bound, non-terminal pods.
	Snapshot *cluster.Snapshot
	// Pending are the pods without spec.nodeName, as the API server
	// stores them (new pods admitted), in queue order: higher
	// spec.priority first, then the order they were read (kube-scheduler's
	// PrioritySort orders by priority, then by the time a pod entered the
	// queue; reading order stands for arrival).
	Pending []*api.Pod
	// Objects are the objects as read.
	Objects *Set
	// ControllerRevisions are the revisions the StatefulSet and DaemonSet
	// controllers create (workload.Created): objects of the cluster that
	// the scheduler does not read, so not in the snapshot's store.
	ControllerRevisions []*api.ControllerRevision
	// Report lists the skipped kinds, warnings and rejected pods.
	Report *Report
}

// Load reads the paths (files, folders, "-" for opts.Stdin) and builds
// the Cluster. Any read error fails the load (every error is returned,
// joined); pods the API server would reject are not errors but
// Report.Rejected. A done ctx stops the reading within one buffer's read,
// also in the middle of a large file, and Load returns ctx.Err().
func Load(ctx context.Context, opts Options, paths ...string) (*Cluster, error) {
	objs, rep, err := readFiles(ctx, opts, paths...)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		return nil, err
	}
	c, err := newCluster(ctx, objs, rep, opts)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	return c, err
}

// IsStored reports whether a pod has been through an API server: it has a
// uid, a resourceVersion, a creationTimestamp, or spec.priority already
// set (which only the Priority admission plugin sets). Stored pods are
// taken as they are; others are admitted as new.
func IsStored(p *api.Pod) bool {
	return p.UID != "" || p.ResourceVersion != "" || !p.CreationTimestamp.IsZero() || p.Spec.Priority != nil
}

// NewCluster builds a Cluster from objects already read; rep (nil for a
// new one) receives the warnings and rejections. Stored pods are taken as
// they are, except that a stored pod without spec.priority gets its
// PriorityClass's value; a stored pod naming a PriorityClass that is not
// among the objects keeps its spec.priority, with a warning. New pods go
// through admission.Admit (defaulting, LimitRanger, Priority,
// DefaultTolerationSeconds, matchLabelKeys), validation and the
// ResourceQuota plugin (charged in reading order, see Options.Now); those
// rejected are reported and left out.
// Stored pods in phase Succeeded or Failed are counted and left out, as
// the scheduler ignores them; a new pod's status is reset on create (a
// manifest's status.phase Succeeded makes a Pending pod, charged in full
// to quota).
//
// Each pod then goes through the resourceclaim controller
// (workload.ClaimController): the claims of its resourceClaimTemplateName
// entries are created (ResourceQuota charging them as its ResourceClaim
// evaluator does: admission.ResourceClaimQuotaUsage) and stored, and the
// pod gets its status.resourceClaimStatuses; a pod whose template is
// missing, or whose claim quota refuses, gets the controller's
// FailedResourceClaimCreation event as a warning and stays without a
// claim. New ResourceClaims read (no uid, resourceVersion or
// creationTimestamp) are admitted by ResourceQuota before the pods; a
// refused one is reported and not stored.
//
// Stored ResourceClaims first go through the resourceclaim
// controller's cleanup (workload.ReleaseClaims): reservations of pods
// read that are done (Succeeded, Failed, deleted before being
// scheduled) or replaced (another uid) are dropped, a claim left
// unreserved is deallocated when it has the controller's finalizer, and
// an unreserved claim generated for such a pod is deleted; each change is in Report.ReleasedClaims. A pod that
// is not among the objects is taken as not read: its reservations and
// claims stay.
//
// With opts.ExpandWorkloads, the pods the workload controllers would
// create now (workload.ExpandAll, which states the controllers' rules,
// over Workloads(objs, opts)) are added as new pods after those read,
// with warnings where a controller could not act as upstream's does. The
// other objects they create on the way join the snapshot's object store,
// as they exist in a cluster before the pods: Deployments' new
// ReplicaSets (whose selectors the default spreading reads), and
// StatefulSets' claims, admitted as the API server admits them
// (admission.AdmitClaim, then ResourceQuota); a pod whose claim is
// rejected is not created, with a warning. LimitRanges are used
// defaulted as the API server stores them (resource.DefaultLimitRange). The
// created pods are not defaulted beyond what admission does for any new
// pod. The claims of pods' ephemeral volumes that are not among the
// objects are created as the ephemeral volume controller creates them
// (<pod>-<volume>, owned by the pod) and admitted as any claim. The
// ControllerRevisions created are in Cluster.ControllerRevisions.
// The pods and ReplicaSets read are not changed: an adopted pod
// keeps its owner references.
func NewCluster(objs *Set, rep *Report, opts Options) (*Cluster, error) {
	return newCluster(context.Background(), objs, rep, opts)
}

// newCluster is NewCluster stopped by ctx every 512 pods.
func newCluster(ctx context.Context, objs *Set, rep *Report, opts Options) (*Cluster, error) {
	if rep == nil {
		rep = &Report{Skipped: map[string]int{}}
	}
	read := objs
	objs = withExistingNamespaces(objs, rep)
	objs = releaseClaims(objs, rep)
	classes := make([]api.PriorityClass, len(objs.PriorityClasses))
	known := map[string]bool{admission.SystemClusterCritical: true, admission.SystemNodeCritical: true}
	for i, pc := range objs.PriorityClasses {
		classes[i] = *pc
		known[pc.Name] = true
	}
	// New PodGroups get their priority from their class, as the
	// Priority admission plugin gives it with GenericWorkload on.
	if len(objs.PodGroups) > 0 {
		objs = admitPodGroups(objs, classes, rep)
	}
	// LimitRanges as the API server stores them: defaulted on create
	// (a stored one is already, and defaulting it again changes nothing).
	rangesByNS := map[string][]api.LimitRange{}
	var allRanges []api.LimitRange
	for _, lr := range objs.LimitRanges {
		d := *lr
		d.Spec.Limits = make([]api.LimitRangeItem, len(lr.Spec.Limits))
		for i, it := range lr.Spec.Limits {
			it.Default, it.DefaultRequest = maps.Clone(it.Default), maps.Clone(it.DefaultRequest)
			d.Spec.Limits[i] = it
		}
		resource.DefaultLimitRange(&d)
		rangesByNS[d.Namespace] = append(rangesByNS[d.Namespace], d)
		allRanges = append(allRanges, d)
	}
	// ResourceQuota: quotas without a status get the one the quota
	// controller would write, measured on the stored objects; new pods
	// are then charged one after another in reading order (creation
	// order), each seeing the ones before it.
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	existing := admission.NamespaceObjects{Services: objs.Services, Now: now, DeviceClasses: objs.DeviceClasses}
	var newResourceClaims []*api.ResourceClaim
	for _, c := range objs.ResourceClaims {
		if isStoredMeta(&c.ObjectMeta) {
			existing.ResourceClaims = append(existing.ResourceClaims, c)
		} else {
			newResourceClaims = append(newResourceClaims, c)
		}
	}
	var newClaims []*api.PersistentVolumeClaim
	for _, c := range objs.PersistentVolumeClaims {
		if isStoredMeta(&c.ObjectMeta) {
			existing.Claims = append(existing.Claims, c)
		} else {
			newClaims = append(newClaims, c)
		}
	}
	for _, p := range objs.Pods {
		if IsStored(p) {
			existing.Pods = append(existing.Pods, p)
		}
	}
	quotas := make([]api.ResourceQuota, len(objs.ResourceQuotas))
	for i, q := range objs.ResourceQuotas {
		quotas[i] = *q
	}
	var limited []admission.LimitedResource
	if opts.Admission != nil {
		limited = opts.Admission.LimitedResources
	}
	chain := admission.NewChain(admission.Policies{PriorityClasses: classes, LimitRanges: allRanges,
		ResourceQuotas: admission.FillQuotaStatus(quotas, existing), LimitedResources: limited}, now)
	// The resourceclaim controller makes the claims of the pods' template
	// entries once the pods are created; ResourceQuota admits each claim.
	claimCtl := workload.NewClaimController(nameRand(opts.Seed, claimNameStream), objs.ResourceClaimTemplates, objs.ResourceClaims)
	dq := &admission.DRAQuota{DeviceClasses: objs.DeviceClasses}
	claimCtl.SetCreate(func(c *api.ResourceClaim) error {
		return chain.AdmitObject(admission.CountedResourceClaim(c, dq), c.Namespace)
	})
	missing := map[string][]*api.Pod{}
	var missingOrder []string
	var bound, storedPending, newPending []*api.Pod
	var created *workload.Created
	if opts.ExpandWorkloads {
		var warnings []Warning
		created, warnings = expandWorkloads(objs, opts)
		rep.Warnings = append(rep.Warnings, warnings...)
	}
	// New claims read are created as the API server creates them
	// (DefaultStorageClass, LimitRanger, ResourceQuota): the admitted
	// copy is the one stored; a rejected one is reported and not stored.
	// Then the pods read are created (kubectl applies them), then what
	// the controllers create: the claims, then the pods.
	replaced := map[any]any{}
	for _, c := range newClaims {
		a, err := admission.AdmitClaim(c, objs.StorageClasses, allRanges)
		if err == nil {
			err = chain.AdmitObject(admission.CountedClaim(a), a.Namespace)
		}
		if err != nil {
			src, _ := objs.Source(c)
			rep.Rejected = append(rep.Rejected, Rejection{Source: src, Object: "PersistentVolumeClaim " + c.Namespace + "/" + c.Name, Err: err})
			replaced[c] = nil
			continue
		}
		replaced[c] = a
	}
	// New ResourceClaims read are created as kubectl creates them: the
	// ResourceClaim quota evaluator charges them; a rejected one is
	// reported and not stored.
	for _, c := range newResourceClaims {
		if err := chain.AdmitObject(admission.CountedResourceClaim(c, dq), c.Namespace); err != nil {
			src, _ := objs.Source(c)
			rep.Rejected = append(rep.Rejected, Rejection{Source: src, Object: "ResourceClaim " + c.Namespace + "/" + c.Name, Err: err})
			replaced[c] = nil
		}
	}
	pods := objs.Pods
	var createdObjects []any
	for phase := 0; phase < 2; phase++ {
		if phase == 1 {
			if created == nil {
				break
			}
			claims, expanded := admitClaims(objs, created, allRanges, chain, rep)
			pods = expanded
			for _, rs := range created.ReplicaSets {
				createdObjects = append(createdObjects, rs)
			}
			for _, c := range claims {
				createdObjects = append(createdObjects, c)
			}
		}
		for i, p := range pods {
			if i%512 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if IsStored(p) && (p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed) {
				// A new pod's status is reset on create (admission.Admit).
				rep.TerminalPods++
				continue
			}
			src, _ := objs.Source(p)
			var ready *api.Pod
			if IsStored(p) {
				ready = p
				if name := p.Spec.PriorityClassName; name != "" && !known[name] {
					if missing[name] == nil {
						missingOrder = append(missingOrder, name)
					}
					missing[name] = append(missing[name], p)
				} else if p.Spec.Priority == nil {
					// ResolvePriority sets three fields of the spec
					// itself: a shallow copy keeps the pod read as it
					// was without copying what it points to, unless
					// the caller does not need it as read.
					if !opts.PriorityInPlace {
						cp := *p
						ready = &cp
					}
					if err := admission.ResolvePriority(ready, classes); err != nil {
						return nil, &Error{Source: src, Object: "Pod " + podName(p), Err: err}
					}
				}
			} else {
				a, err := admitNew(p, classes, rangesByNS[p.Namespace], chain)
				if err != nil {
					rep.Rejected = append(rep.Rejected, Rejection{Source: src, Pod: p, Err: err})
					continue
				}
				ready = a
			}
			if sync := claimCtl.Sync(ready); sync.Pod != ready || sync.Event != "" || len(sync.Created) > 0 {
				ready = sync.Pod
				for _, c := range sync.Created {
					createdObjects = append(createdObjects, c)
				}
				if sync.Event != "" {
					rep.Warnings = append(rep.Warnings, Warning{Source: src, Object: "Pod " + podName(p),
						Message: workload.FailedResourceClaimCreation + ": " + sync.Event})
				}
			}
			switch {
			case ready.Spec.NodeName != "":
				bound = append(bound, ready)
			case IsStored(p):
				storedPending = append(storedPending, ready)
			default:
				newPending = append(newPending, ready)
			}
		}
	}
	// The ephemeral volume controller then creates the claims of the
	// pods' ephemeral volumes that do not exist yet.
	have := map[[2]string]bool{}
	for _, c := range objs.PersistentVolumeClaims {
		ns := c.Namespace
		if ns == "" {
			ns = "default"
		}
		have[[2]string{ns, c.Name}] = true
	}
	for _, o := range createdObjects {
		if c, ok := o.(*api.PersistentVolumeClaim); ok {
			have[[2]string{c.Namespace, c.Name}] = true
		}
	}
	for _, l := range [][]*api.Pod{bound, storedPending, newPending} {
		for _, c := range ephemeralClaims(l, have, objs.StorageClasses, allRanges, chain, rep) {
			createdObjects = append(createdObjects, c)
		}
	}
	for _, name := range missingOrder {
		pods := missing[name]
		src, _ := objs.Source(pods[0])
		msg := fmt.Sprintf("PriorityClass %q is not among the objects: %d stored pod(s) keep their spec.priority", name, len(pods))
		if pods[0].Spec.Priority == nil {
			msg = fmt.Sprintf("PriorityClass %q is not among the objects: %d stored pod(s) naming it, the first without spec.priority (taken as 0)", name, len(pods))
		}
		rep.Warnings = append(rep.Warnings, Warning{Source: src, Object: "Pod " + podName(pods[0]), Message: msg})
	}
	// The informers list what is stored in the API server's order, by
	// namespace and name: kube-scheduler's node tree and caches are
	// filled that way, and the stored pending pods enter the queue that
	// way when it starts. New pods enter it as they are created, in
	// reading order (kubectl applies a file in order), then the
	// controllers' pods.
	sortByKey(storedPending, func(p *api.Pod) (string, string) { return p.Namespace, p.Name })
	pending := append(storedPending, newPending...)
	sort.SliceStable(pending, func(i, j int) bool { return priorityOf(pending[i]) > priorityOf(pending[j]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nodes := slices.Clone(objs.Nodes)
	sortByKey(nodes, func(n *api.Node) (string, string) { return "", n.Name })
	sortByKey(bound, func(p *api.Pod) (string, string) { return p.Namespace, p.Name })
	snap, err := cluster.NewSnapshotContext(ctx, nodes, bound)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var store []any
	for _, o := range objs.storeObjects() {
		if a, ok := replaced[o]; ok {
			if a == nil {
				continue
			}
			o = a
		}
		store = append(store, o)
	}
	store = append(store, createdObjects...)
	sortByKey(store, objectKeyOf)
	if err := snap.AddObjects(store...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var revisions []*api.ControllerRevision
	if created != nil {
		revisions = created.ControllerRevisions
	}
	return &Cluster{Snapshot: snap, Pending: pending, Objects: read, ControllerRevisions: revisions, Report: rep}, nil
}

func priorityOf(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// admitNew is the API server's create path for a new pod: the mutating
// admission plugins and LimitRanger (admission.Admit), validation, then
// the ResourceQuota plugin through chain, which charges the pod's
// namespace's quotas when it is admitted. Its errors are the API
// server's answers.
func admitNew(p *api.Pod, classes []api.PriorityClass, ranges []api.LimitRange, chain *admission.Chain) (*api.Pod, error) {
	a, err := admission.Admit(p, admission.Policies{PriorityClasses: classes, LimitRanges: ranges})
	if err != nil {
		return nil, err
	}
	if err := validatePod(a); err != nil {
		return nil, err
	}
	if err := chain.AdmitObject(admission.CountedPod(a), a.Namespace); err != nil {
		return nil, err
	}
	return a, nil
}

// sortByKey sorts l stably by the namespace and name key gives, as the
// API server lists objects (etcd keys: cluster-scoped objects by name).
// Each element's key is taken once; a list already in order (a dump
// kubectl wrote) is left as it is.
func sortByKey[T any](l []T, key func(T) (string, string)) {
	type keyed struct {
		ns, name string
		i        int
		v        T
	}
	ks := make([]keyed, len(l))
	sorted := true
	for i, v := range l {
		ns, name := key(v)
		ks[i] = keyed{ns, name, i, v}
		if i > 0 && compareKeys(ks[i-1].ns, ks[i-1].name, ns, name) > 0 {
			sorted = false
		}
	}
	if sorted {
		return
	}
	// Equal keys keep their reading order: the index breaks ties, so the
	// unstable sort (pattern-defeating quicksort, far cheaper than the
	// stable merge on tens of thousands of pods) orders as a stable one.
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := compareKeys(a.ns, a.name, b.ns, b.name); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for i := range ks {
		l[i] = ks[i].v
	}
}

// compareKeys orders namespace and name keys.
func compareKeys(na, ma, nb, mb string) int {
	if c := strings.Compare(na, nb); c != 0 {
		return c
	}
	return strings.Compare(ma, mb)
}

// objectKeyOf is the namespace and name of an object of the store
// (which indexes each kind apart, so only the order within a kind
// matters).
func objectKeyOf(obj any) (string, string) {
	v := reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta")
	if !v.IsValid() {
		return "", ""
	}
	m := v.Addr().Interface().(*api.ObjectMeta)
	return m.Namespace, m.Name
}

// releaseClaims applies the resourceclaim controller's cleanup of the
// stored claims (workload.ReleaseClaims) to objs, recording each change
// in rep; objs is returned when nothing changes.
func releaseClaims(objs *Set, rep *Report) *Set {
	var stored []*api.ResourceClaim
	for _, c := range objs.ResourceClaims {
		if isStoredMeta(&c.ObjectMeta) {
			stored = append(stored, c)
		}
	}
	rels := workload.ReleaseClaims(stored, objs.Pods)
	if len(rels) == 0 {
		return objs
	}
	by := make(map[*api.ResourceClaim]*api.ResourceClaim, len(rels))
	for _, r := range rels {
		by[r.Claim] = r.Updated
	}
	out := *objs
	out.ResourceClaims = make([]*api.ResourceClaim, 0, len(objs.ResourceClaims))
	for _, c := range objs.ResourceClaims {
		if u, ok := by[c]; ok {
			if u == nil {
				continue
			}
			c = u
		}
		out.ResourceClaims = append(out.ResourceClaims, c)
	}
	rep.ReleasedClaims = append(rep.ReleasedClaims, rels...)
	return &out
}
