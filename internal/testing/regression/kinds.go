package regression

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/taints"
)

// The kinds of fixture. Each has an input type <Kind>Input and an answer
// type <Kind>Answer below; Evaluate computes schedkit's answer.
const (
	KindQuantity      = "quantity"
	KindPodResources  = "podresources"
	KindLimitRange    = "limitrange"
	KindTaints        = "taints"
	KindNodeAffinity  = "nodeaffinity"
	KindLabelSelector = "labelselector"
	KindPlugins       = "plugins"
	KindResourceQuota = "resourcequota"
)

var evaluators = map[string]func(json.RawMessage) (any, error){
	KindQuantity:      decodeEval(EvalQuantity),
	KindPodResources:  decodeEval(EvalPodResources),
	KindLimitRange:    decodeEval(EvalLimitRange),
	KindTaints:        decodeEval(EvalTaints),
	KindNodeAffinity:  decodeEval(EvalNodeAffinity),
	KindLabelSelector: decodeEval(EvalLabelSelector),
	KindPlugins:       decodeEval(EvalPlugins),
	KindResourceQuota: decodeEval(EvalResourceQuota),
}

func decodeEval[In, Out any](f func(*In) Out) func(json.RawMessage) (any, error) {
	return func(b json.RawMessage) (any, error) {
		in := new(In)
		if err := json.Unmarshal(b, in); err != nil {
			return nil, fmt.Errorf("decoding input: %w", err)
		}
		return f(in), nil
	}
}

// Kinds returns the fixture kinds, sorted.
func Kinds() []string {
	out := make([]string, 0, len(evaluators))
	for k := range evaluators {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Evaluate decodes input as the kind's input and returns schedkit's answer,
// canonical JSON.
func Evaluate(kind string, input json.RawMessage) (json.RawMessage, error) {
	ev, ok := evaluators[kind]
	if !ok {
		return nil, fmt.Errorf("unknown fixture kind %q", kind)
	}
	ans, err := ev(input)
	if err != nil {
		return nil, err
	}
	return Marshal(ans)
}

// ---------------------------------------------------------------- quantity

// QuantityInput is a string to parse as a quantity and, optionally,
// a second one to combine it with.
type QuantityInput struct {
	S     string  `json:"s"`
	Other *string `json:"other,omitempty"`
	// Scale, when set, is the power of ten for ScaledValue and RoundUp.
	Scale *int32 `json:"scale,omitempty"`
	// New, when set, is printed through NewQuantity, NewMilliQuantity and
	// NewScaledQuantity.
	New *NewQuantityInput `json:"new,omitempty"`
}

// NewQuantityInput is an integer and a format (or scale) for the
// constructors.
type NewQuantityInput struct {
	Value  int64  `json:"value"`
	Format string `json:"format"`
	Scale  int32  `json:"scale"`
}

// QuantityAnswer is what a quantity library says about QuantityInput.S:
// whether it parses (and which sentinel error it fails with), its
// canonical form, values and JSON round trip, and, when Other parses too,
// how the two compare and what their sum and difference print as.
type QuantityAnswer struct {
	// Err is "", "ErrFormatWrong", "ErrSuffix", "ErrNumeric" or
	// "other: <message>".
	Err        string `json:"err,omitempty"`
	String     string `json:"string,omitempty"`
	Format     string `json:"format,omitempty"`
	Value      int64  `json:"value,omitempty"`
	MilliValue int64  `json:"milliValue,omitempty"`
	Sign       int    `json:"sign,omitempty"`
	// AsInt64 is the value when AsInt64 reports it exact.
	AsInt64 *int64 `json:"asInt64,omitempty"`
	// JSON is json.Marshal of the parsed quantity.
	JSON string `json:"json,omitempty"`
	// Unmarshal is the String of json.Unmarshal of json.Marshal(S) into a
	// quantity (which trims white space), or "error".
	Unmarshal string `json:"unmarshal"`
	// ScaledValue and RoundUp (its String and exactness) at Scale.
	Scaled  *int64 `json:"scaled,omitempty"`
	RoundUp string `json:"roundUp,omitempty"`
	Exact   *bool  `json:"exact,omitempty"`
	// The String of NewQuantity, NewMilliQuantity and NewScaledQuantity
	// of New.
	New       string `json:"new,omitempty"`
	NewMilli  string `json:"newMilli,omitempty"`
	NewScaled string `json:"newScaled,omitempty"`
	// The binary operations, when both strings parse.
	Cmp *int   `json:"cmp,omitempty"`
	Add string `json:"add,omitempty"`
	Sub string `json:"sub,omitempty"`
}

// QuantityErrName classifies err by the sentinel it is.
func QuantityErrName(err error, formatWrong, suffix, numeric error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, formatWrong):
		return "ErrFormatWrong"
	case errors.Is(err, suffix):
		return "ErrSuffix"
	case errors.Is(err, numeric):
		return "ErrNumeric"
	}
	return "other: " + err.Error()
}

