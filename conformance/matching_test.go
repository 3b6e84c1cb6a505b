package conformance

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity/affinitygen"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/taints/taintsgen"
)

func taintsInput() *rapid.Generator[*regression.TaintsInput] {
	return rapid.Custom(func(t *rapid.T) *regression.TaintsInput {
		return &regression.TaintsInput{
			Tolerations:         taintsgen.Tolerations().Draw(t, "tolerations"),
			Taints:              taintsgen.Taints().Draw(t, "taints"),
			ComparisonOperators: rapid.Bool().Draw(t, "comparisonOperators"),
		}
	})
}

// TestTaints compares toleration matching (Toleration.ToleratesTaint,
// TolerationsTolerateTaint) and FindMatchingUntoleratedTaint, with and
// without the alpha Lt / Gt operators.
func TestTaints(t *testing.T) {
	Property(t, regression.KindTaints, taintsInput(), upFn(upstream.Taints), nil)
}

// nodeSelectorAny draws node selectors mixing valid and invalid terms.
func nodeSelectorAny() *rapid.Generator[*api.NodeSelector] {
	return rapid.OneOf(
		affinitygen.NodeSelector(),
		rapid.Custom(func(t *rapid.T) *api.NodeSelector {
			ns := &api.NodeSelector{}
			for range rapid.IntRange(0, 3).Draw(t, "terms") {
				if rapid.Bool().Draw(t, "valid") {
					ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, affinitygen.NodeSelectorTerm().Draw(t, "term"))
				} else {
					ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, affinitygen.AnyNodeSelectorTerm().Draw(t, "anyTerm"))
				}
			}
			return ns
		}),
	)
}

func nodeAffinityInput() *rapid.Generator[*regression.NodeAffinityInput] {
	return rapid.Custom(func(t *rapid.T) *regression.NodeAffinityInput {
		pod := affinitygen.Pod().Draw(t, "pod")
		if rapid.Bool().Draw(t, "hasNodeSelector") {
			pod.Spec.NodeSelector = affinitygen.Labels().Draw(t, "nodeSelector")
		}
		if rapid.IntRange(0, 4).Draw(t, "hasAffinity") > 0 {
			na := &api.NodeAffinity{}
			if rapid.IntRange(0, 3).Draw(t, "hasRequired") > 0 {
				na.RequiredDuringSchedulingIgnoredDuringExecution = nodeSelectorAny().Draw(t, "required")
			}
			if rapid.Bool().Draw(t, "hasPreferred") {
				na.PreferredDuringSchedulingIgnoredDuringExecution = affinitygen.PreferredSchedulingTerms().Draw(t, "preferred")
				for i := range na.PreferredDuringSchedulingIgnoredDuringExecution {
					if rapid.IntRange(0, 5).Draw(t, "badPreferred") == 0 {
						na.PreferredDuringSchedulingIgnoredDuringExecution[i].Preference = affinitygen.AnyNodeSelectorTerm().Draw(t, "anyTerm")
					}
				}
			}
			pod.Spec.Affinity = &api.Affinity{NodeAffinity: na}
		}
		return &regression.NodeAffinityInput{Pod: pod, Node: affinitygen.Node().Draw(t, "node")}
	})
}

// TestNodeAffinity compares required node affinity with nodeSelector
// (GetRequiredNodeAffinity), MatchNodeSelectorTerms, NewNodeSelector's
// validation and preferred terms' scores with component-helpers.
func TestNodeAffinity(t *testing.T) {
	Property(t, regression.KindNodeAffinity, nodeAffinityInput(), upFn(upstream.NodeAffinity), nil)
}

func labelSelectorInput() *rapid.Generator[*regression.LabelSelectorInput] {
	return rapid.Custom(func(t *rapid.T) *regression.LabelSelectorInput {
		in := &regression.LabelSelectorInput{Labels: affinitygen.Labels().Draw(t, "labels")}
		switch rapid.IntRange(0, 2).Draw(t, "form") {
		case 0:
			in.Selector = affinitygen.LabelSelector().Draw(t, "selector")
		case 1:
			in.Selector = affinitygen.AnyLabelSelector().Draw(t, "anySelector")
		default:
			s := rapid.OneOf(affinitygen.SelectorString(), rapid.StringOfN(rapid.RuneFrom([]rune("abz=!,() \tin notin<>0123-_./")), 0, 24, -1)).Draw(t, "string")
			in.String = &s
		}
		return in
	})
}

// TestLabelSelector compares label selectors, API and string forms
// (LabelSelectorAsSelector, labels.Parse), their validation messages,
// matching and String with apimachinery.
func TestLabelSelector(t *testing.T) {
	Property(t, regression.KindLabelSelector, labelSelectorInput(), upFn(upstream.LabelSelector), nil)
}
