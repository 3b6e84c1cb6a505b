package admission

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// QuotaExceededError is the ResourceQuota plugin's reason for rejecting
// an object that would take a quota over its hard limits: `exceeded
// quota: q, requested: cpu=2, used: cpu=1, limited: cpu=2`, each list
// masked to the exceeded resources and printed sorted by name.
type QuotaExceededError struct {
	// Quota is the exceeded quota's name.
	Quota string
	// Requested is the object's charge, Used the quota's use before it,
	// Limited the quota's hard limits, each on the exceeded resources.
	Requested, Used, Limited api.ResourceList
}

// Error returns upstream's text.
func (e *QuotaExceededError) Error() string {
	return fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s",
		e.Quota, prettyList(e.Requested), prettyList(e.Used), prettyList(e.Limited))
}

// prettyList prints name=quantity pairs sorted by name, comma-separated.
func prettyList(l api.ResourceList) string {
	parts := make([]string, 0, len(l))
	for _, n := range resource.ResourceNames(l) {
		parts = append(parts, string(n)+"="+l[n].String())
	}
	return strings.Join(parts, ",")
}

func prettyNames(ns []api.ResourceName) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	slices.Sort(s)
	return strings.Join(s, ",")
}

// scopeSelectors are a quota's scopes (each as Exists) followed by its
// scope selector's requirements.
func scopeSelectors(q *api.ResourceQuota) []api.ScopedResourceSelectorRequirement {
	var out []api.ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		out = append(out, api.ScopedResourceSelectorRequirement{ScopeName: s, Operator: api.ScopeSelectorOpExists})
	}
	if q.Spec.ScopeSelector != nil {
		out = append(out, q.Spec.ScopeSelector.MatchExpressions...)
	}
	return out
}

// quotaMatches is generic.Matches: the quota tracks one of the object's
// resources (of status.hard) and every scope selector holds.
func quotaMatches(q *api.ResourceQuota, e evaluator) (bool, error) {
	match := len(e.matching(resource.ResourceNames(q.Status.Hard))) > 0
	for _, s := range scopeSelectors(q) {
		ok, err := e.matchesScope(s)
		if err != nil {
			return false, err
		}
		match = match && ok
	}
	return match, nil
}

// removeZeros drops zero quantities.
func removeZeros(l api.ResourceList) api.ResourceList {
	out := api.ResourceList{}
	for n, q := range l {
		if !q.IsZero() {
			out[n] = q
		}
	}
	return out
}

// CheckQuota is the ResourceQuota admission plugin's decision for
// creating obj in the namespace of quotas (CheckRequest upstream, with
// the default configuration, which limits nothing by default): quotas
// are checked in the order given, each against its status (the plugin
// reads status.hard and status.used, as the quota controller keeps them;
// see QuotaStatus for a quota read without status). A quota counts obj
// when it limits one of the resources obj's kind tracks and all its
// scopes and scope-selector requirements hold for obj. For each such
// quota, in order:
//
//   - a pod must state a request or limit for every cpu/memory quota
//     name the quota limits (`failed quota: q: must specify limits.cpu
//     for: c; requests.memory for: c,d`), unless it has pod-level
//     resources;
//   - the quota's status must have a used value for each such resource
//     (`status unknown for quota: q, resources: cpu`).
//
// Then the object's charge (PodQuotaUsage, ServiceQuotaUsage,
// ClaimQuotaUsage or its count) must not be negative, and, for each such
// quota in order, used + charge must stay within hard on the resources
// the quota limits and the object is charged for (`exceeded quota: q,
// requested: …, used: …, limited: …`, a *QuotaExceededError).
//
// CheckQuota returns the quotas with status.used as it is after the
// object is admitted (a copy; quotas is not modified), or the first
// rejection, a *ForbiddenError printed as the API server prints it
// (`pods "web" is forbidden: exceeded quota: …`). The API server takes
// quotas from its cache, in an order that is not defined; where several
// would reject an object, which one it reports varies. now is the time
// against which a pod's deletion grace period is judged.
func CheckQuota(quotas []api.ResourceQuota, obj Counted, now time.Time) ([]api.ResourceQuota, error) {
	return CheckQuotaLimited(quotas, obj, now, nil)
}

// LimitedResource is one entry of the ResourceQuota admission plugin's
// configuration (ResourceQuotaConfiguration limitedResources): objects
// of the resource that consume a resource name containing one of
// MatchContains, or that are in one of MatchScopes, need a quota
// covering it.
type LimitedResource struct {
	// APIGroup of the resource, "" for the core group.
	APIGroup string `json:"apiGroup,omitempty"`
	// Resource is the plural resource name, such as "pods".
	Resource string `json:"resource"`
	// MatchContains are substrings of the resource names limited.
	MatchContains []string `json:"matchContains,omitempty"`
	// MatchScopes are the scopes limited.
	MatchScopes []api.ScopedResourceSelectorRequirement `json:"matchScopes,omitempty"`
}

