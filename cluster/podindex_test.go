package cluster

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// drawIndexQuery draws a query over the labels TestPropPodCandidates
// gives its pods, and whether the index can answer it.
func drawIndexQuery(t *rapid.T) (PodQuery, bool) {
	q := PodQuery{Namespace: rapid.SampledFrom([]string{"default", "team-a", ""}).Draw(t, "ns")}
	switch rapid.IntRange(0, 3).Draw(t, "nsKind") {
	case 1, 2:
		q.Namespaces = map[string]struct{}{}
		for _, ns := range clustergen.Namespaces {
			if rapid.Bool().Draw(t, "in "+ns) {
				q.Namespaces[ns] = struct{}{}
			}
		}
	case 3:
		q.AllNamespaces = true
	}
	var reqs []affinity.Requirement
	indexable := false
	for range rapid.IntRange(0, 3).Draw(t, "reqs") {
		key := rapid.SampledFrom([]string{"app", "tier"}).Draw(t, "key")
		op := rapid.SampledFrom([]affinity.Operator{affinity.OpEquals, affinity.OpIn, affinity.OpNotIn, affinity.OpExists, affinity.OpDoesNotExist}).Draw(t, "op")
		var values []string
		switch op {
		case affinity.OpEquals:
			values = []string{rapid.SampledFrom([]string{"x", "y", "web"}).Draw(t, "value")}
		case affinity.OpIn, affinity.OpNotIn:
			values = rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"x", "y", "web", "db"}), 1, 3, rapid.ID[string]).Draw(t, "values")
		}
		r, err := affinity.NewRequirement(key, op, values)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
		indexable = indexable || op == affinity.OpEquals || op == affinity.OpIn
	}
	q.Selector = affinity.NewSelector(reqs...)
	if rapid.IntRange(0, 9).Draw(t, "nothing") == 0 {
		q.Selector, indexable = affinity.Nothing(), true
	}
	return q, indexable
}

// queryMatches is what a plugin tests for each pod: the query's
// namespaces, then its selector.
func queryMatches(q *PodQuery, p *PodInfo) bool {
	if q.AllNamespaces {
		return q.Selector.Matches(p.Pod.Labels)
	}
	_, in := q.Namespaces[p.Pod.Namespace]
	if q.Namespaces == nil || q.Namespace != "" {
		in = in || p.Pod.Namespace == q.Namespace
	}
	return in && q.Selector.Matches(p.Pod.Labels)
}

// checkCandidates checks the index's candidates of v for queries
// against every pod of v: each node's candidates are pods of that node,
// each once, and include every pod a query matches. With mustAnswer the
// index must answer.
func checkCandidates(t *rapid.T, v *View, queries []PodQuery, mustAnswer bool) {
	c, ok := v.PodCandidates(queries)
	if !ok {
		if mustAnswer {
			t.Fatalf("the index did not answer %d indexable queries on the current view", len(queries))
		}
		return
	}
	total := 0
	for _, ni := range v.Nodes() {
		cands, ok := c.Pods(ni)
		if !ok {
			t.Fatalf("node %s of the view has no candidates", ni.Name())
		}
		total += len(cands)
		for i, p := range cands {
			if !slices.Contains(ni.Pods, p) {
				t.Fatalf("candidate %s is not on node %s", podName(p.Pod), ni.Name())
			}
			if slices.Contains(cands[:i], p) {
				t.Fatalf("candidate %s twice on node %s", podName(p.Pod), ni.Name())
			}
		}
		for _, p := range ni.Pods {
			for qi := range queries {
				if queryMatches(&queries[qi], p) && !slices.Contains(cands, p) {
					t.Fatalf("pod %s on %s matches query %d (%v) but is no candidate", podName(p.Pod), ni.Name(), qi, queries[qi].Selector.String())
				}
			}
		}
		if _, ok := c.Pods(ni.Clone()); ok {
			t.Fatalf("a clone of %s has candidates", ni.Name())
		}
	}
	if total != c.Len() {
		t.Fatalf("%d candidates on the view's nodes, %d in all", total, c.Len())
	}
}

