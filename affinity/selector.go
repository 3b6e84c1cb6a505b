package affinity

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// Operator relates a label key to a requirement's values. The values are
// the string-form operators of Kubernetes' selection package.
type Operator string

// Label selector operators.
const (
	OpIn           Operator = "in"
	OpNotIn        Operator = "notin"
	OpEquals       Operator = "="
	OpDoubleEquals Operator = "=="
	OpNotEquals    Operator = "!="
	OpExists       Operator = "exists"
	OpDoesNotExist Operator = "!"
	OpGreaterThan  Operator = "gt"
	OpLessThan     Operator = "lt"
)

// validOperators lists the operators in the order Kubernetes' error
// messages list them.
var validOperators = []Operator{OpIn, OpNotIn, OpEquals, OpDoubleEquals, OpNotEquals, OpGreaterThan, OpLessThan, OpExists, OpDoesNotExist}

// Requirement is one compiled condition on a label: a key, an operator
// and values. Build one with NewRequirement; the zero value matches
// nothing.
type Requirement struct {
	key      string
	operator Operator
	values   []string
	// num is the parsed single value of Gt and Lt.
	num int64
}

// NewRequirement validates and compiles a requirement, with the rules
// (and error messages) of Kubernetes' labels.NewRequirement:
//   - the key must be a valid label key;
//   - In and NotIn need at least one value;
//   - =, == and != need exactly one value;
//   - Exists and DoesNotExist take no values;
//   - Gt and Lt need exactly one value that parses as a 64-bit integer;
//   - every value must be a valid label value.
//
// The error, if any, is an ErrorList.
func NewRequirement(key string, op Operator, values []string) (Requirement, error) {
	return newRequirement(key, op, values, nil)
}