// EvalQuantity is schedkit's answer for a quantity input.
func EvalQuantity(in *QuantityInput) QuantityAnswer {
	var a QuantityAnswer
	var u quantity.Quantity
	js, _ := json.Marshal(in.S)
	if err := json.Unmarshal(js, &u); err != nil {
		a.Unmarshal = "error"
	} else {
		a.Unmarshal = u.String()
	}
	if n := in.New; n != nil {
		a.New = quantity.NewQuantity(n.Value, quantity.Format(n.Format)).String()
		a.NewMilli = quantity.NewMilliQuantity(n.Value, quantity.Format(n.Format)).String()
		a.NewScaled = quantity.NewScaledQuantity(n.Value, quantity.Scale(n.Scale)).String()
	}
	q, err := quantity.ParseQuantity(in.S)
	if err != nil {
		a.Err = QuantityErrName(err, quantity.ErrFormatWrong, quantity.ErrSuffix, quantity.ErrNumeric)
		return a
	}
	a.String = q.String()
	a.Format = string(q.Format)
	a.Value = q.Value()
	a.MilliValue = q.MilliValue()
	a.Sign = q.Sign()
	if v, ok := q.AsInt64(); ok {
		a.AsInt64 = &v
	}
	b, err := json.Marshal(q)
	if err != nil {
		a.JSON = "error: " + err.Error()
	} else {
		a.JSON = string(b)
	}
	if in.Scale != nil {
		v := q.ScaledValue(quantity.Scale(*in.Scale))
		a.Scaled = &v
		r := q
		exact := r.RoundUp(quantity.Scale(*in.Scale))
		a.RoundUp, a.Exact = r.String(), &exact
	}
	if in.Other == nil {
		return a
	}
	o, err := quantity.ParseQuantity(*in.Other)
	if err != nil {
		return a
	}
	c := q.Cmp(o)
	a.Cmp = &c
	sum := q
	sum.Add(o)
	a.Add = sum.String()
	diff := q
	diff.Sub(o)
	a.Sub = diff.String()
	return a
}

// ----------------------------------------------------------- podresources

// PodResourcesOptions are the options of PodRequests and PodLimits that
// schedkit and component-helpers share; NonMissingDefaults passes the
// scheduler's non-zero defaults as NonMissingContainerRequests.
type PodResourcesOptions struct {
	UseStatusResources          bool `json:"useStatusResources,omitempty"`
	ExcludeOverhead             bool `json:"excludeOverhead,omitempty"`
	NonMissingDefaults          bool `json:"nonMissingDefaults,omitempty"`
	SkipPodLevelResources       bool `json:"skipPodLevelResources,omitempty"`
	SkipContainerLevelResources bool `json:"skipContainerLevelResources,omitempty"`
}

// PodResourcesInput is a pod and the options to total its resources with.
type PodResourcesInput struct {
	Pod     *api.Pod            `json:"pod"`
	Options PodResourcesOptions `json:"options"`
}

// SchedulerResource is a pod's resource vector as the scheduler keeps it.
type SchedulerResource struct {
	MilliCPU         int64            `json:"milliCPU,omitempty"`
	Memory           int64            `json:"memory,omitempty"`
	EphemeralStorage int64            `json:"ephemeralStorage,omitempty"`
	Scalars          map[string]int64 `json:"scalars,omitempty"`
	NonZeroMilliCPU  int64            `json:"nonZeroMilliCPU"`
	NonZeroMemory    int64            `json:"nonZeroMemory"`
}

// PodResourcesAnswer holds a pod's requests and limits (quantities in
// their canonical form), the scheduler's view of its requests, and its
// QoS class.
type PodResourcesAnswer struct {
	Requests map[string]string `json:"requests"`
	Limits   map[string]string `json:"limits"`
	// NonZero is resource.NonZeroRequests (upstream: the Non0CPU and
	// Non0Mem of the scheduler's PodInfo.CalculateResource).
	NonZero [2]int64 `json:"nonZero"`
	// PodInfo is the scheduler's PodInfo resource (cluster.NewPodInfo;
	// upstream CalculateResource).
	PodInfo SchedulerResource `json:"podInfo"`
	// QOS is the class computed from the spec as given (upstream
	// ComputePodQOS); QOSOf honours status.qosClass (GetPodQOS);
	// QOSDefaulted is ComputePodQOS after the API server's pod defaulting
	// (resource.DefaultRequestsFromLimits; upstream SetDefaults_Pod).
	QOS          string `json:"qos"`
	QOSOf        string `json:"qosOf"`
	QOSDefaulted string `json:"qosDefaulted"`
}