// checkCounts checks the index's counts of v for queries against every
// pod of v: each node's count of a query is the number of its pods the
// query matches. With current, the index must answer when every query
// is one it counts exactly.
func checkCounts(t *rapid.T, v *View, queries []PodQuery, current bool) {
	c, ok := v.CountPods(queries)
	exact := true
	for i := range queries {
		exact = exact && exactQuery(&queries[i])
	}
	if !ok {
		if current && exact {
			t.Fatalf("the index did not count %d exact queries on the current view", len(queries))
		}
		return
	}
	if !exact {
		t.Fatalf("the index counted a query it cannot count exactly")
	}
	for _, ni := range v.Nodes() {
		for qi := range queries {
			n, ok := c.Count(qi, ni)
			if !ok {
				t.Fatalf("node %s of the view has no count", ni.Name())
			}
			want := 0
			for _, p := range ni.Pods {
				if queryMatches(&queries[qi], p) {
					want++
				}
			}
			if int(n) != want {
				t.Fatalf("node %s: query %d (%v) counts %d pods, %d match", ni.Name(), qi, queries[qi].Selector.String(), n, want)
			}
		}
		if _, ok := c.Count(0, ni.Clone()); ok {
			t.Fatalf("a clone of %s has counts", ni.Name())
		}
	}
}

// drawIndexAffinity draws nil or pod (anti-)affinity of terms from a
// small pool, so that many pods share terms.
func drawIndexAffinity(t *rapid.T) *api.Affinity {
	if rapid.IntRange(0, 2).Draw(t, "affinity") == 0 {
		return nil
	}
	term := func() api.PodAffinityTerm {
		return api.PodAffinityTerm{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"x", "web"}).Draw(t, "termApp")}},
			TopologyKey:   rapid.SampledFrom([]string{"kubernetes.io/hostname", "zone"}).Draw(t, "termKey")}
	}
	terms := func() []api.PodAffinityTerm {
		var out []api.PodAffinityTerm
		for range rapid.IntRange(0, 2).Draw(t, "terms") {
			out = append(out, term())
		}
		return out
	}
	weighted := func() []api.WeightedPodAffinityTerm {
		var out []api.WeightedPodAffinityTerm
		for range rapid.IntRange(0, 2).Draw(t, "weighted") {
			out = append(out, api.WeightedPodAffinityTerm{Weight: rapid.Int32Range(1, 3).Draw(t, "weight"), PodAffinityTerm: term()})
		}
		return out
	}
	return &api.Affinity{
		PodAffinity:     &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms(), PreferredDuringSchedulingIgnoredDuringExecution: weighted()},
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms(), PreferredDuringSchedulingIgnoredDuringExecution: weighted()},
	}
}

// checkTerms checks the index's counts of the pods' terms of v against
// every pod of v: per node and topology key, the number of terms of
// each kind and the sum of their values, the value of a term being its
// kind's number times ten plus its weight. With current, the index
// must answer.
func checkTerms(t *rapid.T, v *View, current bool) {
	value := func(kind TermKind, w int32) int64 { return int64(kind)*10 + int64(w) }
	c, ok := v.CountTerms(func(kind TermKind, _ *affinity.AffinityTerm, w int32) (int64, bool) {
		return value(kind, w), kind != PreferredAffinity
	})
	if !ok {
		if current {
			t.Fatalf("the index did not count the terms of the current view")
		}
		return
	}
	for _, ni := range v.Nodes() {
		want := map[string][2]int64{}
		add := func(kind TermKind, tm *affinity.AffinityTerm, w int32) {
			if kind == PreferredAffinity {
				return
			}
			x := want[tm.TopologyKey]
			want[tm.TopologyKey] = [2]int64{x[0] + 1, x[1] + value(kind, w)}
		}
		for _, p := range ni.Pods {
			for i := range p.RequiredAffinityTerms {
				add(RequiredAffinity, &p.RequiredAffinityTerms[i], 0)
			}
			for i := range p.RequiredAntiAffinityTerms {
				add(RequiredAntiAffinity, &p.RequiredAntiAffinityTerms[i], 0)
			}
			for i := range p.PreferredAffinityTerms {
				add(PreferredAffinity, &p.PreferredAffinityTerms[i].AffinityTerm, p.PreferredAffinityTerms[i].Weight)
			}
			for i := range p.PreferredAntiAffinityTerms {
				add(PreferredAntiAffinity, &p.PreferredAntiAffinityTerms[i].AffinityTerm, p.PreferredAntiAffinityTerms[i].Weight)
			}
		}
		got := map[string][2]int64{}
		for k, key := range c.Keys {
			n, w, ok := c.At(k, ni)
			if !ok {
				t.Fatalf("node %s of the view has no term counts", ni.Name())
			}
			if n != 0 || w != 0 {
				got[key] = [2]int64{int64(n), w}
			}
		}
		if !maps.Equal(got, want) {
			t.Fatalf("node %s: terms counted %v, its pods have %v", ni.Name(), got, want)
		}
	}
}

