package affinity_test

import (
	"strconv"
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/affinity/affinitygen"
	"github.com/schedkit/schedkit/api"
	"pgregory.net/rapid"
)

// The String of a parsed selector parses again to the same String and
// the same matching behaviour.
func TestPropParseStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := affinitygen.SelectorString().Draw(t, "s")
		sel, err := affinity.ParseSelector(s)
		if err != nil {
			return
		}
		again, err := affinity.ParseSelector(sel.String())
		if err != nil {
			t.Fatalf("re-parse of %q: %v", sel.String(), err)
		}
		if again.String() != sel.String() {
			t.Fatalf("%q re-renders as %q", sel.String(), again.String())
		}
		l := affinitygen.Labels().Draw(t, "labels")
		if sel.Matches(l) != again.Matches(l) {
			t.Fatalf("re-parsed selector matches %v differently", l)
		}
	})
}

// Compiled API selectors also round-trip through their String form.
func TestPropCompiledStringReparses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := affinitygen.LabelSelector().Draw(t, "ls")
		sel, err := affinity.CompileLabelSelector(ls)
		if err != nil {
			t.Fatalf("valid selector failed: %v", err)
		}
		if sel.MatchesNothing() {
			return
		}
		again, err := affinity.ParseSelector(sel.String())
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", sel.String(), err)
		}
		l := affinitygen.Labels().Draw(t, "labels")
		if sel.Matches(l) != again.Matches(l) {
			t.Fatalf("%q: compiled and re-parsed disagree on %v", sel.String(), l)
		}
	})
}

// On label sets that have the key, NotIn is exactly the complement of
// In; without the key, In fails and NotIn holds.
func TestPropNotInComplementsIn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := affinitygen.LabelKey().Draw(t, "key")
		vals := rapid.SliceOfN(affinitygen.LabelValue(), 1, 4).Draw(t, "vals")
		in, err := affinity.NewRequirement(key, affinity.OpIn, vals)
		if err != nil {
			t.Fatal(err)
		}
		notIn, _ := affinity.NewRequirement(key, affinity.OpNotIn, vals)
		l := affinitygen.Labels().Draw(t, "labels")
		if _, has := l[key]; has {
			if in.Matches(l) == notIn.Matches(l) {
				t.Fatalf("In and NotIn agree on %v", l)
			}
		} else if in.Matches(l) || !notIn.Matches(l) {
			t.Fatalf("key absent: In=%v NotIn=%v", in.Matches(l), notIn.Matches(l))
		}
	})
}

// Node affinity Gt / Lt agree with integer comparison of the parsed
// label value (strconv.ParseInt semantics, leading zeros allowed).
func TestPropGtLtIntegerComparison(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bound := rapid.Int64Range(0, 1000).Draw(t, "bound")
		label := affinitygen.IntValue().Draw(t, "label")
		op := rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpGt, api.NodeSelectorOpLt}).Draw(t, "op")
		ns, err := affinity.NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "n", Operator: op, Values: []string{strconv.FormatInt(bound, 10)}}},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		n := &api.Node{}
		n.Labels = map[string]string{"n": label}
		got, _ := ns.Match(n)
		v, perr := strconv.ParseInt(label, 10, 64)
		want := perr == nil && ((op == api.NodeSelectorOpGt && v > bound) || (op == api.NodeSelectorOpLt && v < bound))
		if got != want {
			t.Fatalf("%s %d on label %q: got %v want %v", op, bound, label, got, want)
		}
	})
}

// naiveMatch is a direct reading of the API semantics, independent of
// the compiled form.
func naiveMatch(ls *api.LabelSelector, l map[string]string) bool {
	if ls == nil {
		return false
	}
	for k, v := range ls.MatchLabels {
		if got, ok := l[k]; !ok || got != v {
			return false
		}
	}
	for _, e := range ls.MatchExpressions {
		v, has := l[e.Key]
		in := false
		for _, x := range e.Values {
			in = in || (has && x == v)
		}
		switch e.Operator {
		case api.LabelSelectorOpIn:
			if !in {
				return false
			}
		case api.LabelSelectorOpNotIn:
			if in {
				return false
			}
		case api.LabelSelectorOpExists:
			if !has {
				return false
			}
		case api.LabelSelectorOpDoesNotExist:
			if has {
				return false
			}
		}
	}
	return true
}

