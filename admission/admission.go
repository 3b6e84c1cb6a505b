package admission

import (
	"errors"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

// Priorities of the system classes the API server creates at start-up.
const (
	SystemClusterCritical         = "system-cluster-critical"
	SystemNodeCritical            = "system-node-critical"
	SystemClusterCriticalPriority = int32(2000000000)
	SystemNodeCriticalPriority    = int32(2000001000)
)

// ErrPriorityClassNotFound is returned (wrapped) when a pod names a
// PriorityClass that does not exist.
var ErrPriorityClassNotFound = errors.New("priority class not found")

// Policies are the cluster objects admission reads: the LimitRanges,
// PriorityClasses and ResourceQuotas that shape a new pod.
type Policies struct {
	// LimitRanges of the pod's namespace (others are ignored).
	LimitRanges []api.LimitRange
	// PriorityClasses of the cluster; the two system classes are added
	// when absent.
	PriorityClasses []api.PriorityClass
	// ResourceQuotas of the pod's namespace (others are ignored), with
	// their status (see FillQuotaStatus); Admit checks a new pod against
	// them last, as the ResourceQuota plugin does (CheckQuota). Use a
	// Chain to keep their usage across admissions.
	ResourceQuotas []api.ResourceQuota
	// LimitedResources is the ResourceQuota plugin's configuration
	// (see CheckQuotaLimited); none by default.
	LimitedResources []LimitedResource
}

// Default applies the API server's defaulting that matters to
// scheduling, in place: requests default to limits in every container
// (resource.DefaultRequestsFromLimits), an empty schedulerName becomes
// "default-scheduler", an empty container port protocol becomes TCP, and
// with hostNetwork every container port without a hostPort gets its
// containerPort as hostPort.
func Default(pod *api.Pod) {
	resource.DefaultRequestsFromLimits(pod)
	if pod.Spec.SchedulerName == "" {
		pod.Spec.SchedulerName = config.DefaultSchedulerName
	}
	for _, cs := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			for j := range cs[i].Ports {
				p := &cs[i].Ports[j]
				if p.Protocol == "" {
					p.Protocol = api.ProtocolTCP
				}
				if pod.Spec.HostNetwork && p.HostPort == 0 {
					p.HostPort = p.ContainerPort
				}
			}
		}
	}
}

