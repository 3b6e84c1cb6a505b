// Package affinitygen provides rapid generators of labels, label
// selectors, node selectors, nodes and pods with affinity terms, for
// property tests of package affinity and of code built on it.
//
// Keys and values are drawn mostly from small pools so that generated
// selectors and objects often match each other; the Any* generators also
// produce invalid input (bad keys, values and operators) for robustness
// tests.
package affinitygen

import (
	"strconv"

	"github.com/schedkit/schedkit/api"
	"pgregory.net/rapid"
)

// Keys is the pool of label keys most generators draw from.
var Keys = []string{"app", "tier", "env", "zone", "example.com/role", "topology.kubernetes.io/zone"}

// Values is the pool of label values most generators draw from; it
// includes the empty value and integers for Gt / Lt.
var Values = []string{"", "a", "b", "web", "db", "0", "1", "7", "42", "0204", "Prod_1.x"}

// LabelKey generates valid label keys, mostly from Keys.
func LabelKey() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(Keys),
		rapid.SampledFrom(Keys),
		rapid.StringMatching(`([a-z0-9]{1,5}\.){0,2}[a-z]{1,5}/[A-Za-z0-9]([-A-Za-z0-9_.]{0,8}[A-Za-z0-9])?`),
		rapid.StringMatching(`[A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?`),
	)
}

// LabelValue generates valid label values, mostly from Values.
func LabelValue() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(Values),
		rapid.SampledFrom(Values),
		rapid.StringMatching(`([A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?)?`),
	)
}

// IntValue generates label values that are integers, some with leading
// zeros, as Gt / Lt operands and node labels.
func IntValue() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.Map(rapid.Int64Range(0, 1000), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.Map(rapid.Uint64(), func(n uint64) string { return strconv.FormatUint(n, 10) }),
		rapid.SampledFrom([]string{"0", "007", "0204", "9223372036854775807", "9223372036854775808"}),
	)
}

// Labels generates label maps of up to five valid pairs; nil sometimes.
func Labels() *rapid.Generator[map[string]string] {
	return rapid.OneOf(
		rapid.Just[map[string]string](nil),
		rapid.MapOfN(LabelKey(), rapid.OneOf(LabelValue(), IntValue()), 0, 5),
	)
}

// LabelSelectorRequirement generates valid API label selector
// expressions (In, NotIn, Exists, DoesNotExist with fitting values).
func LabelSelectorRequirement() *rapid.Generator[api.LabelSelectorRequirement] {
	return rapid.Custom(func(t *rapid.T) api.LabelSelectorRequirement {
		op := rapid.SampledFrom([]api.LabelSelectorOperator{
			api.LabelSelectorOpIn, api.LabelSelectorOpNotIn, api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist,
		}).Draw(t, "op")
		r := api.LabelSelectorRequirement{Key: LabelKey().Draw(t, "key"), Operator: op}
		if op == api.LabelSelectorOpIn || op == api.LabelSelectorOpNotIn {
			r.Values = rapid.SliceOfN(LabelValue(), 1, 4).Draw(t, "values")
		}
		return r
	})
}

// LabelSelector generates valid API label selectors: nil, empty, or
// with matchLabels and matchExpressions.
func LabelSelector() *rapid.Generator[*api.LabelSelector] {
	return rapid.Custom(func(t *rapid.T) *api.LabelSelector {
		switch rapid.IntRange(0, 9).Draw(t, "shape") {
		case 0:
			return nil
		case 1:
			return &api.LabelSelector{}
		}
		ls := &api.LabelSelector{}
		if rapid.Bool().Draw(t, "hasMatchLabels") {
			ls.MatchLabels = rapid.MapOfN(LabelKey(), LabelValue(), 1, 3).Draw(t, "matchLabels")
		}
		ls.MatchExpressions = rapid.SliceOfN(LabelSelectorRequirement(), 0, 4).Draw(t, "matchExpressions")
		return ls
	})
}

