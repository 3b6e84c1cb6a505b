package resource

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// LimitRangerAnnotation is the annotation ApplyLimitRanges sets on a pod
// it defaulted, listing what it set, as the LimitRanger admission plugin
// does.
const LimitRangerAnnotation = "kubernetes.io/limit-ranger"

// LimitRangeError is one violation of a LimitRange by a pod. Its Message
// is the text of the LimitRanger admission plugin, such as "minimum cpu
// usage per Container is 100m, but request is 50m"; Error adds which
// LimitRange and which container.
type LimitRangeError struct {
	// LimitRange names the violated LimitRange as namespace/name (or name
	// when it has no namespace).
	LimitRange string
	// Type is Container or Pod: what the violated item bounds.
	Type api.LimitType
	// Container names the offending container for a Container item; it
	// is empty for a Pod item.
	Container string
	// Init is true when Container is an init container.
	Init bool
	// Field is the offending container's path in the pod, such as
	// spec.containers[1]; spec for a Pod item.
	Field string
	// Resource is the resource the bound is on.
	Resource api.ResourceName
	// Message is upstream's message.
	Message string
}

// Error returns, for example, `LimitRange "default/limits": container
// "app" (spec.containers[0]): minimum cpu usage per Container is 100m, but
// request is 50m`.
func (e *LimitRangeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "LimitRange %q: ", e.LimitRange)
	switch {
	case e.Type == api.LimitTypePod:
		b.WriteString("pod: ")
	case e.Init:
		fmt.Fprintf(&b, "init container %q (%s): ", e.Container, e.Field)
	default:
		fmt.Fprintf(&b, "container %q (%s): ", e.Container, e.Field)
	}
	b.WriteString(e.Message)
	return b.String()
}

// ForbiddenError is the LimitRanger admission plugin's rejection of a
// pod: the violations of the first LimitRange the pod violates. Error
// prints it as the API server does, `pods "web" is forbidden: minimum cpu
// usage per Container is 100m, but request is 50m` for one violation and
// `pods "web" is forbidden: [a, b]` for several (each distinct message
// once). errors.As finds each *LimitRangeError through Unwrap.
type ForbiddenError struct {
	// Pod is the pod's name, its generateName when it has none, or
	// "Unknown", as the API server names it in the message.
	Pod string
	// LimitRange names the violated LimitRange as namespace/name.
	LimitRange string
	// Violations are that LimitRange's violations in upstream's order:
	// item by item; within an item containers, then init containers (or
	// the pod), each with min, then max, then maxLimitRequestRatio. Within
	// one of those upstream walks a Go map, so its order between resource
	// names (cpu, memory, …) varies from run to run; schedkit sorts them
	// by name.
	Violations []*LimitRangeError
}

// Error returns the API server's message.
func (e *ForbiddenError) Error() string {
	msgs := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		msgs[i] = v.Message
	}
	return ForbiddenMessage("pods", e.Pod, AggregateMessage(msgs))
}

// Unwrap returns the violations, each a *LimitRangeError.
func (e *ForbiddenError) Unwrap() []error {
	out := make([]error, len(e.Violations))
	for i, v := range e.Violations {
		out[i] = v
	}
	return out
}

// ForbiddenMessage is the text of the API server's Forbidden status for
// an object of the given resource (plural, such as "pods"; with its group
// as "<resource>.<group>" outside the core group) and name:
// `pods "web" is forbidden: <reason>`, or `pods is forbidden: <reason>`
// without a name.
func ForbiddenMessage(resource, name, reason string) string {
	if name == "" {
		return resource + " is forbidden: " + reason
	}
	return fmt.Sprintf("%s %q is forbidden: %s", resource, name, reason)
}

// AggregateMessage joins messages as apimachinery's aggregate error
// prints them: one message alone, several distinct ones as "[a, b]" (a
// repeated message only once).
func AggregateMessage(msgs []string) string {
	if len(msgs) == 1 {
		return msgs[0]
	}
	seen := make(map[string]bool, len(msgs))
	var distinct []string
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			distinct = append(distinct, m)
		}
	}
	if len(distinct) == 1 {
		return distinct[0]
	}
	return "[" + strings.Join(distinct, ", ") + "]"
}

// AdmissionName is the name the API server's admission errors give an
// object being created: its name, else its generateName, else "Unknown".
func AdmissionName(meta *api.ObjectMeta) string {
	switch {
	case meta.Name != "":
		return meta.Name
	case meta.GenerateName != "":
		return meta.GenerateName
	}
	return "Unknown"
}

