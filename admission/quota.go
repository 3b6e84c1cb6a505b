package admission

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
)

// Resource names a ResourceQuota limits, beyond the container resources
// (cpu, memory, requests.*, limits.*, hugepages-*).
const (
	QuotaPods                   api.ResourceName = "pods"
	QuotaServices               api.ResourceName = "services"
	QuotaServicesLoadBalancers  api.ResourceName = "services.loadbalancers"
	QuotaServicesNodePorts      api.ResourceName = "services.nodeports"
	QuotaPersistentVolumeClaims api.ResourceName = "persistentvolumeclaims"
	QuotaRequestsStorage        api.ResourceName = "requests.storage"
	QuotaConfigMaps             api.ResourceName = "configmaps"
	QuotaResourceQuotas         api.ResourceName = "resourcequotas"
	QuotaReplicationControllers api.ResourceName = "replicationcontrollers"
	QuotaSecrets                api.ResourceName = "secrets"
)

// StorageClassSuffix joins a StorageClass name and a claim resource in a
// per-class quota name: "gold" + StorageClassSuffix + "requests.storage".
const StorageClassSuffix = ".storageclass.storage.k8s.io/"

// deviceClassPrefix marks DRA extended resources backed by a device class.
const deviceClassPrefix = "deviceclass.resource.kubernetes.io/"

// Resources of the kinds the core evaluators know.
const (
	ResourcePods                   = "pods"
	ResourceServices               = "services"
	ResourcePersistentVolumeClaims = "persistentvolumeclaims"
)

// CountResourceName is the object-count quota name of a resource given as
// "<plural>" (core group) or "<plural>.<group>": count/pods,
// count/deployments.apps.
func CountResourceName(resource string) api.ResourceName {
	return api.ResourceName("count/" + resource)
}

// Counted is an object being created that ResourceQuotas may count.
// Resource is its resource, "<plural>" in the core group or
// "<plural>.<group>" ("pods", "services", "persistentvolumeclaims",
// "deployments.apps", "configmaps"); Object is the *api.Pod,
// *api.Service or *api.PersistentVolumeClaim for the first three, the
// *api.ResourceClaim for "resourceclaims.resource.k8s.io" (use
// CountedResourceClaim; nil charges the count alone), and may be nil for
// the others, which are only counted (count/<resource>,
// and the legacy names configmaps, secrets, resourcequotas and
// replicationcontrollers for those core kinds). Meta names the object in
// messages (the Object's metadata when nil).
type Counted struct {
	Resource string
	Object   any
	Meta     *api.ObjectMeta
	// DRA is what a ResourceClaim's evaluation reads besides the claim
	// (CountedResourceClaim); nil for the other kinds.
	DRA *DRAQuota
}

// CountedPod is the Counted of a pod.
func CountedPod(p *api.Pod) Counted {
	return Counted{Resource: ResourcePods, Object: p, Meta: &p.ObjectMeta}
}

// CountedService is the Counted of a service.
func CountedService(s *api.Service) Counted {
	return Counted{Resource: ResourceServices, Object: s, Meta: &s.ObjectMeta}
}

// CountedClaim is the Counted of a persistent volume claim.
func CountedClaim(c *api.PersistentVolumeClaim) Counted {
	return Counted{Resource: ResourcePersistentVolumeClaims, Object: c, Meta: &c.ObjectMeta}
}

// evaluator is one object seen by its kind's quota evaluator
// (pkg/quota/v1/evaluator/core and the generic object counter).
type evaluator interface {
	// matching returns the names of input the evaluator tracks, in
	// input's order.
	matching(input []api.ResourceName) []api.ResourceName
	// matchesScope reports whether the object is in the scope.
	matchesScope(s api.ScopedResourceSelectorRequirement) (bool, error)
	// constraints checks that the object states what required needs.
	constraints(required []api.ResourceName) error
	// usage is the object's charge.
	usage() api.ResourceList
}

