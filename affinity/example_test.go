package affinity_test

import (
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

func ExampleParseSelector() {
	sel, err := affinity.ParseSelector("tier in (b,a), app=web,!legacy,env!=prod")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "a"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "a", "env": "prod"}))
	_, err = affinity.ParseSelector("app web")
	fmt.Println(err)
	// Output:
	// app=web,env!=prod,!legacy,tier in (a,b)
	// true
	// false
	// unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt
}

func ExampleCompileLabelSelector() {
	none, _ := affinity.CompileLabelSelector(nil)
	all, _ := affinity.CompileLabelSelector(&api.LabelSelector{})
	fmt.Println(none.Matches(map[string]string{"app": "web"}), all.Matches(map[string]string{"app": "web"}))
	_, err := affinity.CompileLabelSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Equal"}}})
	fmt.Println(err)
	// Output:
	// false true
	// "Equal" is not a valid label selector operator
}

func ExampleGetRequiredNodeAffinity() {
	pod := &api.Pod{}
	pod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "cores", Operator: api.NodeSelectorOpGt, Values: []string{"8"}}},
		}}},
	}}
	req := affinity.GetRequiredNodeAffinity(pod)
	node := &api.Node{}
	node.Labels = map[string]string{"disk": "ssd", "cores": "16"}
	fmt.Println(req.Match(node))
	node.Labels["cores"] = "4"
	fmt.Println(req.Match(node))
	// Output:
	// true <nil>
	// false <nil>
}

func ExampleNewPreferredSchedulingTerms() {
	terms, _ := affinity.NewPreferredSchedulingTerms([]api.PreferredSchedulingTerm{
		{Weight: 10, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpIn, Values: []string{"a"}}}}},
		{Weight: 3, Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n1"}}}}},
	})
	node := &api.Node{}
	node.Name = "n1"
	node.Labels = map[string]string{"zone": "a"}
	fmt.Println(terms.Score(node))
	// Output:
	// 13
}

func ExampleAffinityTerm_Matches() {
	owner := &api.Pod{}
	owner.Namespace = "shop"
	owner.Labels = map[string]string{"app": "web", "rev": "7"}
	// The API server merges matchLabelKeys into the selector at pod
	// creation; MergeLabelKeys does the same for a raw manifest.
	admitted := affinity.MergeLabelKeys(api.PodAffinityTerm{
		LabelSelector:  &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		MatchLabelKeys: []string{"rev"},
		TopologyKey:    "topology.kubernetes.io/zone",
	}, owner.Labels)
	term, _ := affinity.NewAffinityTerm(owner, &admitted)
	other := &api.Pod{}
	other.Namespace = "shop"
	other.Labels = map[string]string{"app": "web", "rev": "7"}
	fmt.Println(term.Selector.String(), term.Matches(other, nil))
	other.Labels["rev"] = "6"
	fmt.Println(term.Matches(other, nil))
	node := &api.Node{}
	node.Labels = map[string]string{"topology.kubernetes.io/zone": "eu-1a"}
	fmt.Println(affinity.TopologyValue(node, term.TopologyKey))
	// Output:
	// app=web,rev in (7) true
	// false
	// eu-1a true
}
