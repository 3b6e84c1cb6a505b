package affinity

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// NodeNameField is the only node field matchFields can usefully name.
const NodeNameField = "metadata.name"

var validNodeOperators = []api.NodeSelectorOperator{
	api.NodeSelectorOpIn, api.NodeSelectorOpNotIn, api.NodeSelectorOpExists,
	api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpGt, api.NodeSelectorOpLt,
}

var validFieldOperators = []api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn}

// fieldReq is one compiled matchFields requirement: the node field must
// (In) or must not (NotIn) equal value.
type fieldReq struct {
	key   string
	value string
	notIn bool
}

// nodeTerm is one compiled NodeSelectorTerm: its expressions and fields
// ANDed.
type nodeTerm struct {
	labels    []Requirement
	fields    []fieldReq
	hasLabels bool
	hasFields bool
	errs      ErrorList
}

func compileNodeTerm(t *api.NodeSelectorTerm, p *field.Path) nodeTerm {
	var nt nodeTerm
	if len(t.MatchExpressions) != 0 {
		nt.hasLabels = true
		mp := p.Child("matchExpressions")
		for i, e := range t.MatchExpressions {
			ep := mp.Index(i)
			var op Operator
			switch e.Operator {
			case api.NodeSelectorOpIn:
				op = OpIn
			case api.NodeSelectorOpNotIn:
				op = OpNotIn
			case api.NodeSelectorOpExists:
				op = OpExists
			case api.NodeSelectorOpDoesNotExist:
				op = OpDoesNotExist
			case api.NodeSelectorOpGt:
				op = OpGreaterThan
			case api.NodeSelectorOpLt:
				op = OpLessThan
			default:
				nt.errs = append(nt.errs, field.NotSupported(ep.Child("operator"), e.Operator, validNodeOperators))
				continue
			}
			r, err := newRequirement(e.Key, op, e.Values, ep)
			if err != nil {
				nt.errs = append(nt.errs, err.(ErrorList)...)
				continue
			}
			nt.labels = append(nt.labels, r)
		}
		sortByKey(nt.labels)
	}
	if len(t.MatchFields) != 0 {
		nt.hasFields = true
		fp := p.Child("matchFields")
		for i, f := range t.MatchFields {
			ep := fp.Index(i)
			switch f.Operator {
			case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
				if len(f.Values) != 1 {
					nt.errs = append(nt.errs, field.Invalid(ep.Child("values"), f.Values, "must have one element"))
					continue
				}
				nt.fields = append(nt.fields, fieldReq{key: f.Key, value: f.Values[0], notIn: f.Operator == api.NodeSelectorOpNotIn})
			default:
				nt.errs = append(nt.errs, field.NotSupported(ep.Child("operator"), f.Operator, validFieldOperators))
			}
		}
	}
	if len(nt.errs) != 0 {
		nt.labels, nt.fields = nil, nil
	}
	return nt
}

// match reports whether a valid term matches the node. Node fields other
// than metadata.name read as "", and a node without a name skips
// matchFields entirely, both as upstream.
func (t *nodeTerm) match(node *api.Node) bool {
	if t.hasLabels {
		for i := range t.labels {
			if !t.labels[i].Matches(node.Labels) {
				return false
			}
		}
	}
	if t.hasFields && node.Name != "" {
		for _, f := range t.fields {
			var v string
			if f.key == NodeNameField {
				v = node.Name
			}
			if (v == f.value) == f.notIn {
				return false
			}
		}
	}
	return true
}

// NodeSelector is a compiled api.NodeSelector: its terms are ORed, and
// within a term matchExpressions (over node labels) and matchFields
// (over metadata.name) are ANDed. A term with neither matches nothing
// and is dropped, so an empty term list matches no node. It mirrors
// Kubernetes' nodeaffinity.LazyErrorNodeSelector: a term that fails to
// compile never matches, and its error is reported only when no other
// term matches. A NodeSelector is immutable and safe for concurrent use.
type NodeSelector struct {
	terms []nodeTerm
	err   error
}