// MergeLabelKeys merges every pod (anti-)affinity term's matchLabelKeys
// and mismatchLabelKeys into its label selector, in place, as the API
// server's pod strategy does on create (see affinity.MergeLabelKeys).
func MergeLabelKeys(pod *api.Pod) {
	a := pod.Spec.Affinity
	if a == nil {
		return
	}
	merge := func(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) {
		for i := range req {
			req[i] = affinity.MergeLabelKeys(req[i], pod.Labels)
		}
		for i := range pref {
			pref[i].PodAffinityTerm = affinity.MergeLabelKeys(pref[i].PodAffinityTerm, pod.Labels)
		}
	}
	if a.PodAffinity != nil {
		merge(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if a.PodAntiAffinity != nil {
		merge(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
}

// ForbiddenError is an admission plugin's rejection of an object, printed
// as the API server prints its Forbidden status: `pods "web" is
// forbidden: <reason>`. errors.Is and errors.As see Reason through Unwrap.
type ForbiddenError struct {
	// Resource is the object's resource, such as "pods".
	Resource string
	// Name is the object's name as the API server names it (see
	// resource.AdmissionName).
	Name string
	// Reason is the plugin's error.
	Reason error
}

// Error returns the API server's message.
func (e *ForbiddenError) Error() string {
	return resource.ForbiddenMessage(e.Resource, e.Name, e.Reason.Error())
}

// Unwrap returns Reason.
func (e *ForbiddenError) Unwrap() error { return e.Reason }

func forbiddenPod(pod *api.Pod, reason error) error {
	return &ForbiddenError{Resource: "pods", Name: resource.AdmissionName(&pod.ObjectMeta), Reason: reason}
}

// classNotFound is the Priority plugin's reason for a missing class; it
// wraps ErrPriorityClassNotFound but prints upstream's text.
type classNotFound string

func (c classNotFound) Error() string {
	return fmt.Sprintf("no PriorityClass with name %s was found", string(c))
}

func (c classNotFound) Unwrap() error { return ErrPriorityClassNotFound }

// ResolvePriority is the Priority admission plugin on pod creation, in
// place: the named class (or, with no name, the global default class with
// the lowest value, or priority 0 when there is none) sets
// spec.priorityClassName, spec.priority and, when the class has one,
// spec.preemptionPolicy. A pod that already carries a different priority
// or preemption policy is rejected, as upstream rejects it on create,
// with a *ForbiddenError printed as the API server prints it (`pods "p"
// is forbidden: no PriorityClass with name x was found`). For a pod that
// is already stored use ResolveStoredPriority.
func ResolvePriority(pod *api.Pod, classes []api.PriorityClass) error {
	name := pod.Spec.PriorityClassName
	var value int32
	policy := new(api.PreemptionPolicy)
	*policy = api.PreemptLowerPriority
	if name == "" {
		var def *api.PriorityClass
		for i := range classes {
			if classes[i].GlobalDefault && (def == nil || classes[i].Value < def.Value) {
				def = &classes[i]
			}
		}
		if def != nil {
			name, value, policy = def.Name, def.Value, classPolicy(def)
		}
	} else {
		pc := findClass(classes, name)
		if pc == nil {
			return forbiddenPod(pod, classNotFound(name))
		}
		value, policy = pc.Value, classPolicy(pc)
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != value {
		return forbiddenPod(pod, fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, value))
	}
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != *policy {
		return forbiddenPod(pod, fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pod.Spec.PreemptionPolicy, *policy))
	}
	pod.Spec.PriorityClassName = name
	pod.Spec.Priority = &value
	pod.Spec.PreemptionPolicy = policy
	return nil
}

// ResolveStoredPriority is the Priority admission plugin for a pod the
// API server has already stored (its update path), in place: a pod with
// spec.priority set keeps its priority and preemption policy as stored,
// whatever its class says today and even when the class no longer
// exists. A pod without spec.priority (one that never went through the
// API server) is resolved as on create by ResolvePriority.
func ResolveStoredPriority(pod *api.Pod, classes []api.PriorityClass) error {
	if pod.Spec.Priority == nil {
		return ResolvePriority(pod, classes)
	}
	if pod.Spec.PreemptionPolicy == nil {
		p := api.PreemptLowerPriority
		pod.Spec.PreemptionPolicy = &p
	}
	return nil
}

// classPolicy is the class's preemption policy as the API server
// defaults it (PreemptLowerPriority when unset).
func classPolicy(pc *api.PriorityClass) *api.PreemptionPolicy {
	p := api.PreemptLowerPriority
	if pc.PreemptionPolicy != nil {
		p = *pc.PreemptionPolicy
	}
	return &p
}

func findClass(classes []api.PriorityClass, name string) *api.PriorityClass {
	for i := range classes {
		if classes[i].Name == name {
			return &classes[i]
		}
	}
	switch name {
	case SystemClusterCritical:
		return &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: SystemClusterCriticalPriority}
	case SystemNodeCritical:
		return &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: SystemNodeCriticalPriority}
	}
	return nil
}

// Admit returns the pod as the API server would store it on create: a
// copy of pod with the API server's defaulting (Default), then the
// mutating admission plugins in upstream's order — LimitRanger's defaults,
// Priority (ResolvePriority), DefaultTolerationSeconds
// (AddDefaultTolerations) — then the pod strategy's matchLabelKeys merges
// (MergeLabelKeys for pod affinity, MergeSpreadLabelKeys for topology
// spread constraints), its status reset to Pending and its pod-level
// resources defaulted (resource.DefaultPodLevelResources), then
// LimitRanger's validation
// (resource.ApplyLimitRanges does both LimitRanger phases; its defaults
// do not change what Priority sees, so the order of the outcome is
// upstream's), then the ResourceQuota plugin on objs.ResourceQuotas
// (CheckQuota; their usage is not kept: use a Chain for that). pod is
// never modified; on error nothing is returned, and the error is the
// first plugin's rejection, printed as the API server prints it (a
// *ForbiddenError or a *resource.ForbiddenError). Object validation
// (resource.Validate), which the API server runs between the mutating
// plugins and LimitRanger's validation, is not part of Admit.
func Admit(pod *api.Pod, objs Policies) (*api.Pod, error) {
	return admit(pod, objs, false)
}

// AdmitStored returns the pod as schedkit should read a pod that the API
// server has already stored (read back from a cluster, or bound with
// spec.nodeName): a copy with Default, ResolveStoredPriority (a stored
// priority is kept as it is), AddDefaultTolerations (the plugin runs on
// update too, so a stored pod already has them), MergeLabelKeys and
// MergeSpreadLabelKeys (which change nothing in a stored pod). LimitRanger and ResourceQuota
// do not run: they act on creation. pod is never modified.
func AdmitStored(pod *api.Pod, objs Policies) (*api.Pod, error) {
	return admit(pod, objs, true)
}

func admit(pod *api.Pod, objs Policies, stored bool) (*api.Pod, error) {
	if pod == nil {
		return nil, errors.New("admission: nil pod")
	}
	p := pod.DeepCopy()
	if p.Namespace == "" {
		p.Namespace = "default"
	}
	Default(p)
	if stored {
		if err := ResolveStoredPriority(p, objs.PriorityClasses); err != nil {
			return nil, err
		}
		AddDefaultTolerations(p)
		MergeLabelKeys(p)
		MergeSpreadLabelKeys(p)
		return p, nil
	}
	// The pod strategy's PrepareForCreate: a new pod's status is the
	// API server's, whatever the manifest says.
	p.Status = api.PodStatus{Phase: api.PodPending}
	if err := ResolvePriority(p, objs.PriorityClasses); err != nil {
		return nil, err
	}
	AddDefaultTolerations(p)
	MergeLabelKeys(p)
	MergeSpreadLabelKeys(p)
	var ranges []api.LimitRange
	for _, lr := range objs.LimitRanges {
		if lr.Namespace == "" || lr.Namespace == p.Namespace {
			ranges = append(ranges, lr)
		}
	}
	if len(ranges) > 0 {
		if err := resource.ApplyLimitRanges(p, ranges); err != nil {
			return nil, err
		}
	} else {
		resource.DefaultPodLevelResources(p)
	}
	var quotas []api.ResourceQuota
	for _, q := range objs.ResourceQuotas {
		if q.Namespace == "" || q.Namespace == p.Namespace {
			quotas = append(quotas, q)
		}
	}
	if len(quotas) > 0 || len(objs.LimitedResources) > 0 {
		if _, err := CheckQuotaLimited(quotas, CountedPod(p), time.Now(), objs.LimitedResources); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// IsStored reports whether a pod has been through an API server: it has
// a uid, a resourceVersion, a creationTimestamp, or spec.priority already
// set (which only the Priority admission plugin sets). A pod that is not
// stored is new: Admit makes it what the API server would store.
func IsStored(p *api.Pod) bool {
	return p.UID != "" || p.ResourceVersion != "" || !p.CreationTimestamp.IsZero() || p.Spec.Priority != nil
}