func newRequirement(key string, op Operator, values []string, p *field.Path) (Requirement, error) {
	var errs ErrorList
	if msgs := ValidateLabelKey(key); len(msgs) != 0 {
		errs = append(errs, field.Invalid(p.Child("key"), key, strings.Join(msgs, "; ")))
	}
	vp := p.Child("values")
	r := Requirement{key: key, operator: op, values: values}
	switch op {
	case OpIn, OpNotIn:
		if len(values) == 0 {
			errs = append(errs, field.Invalid(vp, values, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case OpEquals, OpDoubleEquals, OpNotEquals:
		if len(values) != 1 {
			errs = append(errs, field.Invalid(vp, values, "exact-match compatibility requires one single value"))
		}
	case OpExists, OpDoesNotExist:
		if len(values) != 0 {
			errs = append(errs, field.Invalid(vp, values, "values set must be empty for exists and does not exist"))
		}
	case OpGreaterThan, OpLessThan:
		if len(values) != 1 {
			errs = append(errs, field.Invalid(vp, values, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range values {
			n, ok := parseInt64(v)
			if !ok {
				errs = append(errs, field.Invalid(vp.Index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			} else if i == 0 {
				r.num = n
			}
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("operator"), op, validOperators))
	}
	for i, v := range values {
		if msgs := ValidateLabelValue(v); len(msgs) != 0 {
			errs = append(errs, field.Invalid(vp.Index(i).Key(key), v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) != 0 {
		return Requirement{}, errs.ToAggregate()
	}
	// Keep a private copy so later changes to the caller's slice (say,
	// the pod spec it came from) cannot change the compiled requirement.
	r.values = append([]string(nil), values...)
	return r, nil
}

// Key is the label key the requirement tests.
func (r *Requirement) Key() string { return r.key }

// Operator is the requirement's operator.
func (r *Requirement) Operator() Operator { return r.operator }

// Values returns a copy of the requirement's values, in the order given.
func (r *Requirement) Values() []string { return append([]string(nil), r.values...) }

func (r *Requirement) hasValue(v string) bool {
	for _, x := range r.values {
		if x == v {
			return true
		}
	}
	return false
}

// Matches reports whether labels satisfy the requirement:
//   - In, =, ==: the key is present and its value is one of the values;
//   - NotIn, !=: the key is absent, or its value is none of the values;
//   - Exists / DoesNotExist: the key is present / absent;
//   - Gt, Lt: the key is present, its value parses as an integer, and it
//     is greater / less than the requirement's value.
//
// Matches does not allocate.
func (r *Requirement) Matches(labels map[string]string) bool {
	switch r.operator {
	case OpIn, OpEquals, OpDoubleEquals:
		v, ok := labels[r.key]
		return ok && r.hasValue(v)
	case OpNotIn, OpNotEquals:
		v, ok := labels[r.key]
		return !ok || !r.hasValue(v)
	case OpExists:
		_, ok := labels[r.key]
		return ok
	case OpDoesNotExist:
		_, ok := labels[r.key]
		return !ok
	case OpGreaterThan, OpLessThan:
		v, ok := labels[r.key]
		if !ok {
			return false
		}
		n, ok := parseInt64(v)
		if !ok {
			return false
		}
		if r.operator == OpGreaterThan {
			return n > r.num
		}
		return n < r.num
	}
	return false
}

// String renders the requirement as Kubernetes does: "!key", "key",
// "key=v", "key==v", "key!=v", "key in (a,b)", "key notin (a,b)",
// "key>1", "key<1". Several values are printed sorted.
func (r *Requirement) String() string {
	var b strings.Builder
	r.appendTo(&b)
	return b.String()
}

func (r *Requirement) appendTo(b *strings.Builder) {
	if r.operator == OpDoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.operator {
	case OpEquals:
		b.WriteString("=")
	case OpDoubleEquals:
		b.WriteString("==")
	case OpNotEquals:
		b.WriteString("!=")
	case OpIn:
		b.WriteString(" in ")
	case OpNotIn:
		b.WriteString(" notin ")
	case OpGreaterThan:
		b.WriteString(">")
	case OpLessThan:
		b.WriteString("<")
	case OpExists, OpDoesNotExist:
		return
	}
	set := r.operator == OpIn || r.operator == OpNotIn
	if set {
		b.WriteByte('(')
	}
	vals := r.values
	if !sort.StringsAreSorted(vals) {
		vals = append([]string(nil), vals...)
		sort.Strings(vals)
	}
	b.WriteString(strings.Join(vals, ","))
	if set {
		b.WriteByte(')')
	}
}

// Selector is a compiled label selector: a conjunction of requirements,
// kept sorted by key as Kubernetes sorts them. The zero value, like
// Everything, has no requirements and matches every label set; Nothing
// matches none. A Selector is immutable and safe for concurrent use.
type Selector struct {
	reqs    []Requirement
	nothing bool
}

// Everything returns the selector that matches every label set.
func Everything() Selector { return Selector{} }

// Nothing returns the selector that matches no label set.
func Nothing() Selector { return Selector{nothing: true} }

// NewSelector builds a selector from already-built requirements, sorting
// them by key.
func NewSelector(reqs ...Requirement) Selector {
	s := Selector{reqs: append([]Requirement(nil), reqs...)}
	sortByKey(s.reqs)
	return s
}

// byKey sorts requirements by key with sort.Sort, the same (unstable but
// deterministic) algorithm Kubernetes uses, so requirements that share a
// key end up in the same order as upstream's.
type byKey []Requirement

func (a byKey) Len() int           { return len(a) }
func (a byKey) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byKey) Less(i, j int) bool { return a[i].key < a[j].key }

func sortByKey(reqs []Requirement) { sort.Sort(byKey(reqs)) }

// Add returns a new selector with reqs added to s's requirements. Adding
// to Nothing yields Nothing.
func (s Selector) Add(reqs ...Requirement) Selector {
	if s.nothing {
		return s
	}
	out := make([]Requirement, 0, len(s.reqs)+len(reqs))
	out = append(out, s.reqs...)
	out = append(out, reqs...)
	sortByKey(out)
	return Selector{reqs: out}
}

// SelectorFromSet returns the selector that requires every key=value of
// set (Equals requirements). A nil or empty set gives Everything. Like
// Kubernetes' SelectorFromSet, keys and values are not validated.
func SelectorFromSet(set map[string]string) Selector {
	if len(set) == 0 {
		return Selector{}
	}
	reqs := make([]Requirement, 0, len(set))
	for _, k := range sortedKeys(set) {
		reqs = append(reqs, Requirement{key: k, operator: OpEquals, values: []string{set[k]}})
	}
	return Selector{reqs: reqs}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CompileLabelSelector compiles an API label selector as Kubernetes'
// metav1.LabelSelectorAsSelector does:
//   - a nil selector matches nothing;
//   - a selector with no matchLabels and no matchExpressions matches
//     everything;
//   - each matchLabels pair becomes key=value, each expression In, NotIn,
//     Exists or DoesNotExist; any other operator is an error naming it,
//     e.g. `"Equal" is not a valid label selector operator`;
//   - keys and values are validated as NewRequirement does.
//
// matchLabels are taken in sorted key order (upstream takes them in map
// order, so when several are invalid upstream reports a random one).
func CompileLabelSelector(ls *api.LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
		return Everything(), nil
	}
	reqs := make([]Requirement, 0, len(ls.MatchLabels)+len(ls.MatchExpressions))
	for _, k := range sortedKeys(ls.MatchLabels) {
		r, err := NewRequirement(k, OpEquals, []string{ls.MatchLabels[k]})
		if err != nil {
			return Selector{}, err
		}
		reqs = append(reqs, r)
	}
	for _, e := range ls.MatchExpressions {
		var op Operator
		switch e.Operator {
		case api.LabelSelectorOpIn:
			op = OpIn
		case api.LabelSelectorOpNotIn:
			op = OpNotIn
		case api.LabelSelectorOpExists:
			op = OpExists
		case api.LabelSelectorOpDoesNotExist:
			op = OpDoesNotExist
		default:
			return Selector{}, fmt.Errorf("%q is not a valid label selector operator", string(e.Operator))
		}
		r, err := NewRequirement(e.Key, op, append([]string(nil), e.Values...))
		if err != nil {
			return Selector{}, err
		}
		reqs = append(reqs, r)
	}
	sortByKey(reqs)
	return Selector{reqs: reqs}, nil
}

// Matches reports whether labels satisfy every requirement. Nothing
// matches no labels; Everything matches all, including nil. Matches does
// not allocate.
func (s Selector) Matches(labels map[string]string) bool {
	if s.nothing {
		return false
	}
	for i := range s.reqs {
		if !s.reqs[i].Matches(labels) {
			return false
		}
	}
	return true
}

// NumRequirements returns the number of requirements (0 for Nothing
// and Everything).
func (s Selector) NumRequirements() int { return len(s.reqs) }

// Equality returns the key and values of requirement i when it admits
// only the listed values of its key (=, == or In), and false otherwise.
// The values are the selector's own: do not modify them. An index of
// labels uses it to find the candidates of a selector without
// allocating.
func (s Selector) Equality(i int) (key string, values []string, ok bool) {
	r := &s.reqs[i]
	switch r.operator {
	case OpEquals, OpDoubleEquals, OpIn:
		return r.key, r.values, true
	}
	return "", nil, false
}

// Empty reports whether the selector places no restriction (Everything).
// Nothing is not empty.
func (s Selector) Empty() bool { return !s.nothing && len(s.reqs) == 0 }

// MatchesNothing reports whether s is Nothing.
func (s Selector) MatchesNothing() bool { return s.nothing }

// Requirements returns a copy of the requirements, sorted by key, and
// false for Nothing.
func (s Selector) Requirements() ([]Requirement, bool) {
	if s.nothing {
		return nil, false
	}
	return append([]Requirement(nil), s.reqs...), true
}

// RequiresExactMatch reports the single value s requires for label, if
// the first requirement on that key is =, == or In with one value.
func (s Selector) RequiresExactMatch(label string) (string, bool) {
	for i := range s.reqs {
		r := &s.reqs[i]
		if r.key != label {
			continue
		}
		switch r.operator {
		case OpEquals, OpDoubleEquals, OpIn:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
		return "", false
	}
	return "", false
}

// String renders the selector in the syntax ParseSelector reads, as
// Kubernetes does: requirements joined by ",", in key order. Everything
// and Nothing both render as "".
func (s Selector) String() string {
	var b strings.Builder
	for i := range s.reqs {
		if i > 0 {
			b.WriteByte(',')
		}
		s.reqs[i].appendTo(&b)
	}
	return b.String()
}

// AppendKey appends to b an encoding of s in which two selectors are
// equal only if they match the same labels: requirements in order, each
// field length-prefixed. An index groups equal selectors by it.
func (s Selector) AppendKey(b []byte) []byte {
	if s.nothing {
		return append(b, 'N')
	}
	b = append(b, 'S')
	b = binary.AppendUvarint(b, uint64(len(s.reqs)))
	for i := range s.reqs {
		r := &s.reqs[i]
		b = appendString(b, r.key)
		b = appendString(b, string(r.operator))
		b = binary.AppendUvarint(b, uint64(len(r.values)))
		for _, v := range r.values {
			b = appendString(b, v)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
