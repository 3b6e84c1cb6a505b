package affinity

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
)

func pod(ns string, labels map[string]string) *api.Pod {
	p := &api.Pod{}
	p.Namespace = ns
	p.Labels = labels
	return p
}

// Pins registry/core/pod Test_mutatePodAffinity: matchLabelKeys become
// In and mismatchLabelKeys NotIn expressions, appended after the
// existing ones; keys the pod lacks are skipped; a nil selector stays
// nil.
func TestMergeLabelKeys(t *testing.T) {
	labels := map[string]string{"country": "Japan", "city": "Kyoto"}
	term := api.PodAffinityTerm{
		LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"region": "Asia"}},
		MatchLabelKeys:    []string{"country", "absent"},
		MismatchLabelKeys: []string{"city"},
	}
	got := MergeLabelKeys(term, labels)
	want := &api.LabelSelector{
		MatchLabels: map[string]string{"region": "Asia"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "country", Operator: api.LabelSelectorOpIn, Values: []string{"Japan"}},
			{Key: "city", Operator: api.LabelSelectorOpNotIn, Values: []string{"Kyoto"}},
		},
	}
	if diff := cmp.Diff(want, got.LabelSelector); diff != "" {
		t.Errorf("merged selector (-want +got):\n%s", diff)
	}
	if len(term.LabelSelector.MatchExpressions) != 0 {
		t.Error("MergeLabelKeys modified its input")
	}
	// Idempotent: merging an already-admitted term adds nothing.
	again := MergeLabelKeys(got, labels)
	if diff := cmp.Diff(want, again.LabelSelector); diff != "" {
		t.Errorf("second merge (-want +got):\n%s", diff)
	}
	// "matchLabelKeys is ignored if the labelSelector is nil".
	nilSel := MergeLabelKeys(api.PodAffinityTerm{MatchLabelKeys: []string{"country"}}, labels)
	if nilSel.LabelSelector != nil {
		t.Error("nil selector should stay nil")
	}
}