func evaluatorFor(c Counted, now time.Time) (evaluator, error) {
	switch c.Resource {
	case ResourcePods:
		p, ok := c.Object.(*api.Pod)
		if !ok || p == nil {
			return nil, fmt.Errorf("admission: Counted %q needs a *api.Pod, got %T", c.Resource, c.Object)
		}
		return podEval{p, now}, nil
	case ResourceServices:
		s, ok := c.Object.(*api.Service)
		if !ok || s == nil {
			return nil, fmt.Errorf("admission: Counted %q needs a *api.Service, got %T", c.Resource, c.Object)
		}
		return serviceEval{s}, nil
	case ResourcePersistentVolumeClaims:
		pvc, ok := c.Object.(*api.PersistentVolumeClaim)
		if !ok || pvc == nil {
			return nil, fmt.Errorf("admission: Counted %q needs a *api.PersistentVolumeClaim, got %T", c.Resource, c.Object)
		}
		return claimEval{pvc}, nil
	case ResourceResourceClaims:
		if c.Object == nil {
			// Counted without the claim: what upstream charges for a
			// claim with no requests.
			return resourceClaimEval{claim: &api.ResourceClaim{}, q: c.DRA, now: now}, nil
		}
		rc, ok := c.Object.(*api.ResourceClaim)
		if !ok || rc == nil {
			return nil, fmt.Errorf("admission: Counted %q needs a *api.ResourceClaim, got %T", c.Resource, c.Object)
		}
		return resourceClaimEval{claim: rc, q: c.DRA, now: now}, nil
	case "":
		return nil, fmt.Errorf("admission: Counted without a resource")
	}
	names := []api.ResourceName{CountResourceName(c.Resource)}
	switch c.Resource {
	case "configmaps", "resourcequotas", "replicationcontrollers", "secrets":
		names = append(names, api.ResourceName(c.Resource))
	}
	return countEval{names}, nil
}

func intersection(input, tracked []api.ResourceName) []api.ResourceName {
	var out []api.ResourceName
	for _, n := range input {
		if slices.Contains(tracked, n) {
			out = append(out, n)
		}
	}
	return out
}

func one() quantity.Quantity { return quantity.NewQuantity(1, quantity.DecimalSI) }

// ---------------------------------------------------------------- pods

type podEval struct {
	pod *api.Pod
	now time.Time
}

var podTracked = []api.ResourceName{
	CountResourceName(ResourcePods),
	api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage,
	"requests.cpu", "requests.memory", "requests.ephemeral-storage",
	"limits.cpu", "limits.memory", "limits.ephemeral-storage",
	QuotaPods,
}

// isQuotaExtended reports a requests.<name> quota of an extended
// resource (non-native, or a device class one).
func isQuotaExtended(n api.ResourceName) bool {
	s := string(n)
	if !strings.HasPrefix(s, "requests.") {
		return false
	}
	return !resource.IsNativeResource(n) || strings.HasPrefix(s, "requests."+deviceClassPrefix)
}

func (e podEval) matching(input []api.ResourceName) []api.ResourceName {
	out := intersection(input, podTracked)
	for _, n := range input {
		if strings.HasPrefix(string(n), api.ResourceHugePagesPrefix) || strings.HasPrefix(string(n), "requests."+api.ResourceHugePagesPrefix) {
			out = append(out, n)
		}
		if isQuotaExtended(n) {
			out = append(out, n)
		}
	}
	return out
}

// IsTerminating reports whether the pod is Terminating to quota scopes:
// spec.activeDeadlineSeconds is set and not negative.
func IsTerminating(p *api.Pod) bool {
	return p.Spec.ActiveDeadlineSeconds != nil && *p.Spec.ActiveDeadlineSeconds >= 0
}