// ListStrings renders a resource list as name → canonical quantity.
func ListStrings(l api.ResourceList) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// EvalPodResources is schedkit's answer for a pod resources input.
func EvalPodResources(in *PodResourcesInput) PodResourcesAnswer {
	opts := resource.PodResourcesOptions{
		UseStatusResources:          in.Options.UseStatusResources,
		ExcludeOverhead:             in.Options.ExcludeOverhead,
		SkipPodLevelResources:       in.Options.SkipPodLevelResources,
		SkipContainerLevelResources: in.Options.SkipContainerLevelResources,
		// InPlacePodLevelResourcesVerticalScaling is on by default in
		// v1.37; it only matters with UseStatusResources.
		InPlacePodLevelResourcesVerticalScalingEnabled: in.Options.UseStatusResources,
	}
	if in.Options.NonMissingDefaults {
		opts.NonMissingContainerRequests = resource.DefaultNonZeroRequests()
	}
	var a PodResourcesAnswer
	a.Requests = ListStrings(resource.PodRequests(in.Pod, opts))
	a.Limits = ListStrings(resource.PodLimits(in.Pod, opts))
	a.NonZero[0], a.NonZero[1] = resource.NonZeroRequests(in.Pod)
	pi := cluster.NewPodInfo(in.Pod)
	a.PodInfo = SchedulerResource{
		MilliCPU:         pi.Requests.MilliCPU,
		Memory:           pi.Requests.Memory,
		EphemeralStorage: pi.Requests.EphemeralStorage,
		NonZeroMilliCPU:  pi.NonZeroMilliCPU,
		NonZeroMemory:    pi.NonZeroMemory,
	}
	for _, s := range pi.Requests.Scalars {
		if a.PodInfo.Scalars == nil {
			a.PodInfo.Scalars = map[string]int64{}
		}
		a.PodInfo.Scalars[string(s.Name)] = s.Value
	}
	a.QOS = string(qos.Compute(in.Pod))
	a.QOSOf = string(qos.Of(in.Pod))
	d := in.Pod.DeepCopy()
	resource.DefaultRequestsFromLimits(d)
	a.QOSDefaulted = string(qos.Compute(d))
	return a
}

// ------------------------------------------------------------- limitrange

// LimitRangeInput is a pod being created and the LimitRanges of its
// namespace, as a user wrote them: both sides apply the API server's
// defaulting to each (pod limits → requests; LimitRange defaults) before
// admission.
type LimitRangeInput struct {
	Pod         *api.Pod         `json:"pod"`
	LimitRanges []api.LimitRange `json:"limitRanges"`
}

// ContainerResources are one container's resources after admission.
type ContainerResources struct {
	Name     string            `json:"name"`
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
}

// LimitRangeAnswer is the outcome of admitting the pod: whether it is
// admitted and with which resources and annotation, or the index of the
// first LimitRange it violates with that LimitRange's messages (sorted,
// without duplicates; upstream stops at the first violated LimitRange).
type LimitRangeAnswer struct {
	Admitted       bool                 `json:"admitted"`
	Violated       int                  `json:"violated"`
	Errors         []string             `json:"errors,omitempty"`
	Containers     []ContainerResources `json:"containers,omitempty"`
	InitContainers []ContainerResources `json:"initContainers,omitempty"`
	Annotation     string               `json:"annotation,omitempty"`
	// Text is the rejection as the API server prints it (`pods "p" is
	// forbidden: [a, b]`), given when the violated LimitRange bounds at
	// most one resource per min, max and ratio of each item, so that
	// upstream's order of messages does not depend on Go's map order.
	Text string `json:"text,omitempty"`
}

// LimitRangeTextComparable reports whether the messages of a violation
// of lr come in an order upstream fixes: each item's min, max and
// maxLimitRequestRatio name at most one resource (upstream walks each as
// a Go map).
func LimitRangeTextComparable(lr *api.LimitRange) bool {
	for _, it := range lr.Spec.Limits {
		if len(it.Min) > 1 || len(it.Max) > 1 || len(it.MaxLimitRequestRatio) > 1 {
			return false
		}
	}
	return true
}