// CompileNodeSelector compiles ns, keeping compile errors for Match to
// report (see NodeSelector). A nil ns has no terms and matches no node.
// Error fields are named "nodeSelectorTerms[i].matchExpressions[j]...".
func CompileNodeSelector(ns *api.NodeSelector) *NodeSelector {
	out := &NodeSelector{}
	if ns == nil {
		return out
	}
	var errs ErrorList
	base := field.NewPath("nodeSelectorTerms")
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		nt := compileNodeTerm(t, base.Index(i))
		errs = append(errs, nt.errs...)
		out.terms = append(out.terms, nt)
	}
	out.err = errs.ToAggregate()
	return out
}

// NewNodeSelector compiles ns and fails if any term fails, as Kubernetes'
// nodeaffinity.NewNodeSelector does. The error is an ErrorList.
func NewNodeSelector(ns *api.NodeSelector) (*NodeSelector, error) {
	s := CompileNodeSelector(ns)
	if s.err != nil {
		return nil, s.err
	}
	return s, nil
}

// Err returns the compile errors of all invalid terms, or nil.
func (s *NodeSelector) Err() error { return s.err }

// Match reports whether any term matches the node. If none does, it
// returns the compile errors of the invalid terms (nil if there are
// none). A nil node matches nothing. Match does not allocate.
func (s *NodeSelector) Match(node *api.Node) (bool, error) {
	if s == nil || node == nil {
		return false, nil
	}
	for i := range s.terms {
		t := &s.terms[i]
		if t.errs == nil && t.match(node) {
			return true, nil
		}
	}
	return false, s.err
}

// MatchNodeSelectorTerms reports whether the node matches ns, as
// Kubernetes' corev1 helper of that name: terms ORed, an empty or nil
// term list matches nothing, and a nil node matches nothing. Unlike
// NodeSelector it compiles ns on every call; compile once for hot paths.
func MatchNodeSelectorTerms(node *api.Node, ns *api.NodeSelector) (bool, error) {
	if node == nil {
		return false, nil
	}
	return CompileNodeSelector(ns).Match(node)
}

// RequiredNodeAffinity is a pod's hard node constraints compiled once:
// spec.nodeSelector and
// spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution,
// both of which must hold.
type RequiredNodeAffinity struct {
	labels   Selector
	hasLabel bool
	affinity *NodeSelector
}

// GetRequiredNodeAffinity compiles the pod's nodeSelector and required
// node affinity, as Kubernetes' nodeaffinity.GetRequiredNodeAffinity. A
// nil pod has no constraints.
func GetRequiredNodeAffinity(pod *api.Pod) RequiredNodeAffinity {
	if pod == nil {
		return RequiredNodeAffinity{}
	}
	return NewRequiredNodeAffinity(pod.Spec.NodeSelector, pod.Spec.Affinity)
}

