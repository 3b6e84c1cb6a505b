package affinity

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// AffinityTerm is a compiled api.PodAffinityTerm of some pod Q (the
// term's owner), as the scheduler's framework.AffinityTerm: which pods it
// selects and over which topology key. Treat its fields as read-only
// once built; it is then safe for concurrent use.
type AffinityTerm struct {
	// Selector is the term's label selector over pods, with
	// matchLabelKeys / mismatchLabelKeys already merged in. A nil
	// labelSelector compiles to Nothing.
	Selector Selector
	// Namespaces are the namespaces the term looks in by name. When the
	// term lists none and has no namespaceSelector, this is Q's own
	// namespace.
	Namespaces map[string]struct{}
	// NamespaceSelector selects further namespaces by their labels: nil
	// in the API compiles to Nothing, {} to Everything (all namespaces).
	NamespaceSelector Selector
	// TopologyKey is the node label that defines co-location domains.
	TopologyKey string
}

// WeightedAffinityTerm is a compiled preferred (weighted) pod affinity
// term.
type WeightedAffinityTerm struct {
	AffinityTerm
	// Weight is added to (affinity) or subtracted from (anti-affinity) a
	// node's score per matching pod in its domain.
	Weight int32
}

// NewAffinityTerm compiles term, owned by pod, as the scheduler's
// newAffinityTerm does. Like the scheduler, it reads only the label
// selector: matchLabelKeys and mismatchLabelKeys are merged into the
// selector by the API server when the pod is created, so a pod taken
// from a manifest that was never admitted should go through
// MergeLabelKeys (or resource/admission helpers) first. Namespaces: the
// listed ones, or pod's own namespace if there are none and
// namespaceSelector is nil. A nil pod counts as a pod in namespace "".
func NewAffinityTerm(pod *api.Pod, term *api.PodAffinityTerm) (AffinityTerm, error) {
	if term == nil {
		return AffinityTerm{Selector: Nothing(), NamespaceSelector: Nothing(), Namespaces: map[string]struct{}{}}, nil
	}
	var podNS string
	if pod != nil {
		podNS = pod.Namespace
	}
	sel, err := CompileLabelSelector(term.LabelSelector)
	if err != nil {
		return AffinityTerm{}, err
	}
	nsSel, err := CompileLabelSelector(term.NamespaceSelector)
	if err != nil {
		return AffinityTerm{}, err
	}
	ns := make(map[string]struct{}, max(1, len(term.Namespaces)))
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		ns[podNS] = struct{}{}
	} else {
		for _, n := range term.Namespaces {
			ns[n] = struct{}{}
		}
	}
	return AffinityTerm{Selector: sel, Namespaces: ns, NamespaceSelector: nsSel, TopologyKey: term.TopologyKey}, nil
}

// MergeLabelKeys returns term with its matchLabelKeys and
// mismatchLabelKeys applied to a copy of its label selector, as the API
// server does when a pod is created (registry/core/pod strategy,
// MatchLabelKeysInPodAffinity, GA and locked on since v1.33): for each
// key in matchLabelKeys that podLabels has, "key In (value)" is appended
// to matchExpressions; for each in mismatchLabelKeys, "key NotIn
// (value)". Keys the pod lacks are skipped, and a nil label selector
// stays nil (it matches nothing anyway). The scheduler itself only reads
// the merged selector. Unlike the API server, an expression that is
// already present is not appended twice, so merging an admitted pod's
// term changes nothing. term itself is not modified.
func MergeLabelKeys(term api.PodAffinityTerm, podLabels map[string]string) api.PodAffinityTerm {
	if (len(term.MatchLabelKeys) == 0 && len(term.MismatchLabelKeys) == 0) || term.LabelSelector == nil {
		return term
	}
	ls := &api.LabelSelector{
		MatchLabels:      term.LabelSelector.MatchLabels,
		MatchExpressions: append([]api.LabelSelectorRequirement(nil), term.LabelSelector.MatchExpressions...),
	}
	add := func(keys []string, op api.LabelSelectorOperator) {
		for _, k := range keys {
			v, ok := podLabels[k]
			if !ok || hasExpression(ls.MatchExpressions, k, op, v) {
				continue
			}
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
		}
	}
	add(term.MatchLabelKeys, api.LabelSelectorOpIn)
	add(term.MismatchLabelKeys, api.LabelSelectorOpNotIn)
	term.LabelSelector = ls
	return term
}

func hasExpression(exprs []api.LabelSelectorRequirement, key string, op api.LabelSelectorOperator, v string) bool {
	for _, e := range exprs {
		if e.Key == key && e.Operator == op && len(e.Values) == 1 && e.Values[0] == v {
			return true
		}
	}
	return false
}

// Matches reports whether pod P matches this term of pod Q: P's
// namespace is one of the term's namespaces, or nsLabels (the labels of
// P's namespace) match the namespace selector; and P's labels match the
// label selector. Pass nil nsLabels when P's namespace labels are
// unknown, as the scheduler does for existing pods. Matches does not
// allocate.
func (t *AffinityTerm) Matches(pod *api.Pod, nsLabels map[string]string) bool {
	if pod == nil {
		return false
	}
	if _, ok := t.Namespaces[pod.Namespace]; ok || t.NamespaceSelector.Matches(nsLabels) {
		return t.Selector.Matches(pod.Labels)
	}
	return false
}