// ApplyLimitRanges admits pod against the namespace's LimitRanges the way
// the LimitRanger admission plugin does, after the API server's defaulting:
//
//  1. Every container (and init container) that sets a limit but no
//     request for a resource gets a request equal to the limit, as the API
//     server's defaulting does before admission.
//  2. For each LimitRange in order, the defaults of its Container items
//     (default for limits, defaultRequest for requests; a later item of
//     the same LimitRange wins) fill what each container still lacks. So
//     the first LimitRange that defaults a resource wins over later ones.
//     The pod is annotated with LimitRangerAnnotation listing what was set
//     (the last LimitRange that set anything writes it, as upstream).
//     Then the API server's create defaults pod-level resources
//     (DefaultPodLevelResources), before LimitRanger validates.
//  3. Each LimitRange's min, max and maxLimitRequestRatio are checked in
//     order, for Container items on each container and init container,
//     and for Pod items on the pod's total requests and limits (init
//     containers and sidecars counted as in PodRequests, pod-level cpu
//     and memory replacing the containers' total, overhead not counted),
//     until one LimitRange is violated.
//
// The LimitRanges are used in the order given; the API server takes them
// from its cache, whose order is not defined, so where two LimitRanges
// both default a resource or both are violated, give them in the order
// you want. They are used as given: objects read from an API server are
// already defaulted; for ones built in code call DefaultLimitRange first
// (it fills default from max, defaultRequest from default or min).
// PersistentVolumeClaim items are ignored.
//
// ApplyLimitRanges is all or nothing: if a bound is violated it returns a
// *ForbiddenError with the violations of the first violated LimitRange
// (upstream stops there too) and leaves pod unchanged.
func ApplyLimitRanges(pod *api.Pod, ranges []api.LimitRange) error {
	if pod == nil {
		return errors.New("resource: ApplyLimitRanges of a nil pod")
	}
	p := pod.DeepCopy()
	DefaultRequestsFromLimits(p)
	for i := range ranges {
		mergeLimitRangeDefaults(p, &ranges[i])
	}
	DefaultPodLevelResources(p)
	for i := range ranges {
		if v := validateLimitRange(p, &ranges[i]); len(v) > 0 {
			return &ForbiddenError{Pod: AdmissionName(&pod.ObjectMeta), LimitRange: limitRangeName(&ranges[i]), Violations: v}
		}
	}
	*pod = *p
	return nil
}

// DefaultLimitRange applies the API server's defaulting to a LimitRange in
// place: in each Container item, a resource with a max but no default
// gets default = max; one with a default but no defaultRequest gets
// defaultRequest = default; one with a min and still no defaultRequest
// gets defaultRequest = min.
func DefaultLimitRange(lr *api.LimitRange) {
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		if it.Type != api.LimitTypeContainer {
			continue
		}
		if it.Default == nil {
			it.Default = api.ResourceList{}
		}
		if it.DefaultRequest == nil {
			it.DefaultRequest = api.ResourceList{}
		}
		fillMissing(it.Default, it.Max)
		fillMissing(it.DefaultRequest, it.Default)
		fillMissing(it.DefaultRequest, it.Min)
	}
}

func fillMissing(dst, src api.ResourceList) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = clone(v)
		}
	}
}

// DefaultRequestsFromLimits applies the API server's pod defaulting
// (SetDefaults_Pod) to p in place: in every container and init
// container, a limit without a request becomes the request. Kubernetes
// does this before admission and before anything reads the pod, so apply
// it to pods built in code or read from manifests that were never
// admitted; a pod read back from a cluster is unchanged by it.
func DefaultRequestsFromLimits(p *api.Pod) {
	for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = api.ResourceList{}
			}
			fillMissing(r.Requests, r.Limits)
		}
	}
}

// containerDefaults merges the Container items of lr: later items
// override earlier ones.
func containerDefaults(lr *api.LimitRange) (requests, limits api.ResourceList) {
	requests, limits = api.ResourceList{}, api.ResourceList{}
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		if it.Type != api.LimitTypeContainer {
			continue
		}
		for k, v := range it.DefaultRequest {
			requests[k] = clone(v)
		}
		for k, v := range it.Default {
			limits[k] = clone(v)
		}
	}
	return requests, limits
}