// CheckQuotaLimited is CheckQuota with the plugin's limitedResources
// configuration: once the object is known to charge something, each
// resource name it consumes (a positive charge) that contains a
// MatchContains of a limited entry of its resource must be tracked by
// some quota that matches it, else `insufficient quota to consume:
// requests.cpu` (Forbidden); and each MatchScopes entry of any limited
// entry the object is in must be a scope of some quota of the namespace,
// else `insufficient quota to match these scopes: [{PriorityClass In
// [high]}]` (upstream returns that one unwrapped). A scope that cannot be
// evaluated disables the check, as upstream.
func CheckQuotaLimited(quotas []api.ResourceQuota, obj Counted, now time.Time, limited []LimitedResource) ([]api.ResourceQuota, error) {
	e, err := evaluatorFor(obj, now)
	if err != nil {
		return nil, err
	}
	var limitedScopes []api.ScopedResourceSelectorRequirement
	for _, lr := range limited {
		for _, s := range lr.MatchScopes {
			ok, err := e.matchesScope(s)
			if err != nil {
				return quotas, nil
			}
			if ok {
				limitedScopes = append(limitedScopes, s)
			}
		}
	}
	var limitedNames []api.ResourceName
	usage := e.usage()
	for _, lr := range limited {
		if lr.APIGroup != "" || lr.Resource != obj.Resource {
			continue
		}
		for _, k := range resource.ResourceNames(usage) {
			q := usage[k]
			if q.Sign() <= 0 {
				continue
			}
			for _, m := range lr.MatchContains {
				if strings.Contains(string(k), m) {
					limitedNames = append(limitedNames, k)
					break
				}
			}
		}
	}
	restrictedNames := map[api.ResourceName]bool{}
	var restrictedScopes []api.ScopedResourceSelectorRequirement
	meta := obj.Meta
	if meta == nil {
		meta = &api.ObjectMeta{}
	}
	forbid := func(reason error) error {
		return &ForbiddenError{Resource: obj.Resource, Name: resource.AdmissionName(meta), Reason: reason}
	}
	var interesting []int
	for i := range quotas {
		q := &quotas[i]
		// upstream matches the quota's scopes first, for the limited
		// scopes of its configuration (none by default); an error there
		// is reported as such.
		for _, s := range scopeSelectors(q) {
			ok, err := e.matchesScope(s)
			if err != nil {
				return nil, fmt.Errorf("error matching scopes of quota %s, err: error on matching scope %v: %v", q.Name, s, err)
			}
			if ok {
				restrictedScopes = append(restrictedScopes, s)
			}
		}
		ok, err := quotaMatches(q, e)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		restricted := e.matching(resource.ResourceNames(q.Status.Hard))
		if err := e.constraints(restricted); err != nil {
			return nil, forbid(fmt.Errorf("failed quota: %s: %v", q.Name, err))
		}
		for _, n := range restricted {
			if _, ok := q.Status.Used[n]; !ok {
				return nil, forbid(fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, prettyNames(restricted)))
			}
		}
		interesting = append(interesting, i)
		for _, n := range restricted {
			restrictedNames[n] = true
		}
	}
	if neg := resource.IsNegative(usage); len(neg) > 0 {
		return nil, forbid(fmt.Errorf("quota usage is negative for resource(s): %s", prettyNames(neg)))
	}
	delta := removeZeros(usage)
	if len(delta) == 0 {
		return quotas, nil
	}
	var uncovered []string
	for _, n := range limitedNames {
		if !restrictedNames[n] && !slices.Contains(uncovered, string(n)) {
			uncovered = append(uncovered, string(n))
		}
	}
	if len(uncovered) > 0 {
		slices.Sort(uncovered)
		return quotas, forbid(fmt.Errorf("insufficient quota to consume: %s", strings.Join(uncovered, ",")))
	}
	var uncoveredScopes []string
	for _, s := range limitedScopes {
		covered := false
		for _, r := range restrictedScopes {
			if r.ScopeName == s.ScopeName {
				covered = true
				break
			}
		}
		if !covered {
			uncoveredScopes = append(uncoveredScopes, fmt.Sprintf("{%s %s %v}", s.ScopeName, s.Operator, s.Values))
		}
	}
	if len(uncoveredScopes) > 0 {
		return quotas, fmt.Errorf("insufficient quota to match these scopes: [%s]", strings.Join(uncoveredScopes, " "))
	}
	if len(interesting) == 0 {
		return quotas, nil
	}
	out := make([]api.ResourceQuota, len(quotas))
	copy(out, quotas)
	for _, i := range interesting {
		q := &out[i]
		requested := resource.Mask(delta, resource.ResourceNames(q.Status.Hard))
		used := resource.Add(q.Status.Used, requested)
		masked := resource.Mask(used, resource.ResourceNames(requested))
		if ok, exceeded := lessOrEqual(masked, q.Status.Hard); !ok {
			return nil, forbid(&QuotaExceededError{
				Quota:     q.Name,
				Requested: resource.Mask(requested, exceeded),
				Used:      resource.Mask(q.Status.Used, exceeded),
				Limited:   resource.Mask(q.Status.Hard, exceeded),
			})
		}
		q.Status.Used = used
	}
	return out, nil
}