func lrKey(lr *api.LimitRange) string {
	if lr.Namespace == "" {
		return lr.Name
	}
	return lr.Namespace + "/" + lr.Name
}

// SortedUnique sorts s and drops duplicates.
func SortedUnique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// ContainersResources lists the containers' requests and limits.
func ContainersResources(cs []api.Container) []ContainerResources {
	var out []ContainerResources
	for _, c := range cs {
		cr := ContainerResources{Name: c.Name}
		if len(c.Resources.Requests) > 0 {
			cr.Requests = ListStrings(c.Resources.Requests)
		}
		if len(c.Resources.Limits) > 0 {
			cr.Limits = ListStrings(c.Resources.Limits)
		}
		out = append(out, cr)
	}
	return out
}

// EvalLimitRange is schedkit's answer for a LimitRange admission input.
func EvalLimitRange(in *LimitRangeInput) LimitRangeAnswer {
	pod := in.Pod.DeepCopy()
	ranges := make([]api.LimitRange, len(in.LimitRanges))
	index := map[string]int{}
	for i := range in.LimitRanges {
		lr := in.LimitRanges[i].DeepCopy()
		resource.DefaultLimitRange(lr)
		ranges[i] = *lr
		if _, ok := index[lrKey(lr)]; !ok {
			index[lrKey(lr)] = i
		}
	}
	a := LimitRangeAnswer{Violated: -1}
	err := resource.ApplyLimitRanges(pod, ranges)
	if err == nil {
		a.Admitted = true
		a.Containers = ContainersResources(pod.Spec.Containers)
		a.InitContainers = ContainersResources(pod.Spec.InitContainers)
		a.Annotation = pod.Annotations[resource.LimitRangerAnnotation]
		return a
	}
	var lres []*resource.LimitRangeError
	var walk func(error)
	walk = func(e error) {
		var lre *resource.LimitRangeError
		if errors.As(e, &lre) && lre == e {
			lres = append(lres, lre)
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		if errors.As(e, &lre) {
			lres = append(lres, lre)
			return
		}
		a.Errors = append(a.Errors, "other: "+e.Error())
	}
	walk(err)
	first := len(ranges)
	for _, e := range lres {
		if i, ok := index[e.LimitRange]; ok && i < first {
			first = i
		}
	}
	if first < len(ranges) {
		a.Violated = first
		for _, e := range lres {
			if index[e.LimitRange] == first {
				a.Errors = append(a.Errors, e.Message)
			}
		}
		if LimitRangeTextComparable(&in.LimitRanges[first]) {
			a.Text = err.Error()
		}
	}
	a.Errors = SortedUnique(a.Errors)
	return a
}

// ------------------------------------------------------------------ taints

// TaintsInput is a pod's tolerations and a node's taints.
type TaintsInput struct {
	Tolerations []api.Toleration `json:"tolerations"`
	Taints      []api.Taint      `json:"taints"`
	// ComparisonOperators enables the alpha Lt / Gt operators.
	ComparisonOperators bool `json:"comparisonOperators,omitempty"`
}

// TaintsAnswer says which toleration tolerates which taint, and which
// taint, if any, keeps the pod off the node.
type TaintsAnswer struct {
	// Tolerates[i][j]: toleration i tolerates taint j.
	Tolerates [][]bool `json:"tolerates"`
	// Any[j]: some toleration tolerates taint j.
	Any []bool `json:"any"`
	// Untolerated is the first NoSchedule or NoExecute taint no
	// toleration tolerates (the TaintToleration filter's test).
	Untolerated *api.Taint `json:"untolerated"`
	// UntoleratedAny is the first taint of any effect no toleration
	// tolerates (no filter).
	UntoleratedAny *api.Taint `json:"untoleratedAny"`
}

// EvalTaints is schedkit's answer for a taints input.
func EvalTaints(in *TaintsInput) TaintsAnswer {
	o := taints.Options{ComparisonOperators: in.ComparisonOperators}
	a := TaintsAnswer{Tolerates: [][]bool{}, Any: []bool{}}
	for _, tol := range in.Tolerations {
		row := []bool{}
		for _, t := range in.Taints {
			row = append(row, o.Tolerates(tol, t))
		}
		a.Tolerates = append(a.Tolerates, row)
	}
	for _, t := range in.Taints {
		a.Any = append(a.Any, o.TolerationsTolerate(in.Tolerations, t))
	}
	if t, ok := o.FindUntolerated(in.Taints, in.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); ok {
		a.Untolerated = &t
	}
	if t, ok := o.FindUntolerated(in.Taints, in.Tolerations); ok {
		a.UntoleratedAny = &t
	}
	return a
}

// ------------------------------------------------------------ nodeaffinity

// NodeAffinityInput is a pod's node selector and affinity, and a node.
type NodeAffinityInput struct {
	Pod  *api.Pod  `json:"pod"`
	Node *api.Node `json:"node"`
}

// NodeAffinityAnswer is how the pod's node constraints judge the node.
// Errors are messages; "" is no error.
type NodeAffinityAnswer struct {
	// Required: nodeSelector and required node affinity
	// (GetRequiredNodeAffinity(pod).Match(node)).
	Required    bool   `json:"required"`
	RequiredErr string `json:"requiredErr,omitempty"`
	// Terms: MatchNodeSelectorTerms(node, required node selector), when
	// the pod has one (upstream panics on a nil selector).
	Terms    bool   `json:"terms"`
	TermsErr string `json:"termsErr,omitempty"`
	// NewErr: NewNodeSelector(required node selector) (eager
	// validation); only when the pod has one.
	NewErr string `json:"newErr,omitempty"`
	// Preferred: NewPreferredSchedulingTerms(preferred terms) and its
	// Score(node).
	Preferred    int64  `json:"preferred"`
	PreferredErr string `json:"preferredErr,omitempty"`
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// EvalNodeAffinity is schedkit's answer for a node affinity input.
func EvalNodeAffinity(in *NodeAffinityInput) NodeAffinityAnswer {
	var a NodeAffinityAnswer
	req := affinity.GetRequiredNodeAffinity(in.Pod)
	ok, err := req.Match(in.Node)
	a.Required, a.RequiredErr = ok, errString(err)
	var ns *api.NodeSelector
	var pref []api.PreferredSchedulingTerm
	if in.Pod != nil && in.Pod.Spec.Affinity != nil && in.Pod.Spec.Affinity.NodeAffinity != nil {
		ns = in.Pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		pref = in.Pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if ns != nil {
		ok, err = affinity.MatchNodeSelectorTerms(in.Node, ns)
		a.Terms, a.TermsErr = ok, errString(err)
		_, err = affinity.NewNodeSelector(ns)
		a.NewErr = errString(err)
	}
	p, err := affinity.NewPreferredSchedulingTerms(pref)
	if err != nil {
		a.PreferredErr = err.Error()
	} else {
		a.Preferred = p.Score(in.Node)
	}
	return a
}

// ----------------------------------------------------------- labelselector

// LabelSelectorInput is a label selector, either an API selector or one
// in the string syntax, and a label set to match it against.
type LabelSelectorInput struct {
	Selector *api.LabelSelector `json:"selector,omitempty"`
	// String, when set, is parsed instead of Selector.
	String *string           `json:"string,omitempty"`
	Labels map[string]string `json:"labels"`
}

// LabelSelectorAnswer is the compiled selector's verdict.
type LabelSelectorAnswer struct {
	// Err is the compile error's message. For an API selector with more
	// than one invalid matchLabels pair it is "invalid": upstream reports
	// whichever it meets first in map order.
	Err     string `json:"err,omitempty"`
	Matches bool   `json:"matches"`
	String  string `json:"string"`
	Empty   bool   `json:"empty"`
}

// InvalidMatchLabels counts the matchLabels pairs that fail validate.
func InvalidMatchLabels(ls *api.LabelSelector, validate func(k, v string) bool) int {
	if ls == nil {
		return 0
	}
	n := 0
	for k, v := range ls.MatchLabels {
		if !validate(k, v) {
			n++
		}
	}
	return n
}

// EvalLabelSelector is schedkit's answer for a label selector input.
func EvalLabelSelector(in *LabelSelectorInput) LabelSelectorAnswer {
	var sel affinity.Selector
	var err error
	if in.String != nil {
		sel, err = affinity.ParseSelector(*in.String)
	} else {
		sel, err = affinity.CompileLabelSelector(in.Selector)
	}
	var a LabelSelectorAnswer
	if err != nil {
		a.Err = err.Error()
		if in.String == nil && InvalidMatchLabels(in.Selector, func(k, v string) bool {
			_, err := affinity.NewRequirement(k, affinity.OpEquals, []string{v})
			return err == nil
		}) > 1 {
			a.Err = "invalid"
		}
		return a
	}
	a.Matches = sel.Matches(in.Labels)
	a.String = sel.String()
	a.Empty = sel.Empty()
	return a
}