// TestPropPodCandidates: after any sequence of pod additions,
// assumptions, updates and removals and of node additions and removals,
// the pod index's candidates of every view taken along the way (each
// read later, after more changes) hold each pod a query matches, on its
// node, once; and the current view's queries with an =/In requirement
// are always answered.
func TestPropPodCandidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, err := NewSnapshot(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		nodeNames := []string{"node-0", "node-1", "node-2", "node-3"}
		for _, name := range nodeNames[:2] {
			n := clustergen.Node().Draw(t, "node")
			n.Name = name
			if err := s.AddNode(n); err != nil {
				t.Fatal(err)
			}
		}
		present := map[string]bool{"node-0": true, "node-1": true}
		var pods []*api.Pod
		next := 0
		newPod := func(t *rapid.T) *api.Pod {
			p := clustergen.Pod().Draw(t, "pod")
			p.Name, p.UID = fmt.Sprintf("pod-%d", next), fmt.Sprintf("uid-%d", next)
			next++
			p.Labels = map[string]string{}
			for _, k := range []string{"app", "tier"} {
				if rapid.IntRange(0, 3).Draw(t, "has "+k) > 0 {
					p.Labels[k] = rapid.SampledFrom([]string{"x", "y", "web", "db"}).Draw(t, k)
				}
			}
			p.Spec.Affinity = drawIndexAffinity(t)
			return p
		}
		var views []*View
		t.Repeat(map[string]func(*rapid.T){
			"addPod": func(t *rapid.T) {
				p := newPod(t)
				p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "on")
				if err := s.AddPod(p); err != nil {
					t.Fatal(err)
				}
				pods = append(pods, p)
			},
			"assumePod": func(t *rapid.T) {
				p := newPod(t)
				if err := s.AssumePod(p, rapid.SampledFrom(nodeNames).Draw(t, "on")); err != nil {
					t.Fatal(err)
				}
				pods = append(pods, p)
			},
			"burst": func(t *rapid.T) {
				// Enough pods of one label for its list to keep
				// positions and be rebuilt as they go.
				for range 40 {
					p := newPod(t)
					p.Labels["app"] = "web"
					if err := s.AssumePod(p, rapid.SampledFrom(nodeNames).Draw(t, "on")); err != nil {
						t.Fatal(err)
					}
					pods = append(pods, p)
				}
			},
			"removeMany": func(t *rapid.T) {
				for n := rapid.IntRange(1, 40).Draw(t, "n"); n > 0 && len(pods) > 0; n-- {
					i := rapid.IntRange(0, len(pods)-1).Draw(t, "which")
					if err := s.RemovePod(pods[i]); err != nil {
						t.Fatal(err)
					}
					pods = slices.Delete(pods, i, i+1)
				}
			},
			"removePod": func(t *rapid.T) {
				if len(pods) == 0 {
					t.Skip("no pods")
				}
				i := rapid.IntRange(0, len(pods)-1).Draw(t, "which")
				if err := s.RemovePod(pods[i]); err != nil {
					t.Fatal(err)
				}
				pods = slices.Delete(pods, i, i+1)
			},
			"updatePod": func(t *rapid.T) {
				if len(pods) == 0 {
					t.Skip("no pods")
				}
				i := rapid.IntRange(0, len(pods)-1).Draw(t, "which")
				p := newPod(t)
				p.Namespace, p.Name, p.UID = pods[i].Namespace, pods[i].Name, pods[i].UID
				p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "on")
				if err := s.UpdatePod(pods[i], p); err != nil {
					t.Fatal(err)
				}
				pods[i] = p
			},
			"addNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "name")
				if present[name] {
					t.Skip("present")
				}
				n := clustergen.Node().Draw(t, "node")
				n.Name = name
				if err := s.AddNode(n); err != nil {
					t.Fatal(err)
				}
				present[name] = true
			},
			"removeNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "name")
				if !present[name] {
					t.Skip("absent")
				}
				if err := s.RemoveNode(name); err != nil {
					t.Fatal(err)
				}
				delete(present, name)
			},
			"view": func(t *rapid.T) {
				views = append(views, s.View())
			},
			"query": func(t *rapid.T) {
				var queries []PodQuery
				all := true
				for range rapid.IntRange(1, 3).Draw(t, "queries") {
					q, ok := drawIndexQuery(t)
					queries = append(queries, q)
					all = all && ok
				}
				checkCandidates(t, s.View(), queries, all)
				checkCounts(t, s.View(), queries, true)
				checkTerms(t, s.View(), true)
				for _, v := range views {
					checkCandidates(t, v, queries, false)
					checkCounts(t, v, queries, false)
					checkTerms(t, v, false)
				}
			},
		})
	})
}