// NewRequiredNodeAffinity compiles a nodeSelector map and an affinity, as
// GetRequiredNodeAffinity does for a pod carrying them. The nodeSelector
// pairs are not validated (as upstream); required affinity terms are,
// lazily (see NodeSelector).
func NewRequiredNodeAffinity(nodeSelector map[string]string, aff *api.Affinity) RequiredNodeAffinity {
	var r RequiredNodeAffinity
	if len(nodeSelector) > 0 {
		r.labels = SelectorFromSet(nodeSelector)
		r.hasLabel = true
	}
	if aff != nil && aff.NodeAffinity != nil && aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.affinity = CompileNodeSelector(aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return r
}

// Match reports whether the node satisfies both the nodeSelector and the
// required node affinity. A required affinity whose terms are all
// invalid or empty matches nothing; with no required affinity only the
// nodeSelector counts. The error, returned only when the affinity does
// not match, lists invalid terms. A nil node has no labels and no name.
// Match does not allocate.
func (r RequiredNodeAffinity) Match(node *api.Node) (bool, error) {
	if r.hasLabel {
		var lbls map[string]string
		if node != nil {
			lbls = node.Labels
		}
		if !r.labels.Matches(lbls) {
			return false, nil
		}
	}
	if r.affinity != nil {
		return r.affinity.Match(node)
	}
	return true, nil
}

// SingleLabelKey returns the node label key the constraints read when
// they read exactly one and no node field: Match then depends only on a
// node's value of that key, or its absence, so that a caller may decide
// it once per value. Invalid terms read nothing (they never match).
func (r RequiredNodeAffinity) SingleLabelKey() (string, bool) {
	key, n := "", 0
	use := func(k string) bool {
		if n > 0 && k != key {
			return false
		}
		key, n = k, n+1
		return true
	}
	if r.hasLabel {
		for i := range r.labels.reqs {
			if !use(r.labels.reqs[i].key) {
				return "", false
			}
		}
	}
	if r.affinity != nil {
		for i := range r.affinity.terms {
			t := &r.affinity.terms[i]
			if t.errs != nil {
				continue
			}
			if t.hasFields {
				return "", false
			}
			for j := range t.labels {
				if !use(t.labels[j].key) {
					return "", false
				}
			}
		}
	}
	return key, n > 0
}

// Err returns the compile errors of the required affinity's invalid
// terms, or nil.
func (r RequiredNodeAffinity) Err() error {
	if r.affinity == nil {
		return nil
	}
	return r.affinity.err
}

type weightedNodeTerm struct {
	nodeTerm
	weight int64
}

// PreferredSchedulingTerms are a pod's preferred node affinity terms
// compiled once; Score sums the weights of the terms a node matches.
type PreferredSchedulingTerms struct {
	terms []weightedNodeTerm
}

// NewPreferredSchedulingTerms compiles preferred terms as Kubernetes'
// nodeaffinity.NewPreferredSchedulingTerms: terms with weight 0 or with
// neither matchExpressions nor matchFields are skipped without being
// checked, and any invalid remaining term fails the whole list (error
// fields named "[i].matchExpressions[j]...", as an ErrorList).
func NewPreferredSchedulingTerms(terms []api.PreferredSchedulingTerm) (*PreferredSchedulingTerms, error) {
	var errs ErrorList
	out := &PreferredSchedulingTerms{}
	for i := range terms {
		t := &terms[i]
		if t.Weight == 0 || (len(t.Preference.MatchExpressions) == 0 && len(t.Preference.MatchFields) == 0) {
			continue
		}
		nt := compileNodeTerm(&t.Preference, (*field.Path)(nil).Index(i))
		if len(nt.errs) != 0 {
			errs = append(errs, nt.errs...)
			continue
		}
		out.terms = append(out.terms, weightedNodeTerm{nodeTerm: nt, weight: int64(t.Weight)})
	}
	if len(errs) != 0 {
		return nil, errs.ToAggregate()
	}
	return out, nil
}

// GetPreferredNodeAffinity compiles the pod's preferred node affinity
// terms, or returns nil if it has none (the NodeAffinity score plugin
// then skips the pod).
func GetPreferredNodeAffinity(pod *api.Pod) (*PreferredSchedulingTerms, error) {
	if pod == nil || pod.Spec.Affinity == nil || pod.Spec.Affinity.NodeAffinity == nil ||
		pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution == nil {
		return nil, nil
	}
	return NewPreferredSchedulingTerms(pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
}

// Score is the sum of the weights of the terms that match the node, the
// NodeAffinity plugin's raw (unnormalized) score. Nil terms or a nil
// node score 0. Score does not allocate.
func (p *PreferredSchedulingTerms) Score(node *api.Node) int64 {
	if p == nil || node == nil {
		return 0
	}
	var score int64
	for i := range p.terms {
		if p.terms[i].match(node) {
			score += p.terms[i].weight
		}
	}
	return score
}