func naiveNodeTerm(term api.NodeSelectorTerm, n *api.Node) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false
	}
	for _, e := range term.MatchExpressions {
		v, has := n.Labels[e.Key]
		switch e.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			in := false
			for _, x := range e.Values {
				in = in || (has && x == v)
			}
			if in != (e.Operator == api.NodeSelectorOpIn) {
				return false
			}
		case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
			if has != (e.Operator == api.NodeSelectorOpExists) {
				return false
			}
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			lv, err1 := strconv.ParseInt(v, 10, 64)
			bv, _ := strconv.ParseInt(e.Values[0], 10, 64)
			if !has || err1 != nil || (e.Operator == api.NodeSelectorOpGt && lv <= bv) || (e.Operator == api.NodeSelectorOpLt && lv >= bv) {
				return false
			}
		}
	}
	if n.Name != "" {
		for _, f := range term.MatchFields {
			if (n.Name == f.Values[0]) != (f.Operator == api.NodeSelectorOpIn) {
				return false
			}
		}
	}
	return true
}

// Compiled label selectors agree with the naive reading.
func TestPropCompiledSelectorMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := affinitygen.LabelSelector().Draw(t, "ls")
		sel, err := affinity.CompileLabelSelector(ls)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			l := affinitygen.Labels().Draw(t, "labels")
			if sel.Matches(l) != naiveMatch(ls, l) {
				t.Fatalf("%q on %v: compiled %v", sel.String(), l, sel.Matches(l))
			}
		}
	})
}

// Compiled node selectors and preferred terms agree with the naive
// reading (terms ORed, an empty term matches nothing).
func TestPropNodeSelectorMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ns := affinitygen.NodeSelector().Draw(t, "ns")
		pref := affinitygen.PreferredSchedulingTerms().Draw(t, "pref")
		sel, err := affinity.NewNodeSelector(ns)
		if err != nil {
			t.Fatal(err)
		}
		p, err := affinity.NewPreferredSchedulingTerms(pref)
		if err != nil {
			t.Fatal(err)
		}
		n := affinitygen.Node().Draw(t, "node")
		want := false
		if ns != nil {
			for _, term := range ns.NodeSelectorTerms {
				want = want || naiveNodeTerm(term, n)
			}
		}
		if got, _ := sel.Match(n); got != want {
			t.Fatalf("Match = %v, want %v", got, want)
		}
		var score int64
		for _, pt := range pref {
			if naiveNodeTerm(pt.Preference, n) {
				score += int64(pt.Weight)
			}
		}
		if got := p.Score(n); got != score {
			t.Fatalf("Score = %d, want %d", got, score)
		}
	})
}

// Invalid input never panics, and valid-looking errors name a field.
func TestPropInvalidInputNoPanic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := affinitygen.AnyLabelSelector().Draw(t, "ls")
		_, _ = affinity.CompileLabelSelector(ls)
		term := affinitygen.AnyNodeSelectorTerm().Draw(t, "term")
		ns := affinity.CompileNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{term}})
		_, _ = ns.Match(affinitygen.Node().Draw(t, "node"))
		pat := affinitygen.PodAffinityTerm().Draw(t, "pat")
		pat.LabelSelector = ls
		at, err := affinity.NewAffinityTerm(affinitygen.Pod().Draw(t, "owner"), &pat)
		if err == nil {
			_ = at.Matches(affinitygen.Pod().Draw(t, "other"), affinitygen.Labels().Draw(t, "ns"))
		}
	})
}

// matchLabelKeys merging is idempotent and never widens the selector.
func TestPropMergeLabelKeysNarrows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		owner := affinitygen.Pod().Draw(t, "owner")
		term := affinitygen.PodAffinityTerm().Draw(t, "term")
		merged := affinity.MergeLabelKeys(term, owner.Labels)
		twice := affinity.MergeLabelKeys(merged, owner.Labels)
		a, _ := affinity.CompileLabelSelector(merged.LabelSelector)
		b, _ := affinity.CompileLabelSelector(twice.LabelSelector)
		orig, _ := affinity.CompileLabelSelector(term.LabelSelector)
		if a.String() != b.String() {
			t.Fatalf("not idempotent: %q vs %q", a.String(), b.String())
		}
		l := affinitygen.Labels().Draw(t, "labels")
		if a.Matches(l) && !orig.Matches(l) {
			t.Fatalf("merge widened %q to %q", orig.String(), a.String())
		}
	})
}