func mergeLimitRangeDefaults(p *api.Pod, lr *api.LimitRange) {
	requests, limits := containerDefaults(lr)
	var notes []string
	for i := range p.Spec.Containers {
		notes = mergeContainerDefaults(&p.Spec.Containers[i], requests, limits, "container", notes)
	}
	for i := range p.Spec.InitContainers {
		notes = mergeContainerDefaults(&p.Spec.InitContainers[i], requests, limits, "init container", notes)
	}
	if len(notes) > 0 {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[LimitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	}
}

func mergeContainerDefaults(c *api.Container, requests, limits api.ResourceList, kind string, notes []string) []string {
	if c.Resources.Limits == nil {
		c.Resources.Limits = api.ResourceList{}
	}
	if c.Resources.Requests == nil {
		c.Resources.Requests = api.ResourceList{}
	}
	var setLimits, setRequests []string
	for k, v := range limits {
		if _, ok := c.Resources.Limits[k]; !ok {
			c.Resources.Limits[k] = clone(v)
			setLimits = append(setLimits, string(k))
		}
	}
	for k, v := range requests {
		if _, ok := c.Resources.Requests[k]; !ok {
			c.Resources.Requests[k] = clone(v)
			setRequests = append(setRequests, string(k))
		}
	}
	if len(setRequests) > 0 {
		slices.Sort(setRequests)
		notes = append(notes, strings.Join(setRequests, ", ")+" request for "+kind+" "+c.Name)
	}
	if len(setLimits) > 0 {
		slices.Sort(setLimits)
		notes = append(notes, strings.Join(setLimits, ", ")+" limit for "+kind+" "+c.Name)
	}
	return notes
}

func limitRangeName(lr *api.LimitRange) string {
	if lr.Namespace == "" {
		return lr.Name
	}
	return lr.Namespace + "/" + lr.Name
}

func validateLimitRange(p *api.Pod, lr *api.LimitRange) []*LimitRangeError {
	var errs []*LimitRangeError
	name := limitRangeName(lr)
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		switch it.Type {
		case api.LimitTypeContainer:
			for j := range p.Spec.Containers {
				c := &p.Spec.Containers[j]
				for _, e := range checkItem(it, c.Resources.Requests, c.Resources.Limits) {
					e.LimitRange, e.Container, e.Field = name, c.Name, fmt.Sprintf("spec.containers[%d]", j)
					errs = append(errs, e)
				}
			}
			for j := range p.Spec.InitContainers {
				c := &p.Spec.InitContainers[j]
				for _, e := range checkItem(it, c.Resources.Requests, c.Resources.Limits) {
					e.LimitRange, e.Container, e.Init, e.Field = name, c.Name, true, fmt.Sprintf("spec.initContainers[%d]", j)
					errs = append(errs, e)
				}
			}
		case api.LimitTypePod:
			reqs, lims := limitRangerPodTotals(p)
			for _, e := range checkItem(it, reqs, lims) {
				e.LimitRange, e.Field = name, "spec"
				errs = append(errs, e)
			}
		}
	}
	return errs
}

// limitRangerPodTotals is the LimitRanger's own view of a pod's requests
// and limits: like PodRequests and PodLimits from the spec, without
// overhead, and with pod-level cpu and memory (not huge pages) replacing
// the containers' total whenever pod.spec.resources is set.
func limitRangerPodTotals(p *api.Pod) (reqs, lims api.ResourceList) {
	opts := PodResourcesOptions{}
	reqs = AggregateContainerRequests(p, opts)
	lims = AggregateContainerLimits(p, opts)
	if r := p.Spec.Resources; r != nil {
		for _, k := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			if v, ok := r.Requests[k]; ok {
				reqs[k] = clone(v)
			}
			if v, ok := r.Limits[k]; ok {
				lims[k] = clone(v)
			}
		}
	}
	return reqs, lims
}

func checkItem(it *api.LimitRangeItem, reqs, lims api.ResourceList) []*LimitRangeError {
	var errs []*LimitRangeError
	typ := string(it.Type)
	add := func(k api.ResourceName, msg string) {
		errs = append(errs, &LimitRangeError{Type: it.Type, Resource: k, Message: msg})
	}
	for _, k := range ResourceNames(it.Min) {
		if msg := minConstraint(typ, k, it.Min[k], reqs, lims); msg != "" {
			add(k, msg)
		}
	}
	for _, k := range ResourceNames(it.Max) {
		if msg := maxConstraint(typ, k, it.Max[k], reqs, lims); msg != "" {
			add(k, msg)
		}
	}
	for _, k := range ResourceNames(it.MaxLimitRequestRatio) {
		if msg := ratioConstraint(typ, k, it.MaxLimitRequestRatio[k], reqs, lims); msg != "" {
			add(k, msg)
		}
	}
	return errs
}