// TestPodCandidatesFallBack: a query the index cannot answer, and a view
// older than the rebuild of a list, make PodCandidates report false.
func TestPodCandidatesFallBack(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}}, Spec: api.PodSpec{NodeName: "n"}}
	s, err := NewSnapshot([]*api.Node{node}, []*api.Pod{pod})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddPod(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Spec: api.PodSpec{NodeName: "n"}}); err != nil {
		t.Fatal(err)
	}
	// 40 pods of a label, then a view, then all of them gone: the
	// list is rebuilt, and the view cannot read it.
	var many []*api.Pod
	for i := range 40 {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("m", i), Namespace: "default", Labels: map[string]string{"tier": "x"}}, Spec: api.PodSpec{NodeName: "n"}}
		if err := s.AddPod(p); err != nil {
			t.Fatal(err)
		}
		many = append(many, p)
	}
	old := s.View()
	for _, p := range many {
		if err := s.RemovePod(p); err != nil {
			t.Fatal(err)
		}
	}
	tierX, _ := affinity.NewRequirement("tier", affinity.OpEquals, []string{"x"})
	exists, _ := affinity.NewRequirement("app", affinity.OpExists, nil)
	in, _ := affinity.NewRequirement("app", affinity.OpIn, []string{"web"})
	for _, tc := range []struct {
		name string
		v    *View
		q    PodQuery
		want bool
	}{
		{"Exists alone", s.View(), PodQuery{Namespace: "default", Selector: affinity.NewSelector(exists)}, false},
		{"Everything", s.View(), PodQuery{Namespace: "default", Selector: affinity.Everything()}, false},
		{"In", s.View(), PodQuery{Namespace: "default", Selector: affinity.NewSelector(in)}, true},
		{"In and Exists", s.View(), PodQuery{Namespace: "default", Selector: affinity.NewSelector(exists, in)}, true},
		{"a view older than the index", old, PodQuery{Namespace: "default", Selector: affinity.NewSelector(in)}, true},
		{"a view older than a list's rebuild", old, PodQuery{Namespace: "default", Selector: affinity.NewSelector(tierX)}, false},
		{"a rebuilt list", s.View(), PodQuery{Namespace: "default", Selector: affinity.NewSelector(tierX)}, true},
	} {
		c, ok := tc.v.PodCandidates([]PodQuery{tc.q})
		if ok != tc.want {
			t.Errorf("%s: answered %v, want %v", tc.name, ok, tc.want)
		}
		if ok && c.Len() != 1 && tc.name != "a rebuilt list" {
			t.Errorf("%s: %d candidates, want 1", tc.name, c.Len())
		}
	}
}