// AnyLabelSelector generates API label selectors that may be invalid:
// unknown operators, bad keys and values, wrong value counts.
func AnyLabelSelector() *rapid.Generator[*api.LabelSelector] {
	junk := rapid.SampledFrom([]string{"", "a b", "-x", "x/y/z", "é", "a..b", "_", "x-"})
	return rapid.Custom(func(t *rapid.T) *api.LabelSelector {
		ls := LabelSelector().Draw(t, "base")
		if ls == nil || !rapid.Bool().Draw(t, "corrupt") {
			return ls
		}
		ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{
			Key:      rapid.OneOf(LabelKey(), junk).Draw(t, "key"),
			Operator: api.LabelSelectorOperator(rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "Equal", "in", "Gt", ""}).Draw(t, "op")),
			Values:   rapid.SliceOfN(rapid.OneOf(LabelValue(), junk), 0, 3).Draw(t, "values"),
		})
		return ls
	})
}

// SelectorString generates strings in the label selector syntax, mostly
// valid ones, with varied spacing.
func SelectorString() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 4).Draw(t, "n")
		sp := rapid.SampledFrom([]string{"", " ", "  ", "\t"})
		out := ""
		for i := 0; i < n; i++ {
			if i > 0 {
				out += "," + sp.Draw(t, "sp")
			}
			k := LabelKey().Draw(t, "key")
			switch rapid.IntRange(0, 6).Draw(t, "form") {
			case 0:
				out += k
			case 1:
				out += "!" + k
			case 2, 3:
				op := rapid.SampledFrom([]string{"=", "==", "!="}).Draw(t, "op")
				out += k + sp.Draw(t, "sp") + op + sp.Draw(t, "sp") + LabelValue().Draw(t, "v")
			case 4, 5:
				op := rapid.SampledFrom([]string{"in", "notin"}).Draw(t, "op")
				vs := rapid.SliceOfN(LabelValue(), 0, 4).Draw(t, "vs")
				out += k + " " + op + sp.Draw(t, "sp") + "("
				for j, v := range vs {
					if j > 0 {
						out += "," + sp.Draw(t, "sp")
					}
					out += v
				}
				out += ")"
			default:
				op := rapid.SampledFrom([]string{">", "<"}).Draw(t, "op")
				out += k + op + IntValue().Draw(t, "n")
			}
		}
		return out
	})
}

// NodeSelectorRequirement generates valid matchExpressions entries,
// including Gt and Lt with integer operands.
func NodeSelectorRequirement() *rapid.Generator[api.NodeSelectorRequirement] {
	return rapid.Custom(func(t *rapid.T) api.NodeSelectorRequirement {
		op := rapid.SampledFrom([]api.NodeSelectorOperator{
			api.NodeSelectorOpIn, api.NodeSelectorOpNotIn, api.NodeSelectorOpExists,
			api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpGt, api.NodeSelectorOpLt,
		}).Draw(t, "op")
		r := api.NodeSelectorRequirement{Key: LabelKey().Draw(t, "key"), Operator: op}
		switch op {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			r.Values = rapid.SliceOfN(LabelValue(), 1, 3).Draw(t, "values")
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			r.Values = []string{rapid.Map(rapid.Int64Range(0, 100), func(n int64) string { return strconv.FormatInt(n, 10) }).Draw(t, "n")}
		}
		return r
	})
}

// NodeFieldRequirement generates valid matchFields entries: In or NotIn
// on metadata.name with one value.
func NodeFieldRequirement() *rapid.Generator[api.NodeSelectorRequirement] {
	return rapid.Custom(func(t *rapid.T) api.NodeSelectorRequirement {
		return api.NodeSelectorRequirement{
			Key:      "metadata.name",
			Operator: rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn}).Draw(t, "op"),
			Values:   []string{NodeName().Draw(t, "name")},
		}
	})
}

// NodeSelectorTerm generates valid node selector terms, sometimes empty.
func NodeSelectorTerm() *rapid.Generator[api.NodeSelectorTerm] {
	return rapid.Custom(func(t *rapid.T) api.NodeSelectorTerm {
		return api.NodeSelectorTerm{
			MatchExpressions: rapid.SliceOfN(NodeSelectorRequirement(), 0, 3).Draw(t, "exprs"),
			MatchFields:      rapid.SliceOfN(NodeFieldRequirement(), 0, 1).Draw(t, "fields"),
		}
	})
}