// maxMilliValue is the largest value whose milli-units fit in an int64.
const maxMilliValue = math.MaxInt64 / 1000

// comparable returns request, limit and bound as integers at a common
// precision: milli-units when none of them is too large for that, units
// otherwise (the LimitRanger's requestLimitEnforcedValues).
func comparable(req, lim, bound Quantity) (r, l, b int64) {
	r, l, b = req.Value(), lim.Value(), bound.Value()
	if r <= maxMilliValue && l <= maxMilliValue && b <= maxMilliValue {
		r, l, b = req.MilliValue(), lim.MilliValue(), bound.MilliValue()
	}
	return r, l, b
}

func minConstraint(typ string, k api.ResourceName, bound Quantity, reqs, lims api.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, b := comparable(req, lim, bound)
	switch {
	case !hasReq:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, typ, bound.String())
	case r < b:
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, typ, bound.String(), req.String())
	case hasLim && l < b:
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, typ, bound.String(), lim.String())
	}
	return ""
}

func maxConstraint(typ string, k api.ResourceName, bound Quantity, reqs, lims api.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, b := comparable(req, lim, bound)
	switch {
	case !hasLim:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, typ, bound.String())
	case l > b:
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, typ, bound.String(), lim.String())
	case hasReq && r > b:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, bound.String(), req.String())
	}
	return ""
}

func ratioConstraint(typ string, k api.ResourceName, bound Quantity, reqs, lims api.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, _ := comparable(req, lim, bound)
	if !hasReq || r == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, typ, bound.String())
	}
	if !hasLim || l == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, typ, bound.String())
	}
	ratio := float64(l) / float64(r)
	shown := ratio
	maxRatio := float64(bound.Value())
	if bound.Value() <= maxMilliValue {
		ratio *= 1000
		maxRatio = float64(bound.MilliValue())
	}
	if ratio > maxRatio {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, typ, bound.String(), shown)
	}
	return ""
}

// ValidateClaimLimits is the LimitRanger admission plugin on the creation
// of a PersistentVolumeClaim: the PersistentVolumeClaim items of each
// LimitRange in order bound the claim's spec.resources.requests (min
// against the request, as for a container without a limit; max against
// the request only, as the claim's limits are not user input). It
// returns nil, or the API server's rejection for the first LimitRange
// violated: `persistentvolumeclaims "data" is forbidden: maximum storage
// usage per PersistentVolumeClaim is 1Gi, but request is 2Gi`. Resource
// names are visited sorted within min and within max (upstream walks a
// Go map there).
func ValidateClaimLimits(pvc *api.PersistentVolumeClaim, ranges []api.LimitRange) error {
	if pvc == nil {
		return errors.New("resource: ValidateClaimLimits of a nil claim")
	}
	reqs := pvc.Spec.Resources.Requests
	for i := range ranges {
		var msgs []string
		for j := range ranges[i].Spec.Limits {
			it := &ranges[i].Spec.Limits[j]
			if it.Type != api.LimitTypePersistentVolumeClaim {
				continue
			}
			typ := string(it.Type)
			for _, k := range sortedNames(it.Min) {
				if m := minConstraint(typ, k, it.Min[k], reqs, nil); m != "" {
					msgs = append(msgs, m)
				}
			}
			for _, k := range sortedNames(it.Max) {
				req, ok := reqs[k]
				r, _, b := comparable(req, Quantity{}, it.Max[k])
				switch {
				case !ok:
					msgs = append(msgs, fmt.Sprintf("maximum %s usage per %s is %s.  No request is specified", k, typ, it.Max[k].String()))
				case r > b:
					msgs = append(msgs, fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, it.Max[k].String(), req.String()))
				}
			}
		}
		if len(msgs) > 0 {
			return &ClaimForbiddenError{Claim: AdmissionName(&pvc.ObjectMeta), LimitRange: limitRangeName(&ranges[i]), Messages: msgs}
		}
	}
	return nil
}

// ClaimForbiddenError is the LimitRanger admission plugin's rejection of
// a PersistentVolumeClaim.
type ClaimForbiddenError struct {
	// Claim is the claim's name as the API server names it.
	Claim string
	// LimitRange names the violated LimitRange as namespace/name.
	LimitRange string
	// Messages are upstream's messages, in its order.
	Messages []string
}

// Error returns the API server's message.
func (e *ClaimForbiddenError) Error() string {
	return ForbiddenMessage("persistentvolumeclaims", e.Claim, AggregateMessage(e.Messages))
}

func sortedNames(l api.ResourceList) []api.ResourceName {
	out := make([]api.ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