// UsesCrossNamespacePodAffinity reports whether a pod (anti-)affinity
// term, required or preferred, names namespaces or a namespace selector.
func UsesCrossNamespacePodAffinity(p *api.Pod) bool {
	a := p.Spec.Affinity
	if a == nil {
		return false
	}
	cross := func(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) bool {
		for i := range req {
			if len(req[i].Namespaces) != 0 || req[i].NamespaceSelector != nil {
				return true
			}
		}
		for i := range pref {
			if t := &pref[i].PodAffinityTerm; len(t.Namespaces) != 0 || t.NamespaceSelector != nil {
				return true
			}
		}
		return false
	}
	if pa := a.PodAffinity; pa != nil && cross(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	if pa := a.PodAntiAffinity; pa != nil && cross(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	return false
}

// scopeSelectorMatches matches a scope requirement with operator In,
// NotIn, Exists or DoesNotExist against value (absent when !present), as
// a label selector on {scope: value}.
func scopeSelectorMatches(s api.ScopedResourceSelectorRequirement, value string, present bool) (bool, error) {
	var op affinity.Operator
	switch s.Operator {
	case api.ScopeSelectorOpIn:
		op = affinity.OpIn
	case api.ScopeSelectorOpNotIn:
		op = affinity.OpNotIn
	case api.ScopeSelectorOpExists:
		op = affinity.OpExists
	case api.ScopeSelectorOpDoesNotExist:
		op = affinity.OpDoesNotExist
	default:
		return false, fmt.Errorf("failed to parse and convert selector: %q is not a valid scope selector operator", s.Operator)
	}
	r, err := affinity.NewRequirement(string(s.ScopeName), op, s.Values)
	if err != nil {
		return false, fmt.Errorf("failed to parse and convert selector: %v", err)
	}
	var labels map[string]string
	if present {
		labels = map[string]string{string(s.ScopeName): value}
	}
	return r.Matches(labels), nil
}

func (e podEval) matchesScope(s api.ScopedResourceSelectorRequirement) (bool, error) {
	p := e.pod
	switch s.ScopeName {
	case api.ResourceQuotaScopeTerminating:
		return IsTerminating(p), nil
	case api.ResourceQuotaScopeNotTerminating:
		return !IsTerminating(p), nil
	case api.ResourceQuotaScopeBestEffort:
		return qos.Of(p) == api.PodQOSBestEffort, nil
	case api.ResourceQuotaScopeNotBestEffort:
		return qos.Of(p) != api.PodQOSBestEffort, nil
	case api.ResourceQuotaScopePriorityClass:
		if s.Operator == api.ScopeSelectorOpExists {
			return p.Spec.PriorityClassName != "", nil
		}
		return scopeSelectorMatches(s, p.Spec.PriorityClassName, p.Spec.PriorityClassName != "")
	case api.ResourceQuotaScopeCrossNamespacePodAffinity:
		return UsesCrossNamespacePodAffinity(p), nil
	}
	return false, nil
}

// quotaValidation are the resources a pod's every container must state
// when a quota limits them.
var quotaValidation = []api.ResourceName{api.ResourceCPU, api.ResourceMemory, "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"}

func (e podEval) constraints(required []api.ResourceName) error {
	p := e.pod
	if resource.IsPodLevelResourcesSet(p) {
		return nil
	}
	var need []api.ResourceName
	for _, n := range quotaValidation {
		if slices.Contains(required, n) {
			need = append(need, n)
		}
	}
	if len(need) == 0 {
		return nil
	}
	missing := map[api.ResourceName][]string{}
	check := func(c *api.Container) {
		have := containerCharge(c.Resources.Requests, c.Resources.Limits)
		for _, n := range need {
			if _, ok := have[n]; !ok && !slices.Contains(missing[n], c.Name) {
				missing[n] = append(missing[n], c.Name)
			}
		}
	}
	for i := range p.Spec.Containers {
		check(&p.Spec.Containers[i])
	}
	for i := range p.Spec.InitContainers {
		check(&p.Spec.InitContainers[i])
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, string(n))
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		cs := missing[api.ResourceName(n)]
		slices.Sort(cs)
		parts[i] = n + " for: " + strings.Join(cs, ",")
	}
	return fmt.Errorf("must specify %s", strings.Join(parts, "; "))
}

// containerCharge is what one set of requests and limits charges a quota
// (podComputeUsageHelper upstream): pods 1, cpu/memory/ephemeral-storage
// under their bare, requests. and limits. names, huge pages under their
// name and requests., extended resources under requests.
func containerCharge(requests, limits api.ResourceList) api.ResourceList {
	out := api.ResourceList{QuotaPods: one()}
	for _, n := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage} {
		if q, ok := requests[n]; ok {
			out[n] = q
			out["requests."+n] = q
		}
		if q, ok := limits[n]; ok {
			out["limits."+n] = q
		}
	}
	for n, q := range requests {
		if resource.IsHugePageResourceName(n) {
			out[n] = q
			out["requests."+n] = q
		}
		if resource.IsExtendedResourceName(n) || strings.HasPrefix(string(n), deviceClassPrefix) {
			out["requests."+n] = q
		}
	}
	return out
}