// ResolveNamespaceSelector returns a copy of t whose namespace selector
// has been replaced by the names of the namespaces it selects, as the
// InterPodAffinity plugin does in PreFilter / PreScore
// (mergeAffinityTermNamespacesIfNotEmpty). An empty selector (all
// namespaces) is left as it is.
func (t AffinityTerm) ResolveNamespaceSelector(namespaces []*api.Namespace) AffinityTerm {
	if t.NamespaceSelector.Empty() {
		return t
	}
	ns := make(map[string]struct{}, len(t.Namespaces))
	for n := range t.Namespaces {
		ns[n] = struct{}{}
	}
	for _, n := range namespaces {
		if n != nil && t.NamespaceSelector.Matches(n.Labels) {
			ns[n.Name] = struct{}{}
		}
	}
	t.Namespaces = ns
	t.NamespaceSelector = Nothing()
	return t
}

// TopologyValue returns the topology domain node N is in for key K: the
// value of N's label K, and whether N has it. Nodes without the label
// are in no domain for K. It does not allocate.
func TopologyValue(node *api.Node, key string) (string, bool) {
	if node == nil {
		return "", false
	}
	v, ok := node.Labels[key]
	return v, ok
}

// NewAffinityTerms compiles terms owned by pod; nil terms give nil. The
// first error stops compilation, as upstream GetAffinityTerms.
func NewAffinityTerms(pod *api.Pod, terms []api.PodAffinityTerm) ([]AffinityTerm, error) {
	if terms == nil {
		return nil, nil
	}
	var out []AffinityTerm
	for i := range terms {
		t, err := NewAffinityTerm(pod, &terms[i])
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// NewWeightedAffinityTerms compiles weighted terms owned by pod, as
// upstream GetWeightedAffinityTerms.
func NewWeightedAffinityTerms(pod *api.Pod, terms []api.WeightedPodAffinityTerm) ([]WeightedAffinityTerm, error) {
	if terms == nil {
		return nil, nil
	}
	var out []WeightedAffinityTerm
	for i := range terms {
		t, err := NewAffinityTerm(pod, &terms[i].PodAffinityTerm)
		if err != nil {
			return nil, err
		}
		out = append(out, WeightedAffinityTerm{AffinityTerm: t, Weight: terms[i].Weight})
	}
	return out, nil
}

// PodAffinity is every pod (anti-)affinity term of one pod compiled once,
// as the scheduler's PodInfo holds them.
type PodAffinity struct {
	// RequiredAffinity are podAffinity required terms.
	RequiredAffinity []AffinityTerm
	// RequiredAntiAffinity are podAntiAffinity required terms.
	RequiredAntiAffinity []AffinityTerm
	// PreferredAffinity are podAffinity preferred terms.
	PreferredAffinity []WeightedAffinityTerm
	// PreferredAntiAffinity are podAntiAffinity preferred terms.
	PreferredAntiAffinity []WeightedAffinityTerm
}

// CompilePodAffinity compiles all of pod's pod affinity and anti-affinity
// terms. As upstream NewPodInfo, a group that fails to compile is left
// empty while the others are kept, and the error lists each failing
// group with its name ("requiredAffinityTerms: ...").
func CompilePodAffinity(pod *api.Pod) (PodAffinity, error) {
	var out PodAffinity
	if pod == nil || pod.Spec.Affinity == nil {
		return out, nil
	}
	a := pod.Spec.Affinity
	var reqA, reqAnti []api.PodAffinityTerm
	var prefA, prefAnti []api.WeightedPodAffinityTerm
	if a.PodAffinity != nil {
		reqA, prefA = a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if a.PodAntiAffinity != nil {
		reqAnti, prefAnti = a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if len(reqA) == 0 {
		reqA = nil
	}
	if len(reqAnti) == 0 {
		reqAnti = nil
	}
	var errs multiError
	var err error
	if out.RequiredAffinity, err = NewAffinityTerms(pod, reqA); err != nil {
		errs = append(errs, fmt.Errorf("requiredAffinityTerms: %w", err))
	}
	if out.RequiredAntiAffinity, err = NewAffinityTerms(pod, reqAnti); err != nil {
		errs = append(errs, fmt.Errorf("requiredAntiAffinityTerms: %w", err))
	}
	if out.PreferredAffinity, err = NewWeightedAffinityTerms(pod, prefA); err != nil {
		errs = append(errs, fmt.Errorf("preferredAffinityTerms: %w", err))
	}
	if out.PreferredAntiAffinity, err = NewWeightedAffinityTerms(pod, prefAnti); err != nil {
		errs = append(errs, fmt.Errorf("preferredAntiAffinityTerms: %w", err))
	}
	switch len(errs) {
	case 0:
		return out, nil
	case 1:
		return out, errs[0]
	}
	return out, errs
}

// multiError prints several errors as Kubernetes' aggregate does.
type multiError []error

func (m multiError) Error() string {
	msgs := make([]string, len(m))
	for i, e := range m {
		msgs[i] = e.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

func (m multiError) Unwrap() []error { return m }

// AppendKey appends to b an encoding of t in which two terms are equal
// only if they match the same pods over the same topology key: the
// selectors' keys, the namespaces sorted, the topology key. An index
// groups the equal terms of many pods by it.
func (t *AffinityTerm) AppendKey(b []byte) []byte {
	b = t.Selector.AppendKey(b)
	b = t.NamespaceSelector.AppendKey(b)
	var buf [4]string
	ns := buf[:0]
	for n := range t.Namespaces {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	b = binary.AppendUvarint(b, uint64(len(ns)))
	for _, n := range ns {
		b = appendString(b, n)
	}
	return appendString(b, t.TopologyKey)
}