// lessOrEqual is quota.LessThanOrEqual: every name of a that b also has
// is at most b's; the names that are not.
func lessOrEqual(a, b api.ResourceList) (bool, []api.ResourceName) {
	var over []api.ResourceName
	for _, n := range resource.ResourceNames(a) {
		if lim, ok := b[n]; ok && a[n].Cmp(lim) > 0 {
			over = append(over, n)
		}
	}
	return len(over) == 0, over
}

// FillQuotaStatus returns quotas with the status the quota controller
// would have written (QuotaStatus on objs) for each quota that has none
// yet (status.hard unset), so that quotas read from manifests without a
// status can be checked; quotas with a status are kept as they are. The
// input is not modified.
func FillQuotaStatus(quotas []api.ResourceQuota, objs NamespaceObjects) []api.ResourceQuota {
	out := make([]api.ResourceQuota, len(quotas))
	copy(out, quotas)
	for i := range out {
		if out[i].Status.Hard == nil {
			out[i].Status = QuotaStatus(&out[i], objs)
		}
	}
	return out
}

// Chain admits objects one after another as the API server would,
// keeping every namespace's quota usage across admissions: a pod goes
// through Admit (defaulting, LimitRanger, Priority,
// DefaultTolerationSeconds, matchLabelKeys, LimitRanger's validation)
// and then the ResourceQuota plugin (CheckQuota) on its namespace's
// quotas; when it is admitted, its charge is added to their usage, so
// the next admission sees it. A rejected object changes nothing. A Chain
// is not safe for concurrent use.
type Chain struct {
	objs   Policies
	quotas []api.ResourceQuota
	now    time.Time
}

// NewChain returns a Chain over objs (its ResourceQuotas, of every
// namespace, with their status as given: use FillQuotaStatus first for
// quotas without one). now judges pods' deletion grace periods.
func NewChain(objs Policies, now time.Time) *Chain {
	c := &Chain{objs: objs, now: now}
	c.quotas = append([]api.ResourceQuota(nil), objs.ResourceQuotas...)
	c.objs.ResourceQuotas = nil
	return c
}

// AdmitPod admits a pod being created and returns it as the API server
// would store it, or the first rejection (Admit's, or the quota plugin's
// *ForbiddenError). On success the namespace's quotas are charged.
func (c *Chain) AdmitPod(pod *api.Pod) (*api.Pod, error) {
	p, err := Admit(pod, c.objs)
	if err != nil {
		return nil, err
	}
	if err := c.charge(CountedPod(p), p.Namespace); err != nil {
		return nil, err
	}
	return p, nil
}

// AdmitObject runs the ResourceQuota plugin for another object being
// created (a service, a claim, or any counted kind) in namespace ns (the
// object's namespace when ns is empty) and charges the quotas on success.
func (c *Chain) AdmitObject(obj Counted, ns string) error {
	if ns == "" && obj.Meta != nil {
		ns = obj.Meta.Namespace
	}
	if ns == "" {
		ns = "default"
	}
	return c.charge(obj, ns)
}

func (c *Chain) charge(obj Counted, ns string) error {
	var idx []int
	var mine []api.ResourceQuota
	for i := range c.quotas {
		if c.quotas[i].Namespace == ns {
			idx = append(idx, i)
			mine = append(mine, c.quotas[i])
		}
	}
	out, err := CheckQuotaLimited(mine, obj, c.now, c.objs.LimitedResources)
	if err != nil {
		return err
	}
	for j, i := range idx {
		c.quotas[i] = out[j]
	}
	return nil
}

// Quotas returns the quotas with their usage after the admissions so far
// (a copy).
func (c *Chain) Quotas() []api.ResourceQuota {
	out := make([]api.ResourceQuota, len(c.quotas))
	copy(out, c.quotas)
	return out
}