// PodQuotaUsage is what a pod charges a ResourceQuota (the pod
// evaluator's usage): count/pods 1 always; for a pod that is not
// Succeeded or Failed, nor past its deletion grace period at now, also
// pods 1 and its requests and limits (resource.PodRequests and PodLimits
// with in-place resize taken into account) under the quota names.
func PodQuotaUsage(p *api.Pod, now time.Time) api.ResourceList {
	out := api.ResourceList{CountResourceName(ResourcePods): one()}
	if !quotaCharged(p, now) {
		return out
	}
	opts := resource.PodResourcesOptions{UseStatusResources: true}
	for n, q := range containerCharge(resource.PodRequests(p, opts), resource.PodLimits(p, opts)) {
		out[n] = q
	}
	return out
}

// quotaCharged is upstream's QuotaV1Pod: terminal pods, and pods whose
// deletion grace period has passed, charge nothing but their count.
func quotaCharged(p *api.Pod, now time.Time) bool {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return false
	}
	if p.DeletionTimestamp != nil && p.DeletionGracePeriodSeconds != nil {
		end := p.DeletionTimestamp.Add(time.Duration(*p.DeletionGracePeriodSeconds) * time.Second)
		if now.After(end) {
			return false
		}
	}
	return true
}

func (e podEval) usage() api.ResourceList { return PodQuotaUsage(e.pod, e.now) }

// ------------------------------------------------------------- services

type serviceEval struct{ svc *api.Service }

var serviceTracked = []api.ResourceName{CountResourceName(ResourceServices), QuotaServices, QuotaServicesNodePorts, QuotaServicesLoadBalancers}

func (e serviceEval) matching(input []api.ResourceName) []api.ResourceName {
	return intersection(input, serviceTracked)
}

func (serviceEval) matchesScope(api.ScopedResourceSelectorRequirement) (bool, error) {
	return false, nil
}
func (serviceEval) constraints([]api.ResourceName) error { return nil }
func (e serviceEval) usage() api.ResourceList            { return ServiceQuotaUsage(e.svc) }

// ServiceQuotaUsage is what a service charges a ResourceQuota (the
// service evaluator's usage): count/services and services 1; a NodePort
// service one services.nodeports per port; a LoadBalancer service one
// services.loadbalancers and one node port per port (per port with a
// nodePort set when allocateLoadBalancerNodePorts is false).
func ServiceQuotaUsage(s *api.Service) api.ResourceList {
	out := api.ResourceList{
		CountResourceName(ResourceServices): one(),
		QuotaServices:                       one(),
		QuotaServicesLoadBalancers:          quantity.NewQuantity(0, quantity.DecimalSI),
		QuotaServicesNodePorts:              quantity.NewQuantity(0, quantity.DecimalSI),
	}
	ports := int64(len(s.Spec.Ports))
	switch s.Spec.Type {
	case api.ServiceTypeNodePort:
		out[QuotaServicesNodePorts] = quantity.NewQuantity(ports, quantity.DecimalSI)
	case api.ServiceTypeLoadBalancer:
		if a := s.Spec.AllocateLoadBalancerNodePorts; a != nil && !*a {
			n := int64(0)
			for _, p := range s.Spec.Ports {
				if p.NodePort != 0 {
					n++
				}
			}
			ports = n
		}
		out[QuotaServicesNodePorts] = quantity.NewQuantity(ports, quantity.DecimalSI)
		out[QuotaServicesLoadBalancers] = one()
	}
	return out
}

// --------------------------------------------------------------- claims

type claimEval struct{ pvc *api.PersistentVolumeClaim }