// Pins kube-scheduler framework newAffinityTerm /
// getNamespacesFromPodAffinityTerm and AffinityTerm.Matches.
func TestAffinityTermMatches(t *testing.T) {
	owner := pod("team-a", map[string]string{"app": "web", "version": "v1"})
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	cases := []struct {
		name     string
		term     api.PodAffinityTerm
		other    *api.Pod
		nsLabels map[string]string
		want     bool
	}{
		{"no namespaces, nil nsSelector: owner's namespace", api.PodAffinityTerm{LabelSelector: sel}, pod("team-a", map[string]string{"app": "web"}), nil, true},
		{"owner's namespace only", api.PodAffinityTerm{LabelSelector: sel}, pod("team-b", map[string]string{"app": "web"}), nil, false},
		{"listed namespaces replace owner's", api.PodAffinityTerm{LabelSelector: sel, Namespaces: []string{"team-b"}}, pod("team-a", map[string]string{"app": "web"}), nil, false},
		{"listed namespace", api.PodAffinityTerm{LabelSelector: sel, Namespaces: []string{"team-b"}}, pod("team-b", map[string]string{"app": "web"}), nil, true},
		{"empty nsSelector: all namespaces", api.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &api.LabelSelector{}}, pod("anything", map[string]string{"app": "web"}), nil, true},
		{"empty nsSelector without namespaces excludes nothing, even owner's", api.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &api.LabelSelector{}}, pod("team-a", map[string]string{"app": "web"}), nil, true},
		{"nsSelector matches namespace labels", api.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &api.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}, pod("x", map[string]string{"app": "web"}), map[string]string{"env": "prod"}, true},
		{"non-empty nsSelector without namespaces drops owner's namespace", api.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &api.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}, pod("team-a", map[string]string{"app": "web"}), nil, false},
		{"labels must match", api.PodAffinityTerm{LabelSelector: sel}, pod("team-a", map[string]string{"app": "db"}), nil, false},
		{"nil labelSelector matches no pod", api.PodAffinityTerm{}, pod("team-a", map[string]string{"app": "web"}), nil, false},
		{"empty labelSelector matches every pod", api.PodAffinityTerm{LabelSelector: &api.LabelSelector{}}, pod("team-a", nil), nil, true},
		// The scheduler reads only the label selector; the API server merges
		// matchLabelKeys into it at pod creation (see TestMergedTermMatches).
		{"matchLabelKeys are not read by the scheduler", api.PodAffinityTerm{LabelSelector: sel, MatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v2"}), nil, true},
		{"matchLabelKeys satisfied", api.PodAffinityTerm{LabelSelector: sel, MatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v1"}), nil, true},
		{"mismatchLabelKeys are not read by the scheduler", api.PodAffinityTerm{LabelSelector: sel, MismatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v1"}), nil, true},
		{"nil pod", api.PodAffinityTerm{LabelSelector: &api.LabelSelector{}}, nil, nil, false},
	}
	for _, c := range cases {
		at, err := NewAffinityTerm(owner, &c.term)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := at.Matches(c.other, c.nsLabels); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMergedTermMatches pins matchLabelKeys / mismatchLabelKeys once the
// API server has merged them into the selector (pod strategy,
// MatchLabelKeysInPodAffinity): the owner's label values become In and
// NotIn expressions.
func TestMergedTermMatches(t *testing.T) {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	owner := pod("team-a", map[string]string{"app": "web", "version": "v1"})
	cases := []struct {
		name  string
		term  api.PodAffinityTerm
		other *api.Pod
		want  bool
	}{
		{"matchLabelKeys from the owner", api.PodAffinityTerm{LabelSelector: sel, MatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v2"}), false},
		{"matchLabelKeys satisfied", api.PodAffinityTerm{LabelSelector: sel, MatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v1"}), true},
		{"mismatchLabelKeys", api.PodAffinityTerm{LabelSelector: sel, MismatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v1"}), false},
		{"mismatchLabelKeys other value", api.PodAffinityTerm{LabelSelector: sel, MismatchLabelKeys: []string{"version"}}, pod("team-a", map[string]string{"app": "web", "version": "v3"}), true},
	}
	for _, c := range cases {
		merged := MergeLabelKeys(c.term, owner.Labels)
		at, err := NewAffinityTerm(owner, &merged)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := at.Matches(c.other, nil); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAffinityTermErrorsAndResolve(t *testing.T) {
	_, err := NewAffinityTerm(pod("", nil), &api.PodAffinityTerm{NamespaceSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Equal"}}}})
	if err == nil || err.Error() != `"Equal" is not a valid label selector operator` {
		t.Errorf("bad nsSelector: %v", err)
	}
	at, _ := NewAffinityTerm(pod("team-a", nil), &api.PodAffinityTerm{
		LabelSelector:     &api.LabelSelector{},
		Namespaces:        []string{"team-a"},
		NamespaceSelector: &api.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
	})
	nss := []*api.Namespace{{ObjectMeta: api.ObjectMeta{Name: "p1", Labels: map[string]string{"env": "prod"}}}, {ObjectMeta: api.ObjectMeta{Name: "d1"}}, nil}
	r := at.ResolveNamespaceSelector(nss)
	if !r.NamespaceSelector.MatchesNothing() || len(r.Namespaces) != 2 {
		t.Errorf("resolved: %+v", r)
	}
	if _, ok := r.Namespaces["p1"]; !ok {
		t.Error("p1 missing")
	}
	if len(at.Namespaces) != 1 {
		t.Error("ResolveNamespaceSelector modified its receiver")
	}
	all, _ := NewAffinityTerm(pod("team-a", nil), &api.PodAffinityTerm{LabelSelector: &api.LabelSelector{}, NamespaceSelector: &api.LabelSelector{}})
	if r := all.ResolveNamespaceSelector(nss); !r.NamespaceSelector.Empty() {
		t.Error("empty namespace selector should stay all-namespaces")
	}
}

func TestTopologyValue(t *testing.T) {
	n := node("n", map[string]string{"zone": "a", "empty": ""})
	for _, c := range []struct {
		key, v string
		ok     bool
	}{{"zone", "a", true}, {"empty", "", true}, {"region", "", false}} {
		if v, ok := TopologyValue(n, c.key); v != c.v || ok != c.ok {
			t.Errorf("TopologyValue(%q) = %q, %v", c.key, v, ok)
		}
	}
	if _, ok := TopologyValue(nil, "zone"); ok {
		t.Error("nil node has no domain")
	}
}

// Pins scheduler framework NewPodInfo: each group compiles on its own, a
// failing group is left empty and named in the error.
func TestCompilePodAffinity(t *testing.T) {
	good := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: "zone"}
	bad := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "bad value"}}}
	p := pod("ns", nil)
	p.Spec.Affinity = &api.Affinity{
		PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []api.PodAffinityTerm{good},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 3, PodAffinityTerm: bad}},
		},
		PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []api.PodAffinityTerm{bad},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 7, PodAffinityTerm: good}},
		},
	}
	pa, err := CompilePodAffinity(p)
	if err == nil || !strings.HasPrefix(err.Error(), "[requiredAntiAffinityTerms: ") || !strings.Contains(err.Error(), ", preferredAffinityTerms: ") {
		t.Errorf("error = %v", err)
	}
	if len(pa.RequiredAffinity) != 1 || pa.RequiredAffinity[0].TopologyKey != "zone" || pa.RequiredAntiAffinity != nil ||
		pa.PreferredAffinity != nil || len(pa.PreferredAntiAffinity) != 1 || pa.PreferredAntiAffinity[0].Weight != 7 {
		t.Errorf("compiled = %+v", pa)
	}
	if pa, err := CompilePodAffinity(&api.Pod{}); err != nil || pa.RequiredAffinity != nil {
		t.Errorf("no affinity: %+v %v", pa, err)
	}
}
