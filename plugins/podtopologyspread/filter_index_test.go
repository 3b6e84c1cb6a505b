package podtopologyspread

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"pgregory.net/rapid"
)

// PreFilter's counts read from the pod index alone (indexCounts: every
// node counted, few domains, selectors the index answers) are those of a
// plugin reading every pod: the same eligible domains, counts, critical
// paths and statuses, and the same after AddPod and RemovePod; and the
// draws take that path often.
func TestPropertySpreadIndexCounts(t *testing.T) {
	used, cycles := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		zones := []string{"z1", "z2", "z3"}
		var nodes []*api.Node
		var names []string
		everyZone := rapid.IntRange(0, 3).Draw(t, "everyZone") != 0
		for i := range rapid.IntRange(1, 8).Draw(t, "nodes") {
			name := fmt.Sprintf("n%d", i)
			b := spreadNode().Name(name).Label("kubernetes.io/hostname", name)
			if everyZone || rapid.Bool().Draw(t, "zoned") {
				b.Label("zone", rapid.SampledFrom(zones).Draw(t, "zone"))
			}
			if rapid.IntRange(0, 4).Draw(t, "tainted") == 0 {
				b.Taints([]api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoSchedule}})
			}
			nodes, names = append(nodes, b.Obj()), append(names, name)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 14).Draw(t, "pods") {
			b := spreadPod().Name(fmt.Sprintf("p%d", i)).Namespace(rapid.SampledFrom([]string{"default", "other"}).Draw(t, "ns")).
				Node(rapid.SampledFrom(names).Draw(t, "node"))
			if c := rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "color"); c != "" {
				b.Label("color", c)
			}
			if rapid.Bool().Draw(t, "tier") {
				b.Label("tier", "web")
			}
			if rapid.IntRange(0, 4).Draw(t, "terminating") == 0 {
				b.Terminating()
			}
			pods = append(pods, b.Obj())
		}
		selectors := []*api.LabelSelector{
			spreadSel().Label("color", "a").Obj(),
			spreadSel().In("color", []string{"a", "b"}).Obj(),
			spreadSel().Label("color", "b").Label("tier", "web").Obj(),
			spreadSel().In("color", []string{"a", "a"}).Obj(),
			spreadSel().Exists("color").Obj(),
			spreadSel().Obj(),
		}
		honor, ignore := api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore
		policies := []*api.NodeInclusionPolicy{nil, &honor, &ignore}
		in := spreadPod().Name("incoming").Namespace(rapid.SampledFrom([]string{"default", "other"}).Draw(t, "incomingNS")).Label("color", "a")
		if rapid.IntRange(0, 3).Draw(t, "hasNodeSelector") == 0 {
			in.NodeSelector(map[string]string{"zone": "z1"})
		}
		for range rapid.IntRange(1, 2).Draw(t, "constraints") {
			var minDomains *int32
			if rapid.Bool().Draw(t, "hasMinDomains") {
				minDomains = spreadPtr(rapid.Int32Range(1, 4).Draw(t, "minDomains"))
			}
			in.SpreadConstraint(rapid.IntRange(1, 2).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key"),
				api.DoNotSchedule, rapid.SampledFrom(selectors).Draw(t, "selector"), minDomains,
				rapid.SampledFrom(policies).Draw(t, "affinityPolicy"), rapid.SampledFrom(policies).Draw(t, "taintsPolicy"), nil)
		}
		pod := in.Obj()
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		view := snap.View().Nodes()
		cut := rapid.IntRange(0, len(view)).Draw(t, "cut")
		pl, _ := New(nil, spreadHandle{snap})
		indexed := pl.(*PodTopologySpread)
		pl, _ = New(nil, spreadHandle{snap})
		plain := pl.(*PodTopologySpread)
		plain.cache.noIndex = true
		got, state := spreadCycle(indexed, pod, view, cut)
		want, plainState := spreadCycle(plain, pod, view, cut)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("index counts %v, reading every pod %v", got, want)
		}
		if _, skipped := got[""]; skipped {
			return
		}
		cycles++
		if len(indexed.cache.store.Entries()) == 0 {
			used++ // no entry: the counts came from the index
		}
		a, _ := readSpreadFilterState(state)
		f, _ := readSpreadFilterState(plainState)
		if !reflect.DeepEqual(a.countsByValue(), f.countsByValue()) {
			t.Fatalf("counts %v, reading every pod %v", a.countsByValue(), f.countsByValue())
		}
		for i := range a.paths {
			if a.paths[i] != f.paths[i] || a.domains[i].n != f.domains[i].n {
				t.Fatalf("constraint %d: paths %v (%d domains), reading every pod %v (%d)", i, a.paths[i], a.domains[i].n, f.paths[i], f.domains[i].n)
			}
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "nominated") {
			p := spreadPod().Name(fmt.Sprintf("nominated-%d", i)).Namespace(pod.Namespace).Label("color", "a").
				Node(rapid.SampledFrom(names).Draw(t, "on")).Obj()
			ni, _ := snap.Get(p.Spec.NodeName)
			op, plainOp := indexed.AddPod, plain.AddPod
			if rapid.Bool().Draw(t, "remove") {
				op, plainOp = indexed.RemovePod, plain.RemovePod
			}
			if st := op(context.Background(), state, pod, cluster.NewPodInfo(p), ni); st != nil {
				t.Fatal(st)
			}
			if st := plainOp(context.Background(), plainState, pod, cluster.NewPodInfo(p), ni); st != nil {
				t.Fatal(st)
			}
			if g, w := spreadStatuses(indexed, state, pod, view, cut), spreadStatuses(plain, plainState, pod, view, cut); !reflect.DeepEqual(g, w) {
				t.Fatalf("after AddPod/RemovePod %v, reading every pod %v", g, w)
			}
		}
	})
	if used == 0 || used == cycles {
		t.Fatalf("%d of %d cycles counted from the index: the draws should take both paths", used, cycles)
	}
	t.Logf("%d of %d cycles counted from the index", used, cycles)
}