func (e claimEval) matching(input []api.ResourceName) []api.ResourceName {
	var out []api.ResourceName
	for _, n := range input {
		switch {
		case n == CountResourceName(ResourcePersistentVolumeClaims), n == QuotaPersistentVolumeClaims, n == QuotaRequestsStorage:
			out = append(out, n)
		case strings.HasSuffix(string(n), StorageClassSuffix+string(QuotaPersistentVolumeClaims)),
			strings.HasSuffix(string(n), StorageClassSuffix+string(QuotaRequestsStorage)):
			out = append(out, n)
		}
	}
	return out
}

// volumeAttributesClasses are the classes a claim refers to: asked for,
// current, and the target of a pending change.
func volumeAttributesClasses(c *api.PersistentVolumeClaim) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if c.Spec.VolumeAttributesClassName != nil {
		add(*c.Spec.VolumeAttributesClassName)
	}
	if c.Status.CurrentVolumeAttributesClassName != nil {
		add(*c.Status.CurrentVolumeAttributesClassName)
	}
	if m := c.Status.ModifyVolumeStatus; m != nil {
		add(m.TargetVolumeAttributesClassName)
	}
	return out
}

func (e claimEval) matchesScope(s api.ScopedResourceSelectorRequirement) (bool, error) {
	if s.ScopeName != api.ResourceQuotaScopeVolumeAttributesClass {
		return false, nil
	}
	classes := volumeAttributesClasses(e.pvc)
	if s.Operator == api.ScopeSelectorOpExists {
		return len(classes) != 0, nil
	}
	if len(classes) == 0 {
		return scopeSelectorMatches(s, "", false)
	}
	for _, c := range classes {
		ok, err := scopeSelectorMatches(s, c, true)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func (claimEval) constraints([]api.ResourceName) error { return nil }
func (e claimEval) usage() api.ResourceList            { return ClaimQuotaUsage(e.pvc) }

// ClaimStorageClass is the claim's class as quota reads it: the beta
// annotation first, then spec.storageClassName.
func ClaimStorageClass(c *api.PersistentVolumeClaim) string {
	if v, ok := c.Annotations[api.BetaStorageClassAnnotation]; ok {
		return v
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// ClaimQuotaUsage is what a claim charges a ResourceQuota (the claim
// evaluator's usage): count/persistentvolumeclaims and
// persistentvolumeclaims 1, requests.storage its storage request rounded
// up to whole bytes (or what was allocated for it, when larger), and the
// same per storage class (<class>.storageclass.storage.k8s.io/…).
func ClaimQuotaUsage(c *api.PersistentVolumeClaim) api.ResourceList {
	out := api.ResourceList{
		QuotaPersistentVolumeClaims:                       one(),
		CountResourceName(ResourcePersistentVolumeClaims): one(),
	}
	class := ClaimStorageClass(c)
	if class != "" {
		out[api.ResourceName(class+StorageClassSuffix+string(QuotaPersistentVolumeClaims))] = one()
	}
	req, ok := c.Spec.Resources.Requests[api.ResourceStorage]
	if !ok {
		return out
	}
	storage := roundUpBytes(req)
	if alloc, ok := c.Status.AllocatedResources[api.ResourceStorage]; ok && alloc.Cmp(storage) > 0 {
		storage = roundUpBytes(alloc)
	}
	out[QuotaRequestsStorage] = storage
	if class != "" {
		out[api.ResourceName(class+StorageClassSuffix+string(QuotaRequestsStorage))] = storage
	}
	return out
}

// roundUpBytes rounds q up to a whole number, returning q itself when it
// already is one (as upstream, which keeps the original then).
func roundUpBytes(q quantity.Quantity) quantity.Quantity {
	r := q.DeepCopy()
	if r.RoundUp(0) {
		return q
	}
	return r
}

// -------------------------------------------------------- object counts

type countEval struct{ names []api.ResourceName }

func (e countEval) matching(input []api.ResourceName) []api.ResourceName {
	return intersection(input, e.names)
}

func (countEval) matchesScope(api.ScopedResourceSelectorRequirement) (bool, error) { return false, nil }
func (countEval) constraints([]api.ResourceName) error                             { return nil }

func (e countEval) usage() api.ResourceList {
	out := api.ResourceList{}
	for _, n := range e.names {
		out[n] = one()
	}
	return out
}