// AnyNodeSelectorTerm generates node selector terms that may be invalid:
// unknown operators, wrong value counts, bad keys, non-integer Gt / Lt.
func AnyNodeSelectorTerm() *rapid.Generator[api.NodeSelectorTerm] {
	bad := rapid.Custom(func(t *rapid.T) api.NodeSelectorRequirement {
		return api.NodeSelectorRequirement{
			Key:      rapid.SampledFrom([]string{"app", "bad key", "", "metadata.name", "x/y/z"}).Draw(t, "key"),
			Operator: api.NodeSelectorOperator(rapid.SampledFrom([]string{"In", "NotIn", "Exists", "Gt", "Lt", "Equal", ""}).Draw(t, "op")),
			Values:   rapid.SliceOfN(rapid.SampledFrom([]string{"a", "1", "x y", "-5", ""}), 0, 2).Draw(t, "values"),
		}
	})
	return rapid.Custom(func(t *rapid.T) api.NodeSelectorTerm {
		term := NodeSelectorTerm().Draw(t, "term")
		if rapid.Bool().Draw(t, "badExpr") {
			term.MatchExpressions = append(term.MatchExpressions, bad.Draw(t, "bad"))
		}
		if rapid.Bool().Draw(t, "badField") {
			term.MatchFields = append(term.MatchFields, bad.Draw(t, "badf"))
		}
		return term
	})
}

// NodeSelector generates valid node selectors (up to three terms); nil
// sometimes.
func NodeSelector() *rapid.Generator[*api.NodeSelector] {
	return rapid.Custom(func(t *rapid.T) *api.NodeSelector {
		if rapid.IntRange(0, 9).Draw(t, "nil") == 0 {
			return nil
		}
		return &api.NodeSelector{NodeSelectorTerms: rapid.SliceOfN(NodeSelectorTerm(), 0, 3).Draw(t, "terms")}
	})
}

// PreferredSchedulingTerms generates weighted terms with weights 0..100.
func PreferredSchedulingTerms() *rapid.Generator[[]api.PreferredSchedulingTerm] {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) api.PreferredSchedulingTerm {
		return api.PreferredSchedulingTerm{
			Weight:     rapid.Int32Range(0, 100).Draw(t, "weight"),
			Preference: NodeSelectorTerm().Draw(t, "pref"),
		}
	}), 0, 4)
}

// NodeName generates node names from a small pool, including "".
func NodeName() *rapid.Generator[string] {
	return rapid.SampledFrom([]string{"", "node-1", "node-2", "node-3"})
}

// Node generates nodes with a name and labels.
func Node() *rapid.Generator[*api.Node] {
	return rapid.Custom(func(t *rapid.T) *api.Node {
		n := &api.Node{}
		n.Name = NodeName().Draw(t, "name")
		n.Labels = Labels().Draw(t, "labels")
		return n
	})
}

// Namespace generates namespace names from a small pool, including "".
func Namespace() *rapid.Generator[string] {
	return rapid.SampledFrom([]string{"", "default", "team-a", "team-b"})
}

// PodAffinityTerm generates valid pod affinity terms, with namespaces,
// namespace selectors, matchLabelKeys and mismatchLabelKeys.
func PodAffinityTerm() *rapid.Generator[api.PodAffinityTerm] {
	return rapid.Custom(func(t *rapid.T) api.PodAffinityTerm {
		term := api.PodAffinityTerm{
			LabelSelector: LabelSelector().Draw(t, "selector"),
			Namespaces:    rapid.SliceOfN(Namespace(), 0, 2).Draw(t, "namespaces"),
			TopologyKey:   rapid.SampledFrom(Keys).Draw(t, "topologyKey"),
		}
		if rapid.Bool().Draw(t, "hasNSSelector") {
			term.NamespaceSelector = LabelSelector().Draw(t, "nsSelector")
		}
		term.MatchLabelKeys = rapid.SliceOfN(rapid.SampledFrom(Keys), 0, 2).Draw(t, "matchLabelKeys")
		term.MismatchLabelKeys = rapid.SliceOfN(rapid.SampledFrom(Keys), 0, 2).Draw(t, "mismatchLabelKeys")
		return term
	})
}

// Pod generates pods with a namespace and labels (no spec).
func Pod() *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := &api.Pod{}
		p.Name = rapid.SampledFrom([]string{"p1", "p2", "p3"}).Draw(t, "name")
		p.Namespace = Namespace().Draw(t, "namespace")
		p.Labels = Labels().Draw(t, "labels")
		return p
	})
}
