package admission

import (
	"slices"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
)

// NamespaceObjects are the objects a ResourceQuota counts, as the quota
// controller lists them. Objects of other namespaces are ignored, so the
// lists may hold a whole cluster's.
type NamespaceObjects struct {
	// Pods, Services and Claims are counted by their kinds' evaluators.
	Pods     []*api.Pod
	Services []*api.Service
	Claims   []*api.PersistentVolumeClaim
	// Others are the other objects, each with its Resource
	// ("deployments.apps", "configmaps", …), counted for count/…
	// quotas (and the legacy configmaps, secrets, resourcequotas and
	// replicationcontrollers names); one without Meta counts in every
	// namespace.
	Others []Counted
	// ResourceClaims are the DRA claims, charged by the ResourceClaim
	// evaluator with DeviceClasses, the cluster's (Others of resource
	// resourceclaims.resource.k8s.io are charged by it too).
	ResourceClaims []*api.ResourceClaim
	DeviceClasses  []*api.DeviceClass
	// Now is when the usage is measured: pods past their deletion grace
	// period are no longer charged.
	Now time.Time
}

// QuotaStatus is the status the quota controller writes for q, measured
// on objs (syncResourceQuota upstream): hard is spec.hard, and used, for
// every name of spec.hard some evaluator tracks, the sum of the charges
// of the objects of q's namespace that are in all of q's scopes and
// scope-selector requirements (zero when none is); a name no evaluator
// tracks keeps the value of q.status.used, if any. An object whose
// scopes cannot be evaluated (a bad scope selector) is skipped, as
// upstream skips the rest of its kind. Charges are summed in the order
// of objs' lists; a sum takes the format (1500M or 1500Mi style) of its
// first non-zero charge, so where the charges differ in format the order
// decides how a sum is written (upstream sums in its informer's order,
// which is not defined).
func QuotaStatus(q *api.ResourceQuota, objs NamespaceObjects) api.ResourceQuotaStatus {
	hard := resource.Clone(q.Spec.Hard)
	hardNames := resource.ResourceNames(hard)
	used := api.ResourceList{}
	for n, v := range q.Status.Used {
		used[n] = v
	}
	sels := scopeSelectors(q)
	type kind struct {
		probe evaluator
		items []evaluator
	}
	var kinds []kind
	var pods, svcs, claims []evaluator
	for _, p := range objs.Pods {
		if p.Namespace == q.Namespace {
			pods = append(pods, podEval{p, objs.Now})
		}
	}
	for _, s := range objs.Services {
		if s.Namespace == q.Namespace {
			svcs = append(svcs, serviceEval{s})
		}
	}
	for _, c := range objs.Claims {
		if c.Namespace == q.Namespace {
			claims = append(claims, claimEval{c})
		}
	}
	dq := &DRAQuota{DeviceClasses: objs.DeviceClasses, Pods: objs.Pods, Claims: objs.ResourceClaims}
	var rcs []evaluator
	for _, c := range objs.ResourceClaims {
		if c.Namespace == q.Namespace {
			rcs = append(rcs, resourceClaimEval{c, dq, objs.Now})
		}
	}
	for _, o := range objs.Others {
		if o.Resource != ResourceResourceClaims || (o.Meta != nil && o.Meta.Namespace != q.Namespace) {
			continue
		}
		if o.DRA == nil {
			o.DRA = dq
		}
		if e, err := evaluatorFor(o, objs.Now); err == nil {
			rcs = append(rcs, e)
		}
	}
	kinds = append(kinds,
		kind{podEval{&api.Pod{}, objs.Now}, pods},
		kind{serviceEval{&api.Service{}}, svcs},
		kind{claimEval{&api.PersistentVolumeClaim{}}, claims},
		kind{resourceClaimEval{&api.ResourceClaim{}, dq, objs.Now}, rcs})
	// Every other resource a count/ name (or legacy alias) of hard names
	// is counted, whether or not objs holds such objects.
	others := map[string][]evaluator{}
	var order []string
	addKind := func(r string) {
		if _, ok := others[r]; !ok {
			others[r] = nil
			order = append(order, r)
		}
	}
	for _, n := range hardNames {
		s := string(n)
		switch {
		case len(s) > len("count/") && s[:len("count/")] == "count/":
			r := s[len("count/"):]
			if r != ResourcePods && r != ResourceServices && r != ResourcePersistentVolumeClaims && r != ResourceResourceClaims {
				addKind(r)
			}
		case s == "configmaps", s == "secrets", s == "resourcequotas", s == "replicationcontrollers":
			addKind(s)
		}
	}
	for _, o := range objs.Others {
		if o.Meta != nil && o.Meta.Namespace != q.Namespace {
			continue
		}
		if _, ok := others[o.Resource]; !ok {
			continue
		}
		if e, err := evaluatorFor(o, objs.Now); err == nil {
			others[o.Resource] = append(others[o.Resource], e)
		}
	}
	for _, r := range order {
		e, _ := evaluatorFor(Counted{Resource: r}, objs.Now)
		kinds = append(kinds, kind{e, others[r]})
	}
	var matched []api.ResourceName
	for _, k := range kinds {
		for _, n := range k.probe.matching(hardNames) {
			if !slices.Contains(matched, n) {
				matched = append(matched, n)
			}
		}
	}
	sum := api.ResourceList{}
	for _, k := range kinds {
		names := k.probe.matching(matched)
		if len(names) == 0 {
			continue
		}
		stats := api.ResourceList{}
		for _, n := range names {
			stats[n] = quantity.Quantity{Format: quantity.DecimalSI}
		}
	items:
		for _, e := range k.items {
			in := true
			for _, s := range sels {
				ok, err := e.matchesScope(s)
				if err != nil {
					break items // upstream returns what it summed so far
				}
				in = in && ok
			}
			if in {
				stats = resource.Add(stats, e.usage())
			}
		}
		sum = resource.Add(sum, stats)
	}
	for n, v := range resource.Mask(sum, matched) {
		used[n] = v
	}
	return api.ResourceQuotaStatus{Hard: hard, Used: resource.Mask(used, hardNames)}
}
