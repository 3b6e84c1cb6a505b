package affinity

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

var benchLabels = map[string]string{
	"app": "web", "tier": "frontend", "env": "prod", "version": "42",
	"topology.kubernetes.io/zone": "zone-a", "kubernetes.io/hostname": "node-1",
}

func mustAllocs(b *testing.B, f func()) {
	b.Helper()
	if n := testing.AllocsPerRun(100, f); n != 0 {
		b.Fatalf("%v allocs/op, want 0", n)
	}
}

func BenchmarkSelectorMatches(b *testing.B) {
	sel, err := ParseSelector("app=web,tier in (frontend,backend),!legacy,env!=dev,version>10")
	if err != nil {
		b.Fatal(err)
	}
	mustAllocs(b, func() { sel.Matches(benchLabels) })
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(benchLabels) {
			b.Fatal("no match")
		}
	}
}

func benchNode() *api.Node {
	n := &api.Node{}
	n.Name = "node-1"
	n.Labels = benchLabels
	return n
}

func BenchmarkNodeSelectorMatch(b *testing.B) {
	ns, err := NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
		{MatchExpressions: []api.NodeSelectorRequirement{{Key: "env", Operator: api.NodeSelectorOpIn, Values: []string{"staging"}}}},
		{
			MatchExpressions: []api.NodeSelectorRequirement{
				{Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{"zone-a", "zone-b"}},
				{Key: "version", Operator: api.NodeSelectorOpGt, Values: []string{"10"}},
				{Key: "legacy", Operator: api.NodeSelectorOpDoesNotExist},
			},
			MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpNotIn, Values: []string{"node-9"}}},
		},
	}})
	if err != nil {
		b.Fatal(err)
	}
	n := benchNode()
	mustAllocs(b, func() { ns.Match(n) })
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := ns.Match(n); !ok {
			b.Fatal("no match")
		}
	}
}

func BenchmarkRequiredNodeAffinityMatch(b *testing.B) {
	p := &api.Pod{}
	p.Spec.NodeSelector = map[string]string{"env": "prod", "app": "web"}
	p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
			{Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpNotIn, Values: []string{"zone-c"}},
			{Key: "version", Operator: api.NodeSelectorOpLt, Values: []string{"100"}},
		}}},
	}}}
	r := GetRequiredNodeAffinity(p)
	n := benchNode()
	mustAllocs(b, func() { r.Match(n) })
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := r.Match(n); !ok {
			b.Fatal("no match")
		}
	}
}

func BenchmarkPreferredScore(b *testing.B) {
	pt, err := NewPreferredSchedulingTerms([]api.PreferredSchedulingTerm{
		{Weight: 10, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "env", Operator: api.NodeSelectorOpIn, Values: []string{"prod"}}}}},
		{Weight: 5, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "gpu", Operator: api.NodeSelectorOpExists}}}},
	})
	if err != nil {
		b.Fatal(err)
	}
	n := benchNode()
	mustAllocs(b, func() { pt.Score(n) })
	b.ReportAllocs()
	for b.Loop() {
		if pt.Score(n) != 10 {
			b.Fatal("bad score")
		}
	}
}

func BenchmarkAffinityTermMatches(b *testing.B) {
	owner := &api.Pod{}
	owner.Namespace = "default"
	at, err := NewAffinityTerm(owner, &api.PodAffinityTerm{
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		TopologyKey:   "topology.kubernetes.io/zone",
	})
	if err != nil {
		b.Fatal(err)
	}
	other := &api.Pod{}
	other.Namespace = "default"
	other.Labels = benchLabels
	mustAllocs(b, func() { at.Matches(other, nil) })
	b.ReportAllocs()
	for b.Loop() {
		if !at.Matches(other, nil) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkParseSelector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSelector("app=web,tier in (frontend,backend),!legacy,env!=dev,version>10"); err != nil {
			b.Fatal(err)
		}
	}
}
