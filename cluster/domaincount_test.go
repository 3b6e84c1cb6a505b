package cluster

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// CountByDomain gives, per domain, what a count of the candidates of
// every node of the view gives (PodCandidates, then the caller's test),
// for the view it is asked on, while the snapshot changes after it; and
// it declines what PodCandidates declines or would meet twice.
func TestCountByDomain(t *testing.T) {
	var nodes []*api.Node
	for i := range 7 {
		name := fmt.Sprintf("n%d", i)
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
			affinity.LabelHostname: name, "zone": fmt.Sprintf("z%d", i%3)}}})
	}
	pod := func(name, node, color string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name, Labels: map[string]string{"color": color}},
			Spec: api.PodSpec{NodeName: node}}
	}
	var pods []*api.Pod
	for i := range 20 {
		pods = append(pods, pod(fmt.Sprintf("p%d", i), nodes[i%7].Name, []string{"a", "b"}[i%2]))
	}
	snap, err := NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	sel := affinity.SelectorFromSet(map[string]string{"color": "a"})
	q := PodQuery{Namespace: "default", Selector: sel}
	all := func(*PodInfo) bool { return true }
	want := func(v *View, t *Topology) []int {
		cand, ok := v.PodCandidates([]PodQuery{q})
		if !ok {
			panic("no candidates")
		}
		out := make([]int, t.NumIDs())
		for _, ni := range v.Nodes() {
			c, _ := cand.Pods(ni)
			if id := t.ID(ni); id >= 0 {
				out[id] += len(c)
			}
		}
		return out
	}
	check := func(v *View) {
		t.Helper()
		topo := v.Topology("zone")
		got := make([]int, topo.NumIDs())
		if !v.CountByDomain(topo, &q, all, got, -1) {
			t.Fatal("CountByDomain declined")
		}
		if w := want(v, topo); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Fatalf("CountByDomain %v, candidates %v", got, w)
		}
		if !v.SameNodes(v.Nodes()) || v.SameNodes(v.Nodes()[1:]) || !v.KeyOnEveryNode(topo) {
			t.Fatal("SameNodes or KeyOnEveryNode")
		}
	}
	v1 := snap.View()
	check(v1)
	if err := snap.RemovePod(pods[0]); err != nil {
		t.Fatal(err)
	}
	if err := snap.AssumePod(pod("new", "", "a"), "n3"); err != nil {
		t.Fatal(err)
	}
	check(v1)
	check(snap.View())
	dup := PodQuery{Namespace: "default", Selector: mustSelector(t, &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "color", Operator: api.LabelSelectorOpIn, Values: []string{"a", "a"}}}})}
	exists := PodQuery{Namespace: "default", Selector: mustSelector(t, &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "color", Operator: api.LabelSelectorOpExists}}})}
	v := snap.View()
	topo := v.Topology("zone")
	for _, q := range []PodQuery{dup, exists} {
		if v.CountByDomain(topo, &q, all, make([]int, topo.NumIDs()), -1) {
			t.Fatalf("CountByDomain answered %v", q.Selector)
		}
	}
	if v.CountByDomain(topo, &q, all, make([]int, topo.NumIDs()), 2) {
		t.Fatal("CountByDomain answered past its limit")
	}
	if v.CountByDomain(NewTopology("zone", v.Nodes()), &q, all, make([]int, 3), -1) {
		t.Fatal("CountByDomain answered for a Topology of no view")
	}
}

func mustSelector(t *testing.T, ls *api.LabelSelector) affinity.Selector {
	s, err := affinity.CompileLabelSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
