package manifest

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/workload"
)

// claimNameStream is the PCG stream of the names of the claims the
// resourceclaim controller creates.
const claimNameStream = 0x636c61696d6e616d

// resourceClaimsResource is the quota resource of ResourceClaims
// (count/resourceclaims.resource.k8s.io).
const resourceClaimsResource = "resourceclaims.resource.k8s.io"

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
	// Report lists the skipped kinds, warnings and rejected pods.
	Report *Report
}

// Load reads the paths (files, folders, "-" for opts.Stdin) and builds
// the Cluster. Any read error fails the load (every error is returned,
// joined); pods the API server would reject are not errors but
// Report.Rejected.
func Load(ctx context.Context, opts Options, paths ...string) (*Cluster, error) {
	objs, rep, err := ReadFiles(opts, paths...)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return NewCluster(objs, rep, opts)
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
// Pods in phase Succeeded or Failed are counted and left out, as the
// scheduler ignores them.
//
// Each pod then goes through the resourceclaim controller
// (workload.ClaimController): the claims of its resourceClaimTemplateName
// entries are created (ResourceQuota counting
// count/resourceclaims.resource.k8s.io) and stored, and the pod gets its
// status.resourceClaimStatuses; a pod whose template is missing gets the
// controller's FailedResourceClaimCreation event as a warning and stays
// without a claim.
//
// With opts.ExpandWorkloads, the pods the workload controllers would
// create now (workload.Expand, which states the controllers' rules, over
// Workloads(objs, opts)) are added as new pods after those read, with
// warnings where a controller could not act as upstream's does. The
// created pods are not defaulted beyond what admission does for any new
// pod. The pods and ReplicaSets read are not changed: an adopted pod
// keeps its owner references.
func NewCluster(objs *Set, rep *Report, opts Options) (*Cluster, error) {
	if rep == nil {
		rep = &Report{Skipped: map[string]int{}}
	}
	classes := make([]api.PriorityClass, len(objs.PriorityClasses))
	known := map[string]bool{admission.SystemClusterCritical: true, admission.SystemNodeCritical: true}
	for i, pc := range objs.PriorityClasses {
		classes[i] = *pc
		known[pc.Name] = true
	}
	rangesByNS := map[string][]api.LimitRange{}
	for _, lr := range objs.LimitRanges {
		rangesByNS[lr.Namespace] = append(rangesByNS[lr.Namespace], *lr)
	}
	var allRanges []api.LimitRange
	for _, lr := range objs.LimitRanges {
		allRanges = append(allRanges, *lr)
	}
	// ResourceQuota: quotas without a status get the one the quota
	// controller would write, measured on the stored objects; new pods
	// are then charged one after another in reading order (creation
	// order), each seeing the ones before it.
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	existing := admission.NamespaceObjects{Services: objs.Services, Claims: objs.PersistentVolumeClaims, Now: now}
	for _, c := range objs.ResourceClaims {
		existing.Others = append(existing.Others, admission.Counted{Resource: resourceClaimsResource, Meta: &c.ObjectMeta})
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
	chain := admission.NewChain(admission.Policies{PriorityClasses: classes, LimitRanges: allRanges,
		ResourceQuotas: admission.FillQuotaStatus(quotas, existing)}, now)
	// The resourceclaim controller makes the claims of the pods' template
	// entries once the pods are created; ResourceQuota admits each claim.
	claimCtl := workload.NewClaimController(nameRand(opts.Seed, claimNameStream), objs.ResourceClaimTemplates, objs.ResourceClaims)
	claimCtl.SetCreate(func(c *api.ResourceClaim) error {
		return chain.AdmitObject(admission.Counted{Resource: resourceClaimsResource, Meta: &c.ObjectMeta}, c.Namespace)
	})
	var createdClaims []any
	missing := map[string][]*api.Pod{}
	var missingOrder []string
	var bound, pending []*api.Pod
	pods := objs.Pods
	if opts.ExpandWorkloads {
		expanded, warnings := expandWorkloads(objs, opts)
		pods = append(pods[:len(pods):len(pods)], expanded...)
		rep.Warnings = append(rep.Warnings, warnings...)
	}
	for _, p := range pods {
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
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
				ready = p.DeepCopy()
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
				createdClaims = append(createdClaims, c)
			}
			if sync.Event != "" {
				rep.Warnings = append(rep.Warnings, Warning{Source: src, Object: "Pod " + podName(p),
					Message: workload.FailedResourceClaimCreation + ": " + sync.Event})
			}
		}
		if ready.Spec.NodeName != "" {
			bound = append(bound, ready)
		} else {
			pending = append(pending, ready)
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
	sort.SliceStable(pending, func(i, j int) bool { return priorityOf(pending[i]) > priorityOf(pending[j]) })
	snap, err := cluster.NewSnapshot(objs.Nodes, bound)
	if err != nil {
		return nil, err
	}
	if err := snap.AddObjects(append(objs.storeObjects(), createdClaims...)...); err != nil {
		return nil, err
	}
	return &Cluster{Snapshot: snap, Pending: pending, Objects: objs, Report: rep}, nil
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
