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

// spreadIndexWorld draws a cluster whose nodes often all carry a zone,
// pods labelled color a or b (some terminating, some tier=web) in two
// namespaces, and an incoming pod with one or two constraints with
// action over zone or hostname, mostly with selectors the pod index
// answers, and drawn node inclusion policies.
func spreadIndexWorld(t *rapid.T, action api.UnsatisfiableConstraintAction) (nodes []*api.Node, names []string, pods []*api.Pod, pod *api.Pod) {
	zones := []string{"z1", "z2", "z3"}
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
			action, rapid.SampledFrom(selectors).Draw(t, "selector"), minDomains,
			rapid.SampledFrom(policies).Draw(t, "affinityPolicy"), rapid.SampledFrom(policies).Draw(t, "taintsPolicy"), nil)
	}
	return nodes, names, pods, in.Obj()
}

// PreFilter's counts read from the pod index alone (indexCounts: every
// node counted, few domains, selectors the index answers) are those of a
// plugin reading every pod: the same eligible domains, counts, critical
// paths and statuses, and the same after AddPod and RemovePod; and the
// draws take that path often.
func TestPropertySpreadIndexCounts(t *testing.T) {
	used, cycles := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, names, pods, pod := spreadIndexWorld(t, api.DoNotSchedule)
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

// PreScore's first cycle of a constraint set read from the pod index
// (indexScores) scores as a plugin reading every pod, for the view's
// nodes or those that passed Filter (rotated, some left out, sometimes a
// node the view lacks), with the pod's constraints or the system
// defaults; so does the next cycle, which counts them in an entry; and
// the draws take both paths.
func TestPropertySpreadScoreIndex(t *testing.T) {
	used, cycles := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		nodes, _, pods, pod := spreadIndexWorld(t, api.ScheduleAnyway)
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: pod.Namespace}, Spec: api.ServiceSpec{Selector: map[string]string{"color": "a"}}}
		if err := snap.AddObjects(svc); err != nil {
			t.Fatal(err)
		}
		if rapid.IntRange(0, 2).Draw(t, "systemDefaults") == 0 {
			pod.Spec.TopologySpreadConstraints = nil
		}
		all := snap.View().Nodes()
		given := all
		if rapid.Bool().Draw(t, "filtered") {
			given = nil
			start := rapid.IntRange(0, len(all)-1).Draw(t, "start")
			for i := range all {
				if ni := all[(start+i)%len(all)]; rapid.IntRange(0, 3).Draw(t, "passed") != 0 {
					given = append(given, ni)
				}
			}
			if rapid.IntRange(0, 5).Draw(t, "foreign") == 0 {
				foreign := cluster.NewNodeInfo(spreadNode().Name("elsewhere").Label("kubernetes.io/hostname", "elsewhere").Label("zone", "z1").Obj())
				at := rapid.IntRange(0, len(given)).Draw(t, "foreignAt")
				given = append(given[:at], append([]*cluster.NodeInfo{foreign}, given[at:]...)...)
			}
			if len(given) == 0 {
				given = all[:1]
			}
		}
		cut := rapid.IntRange(0, len(given)).Draw(t, "cut")
		pl, _ := New(nil, testHandle{snap})
		indexed := pl.(*PodTopologySpread)
		pl, _ = New(nil, testHandle{snap})
		plain := pl.(*PodTopologySpread)
		plain.cache.noIndex = true
		want := spreadScoreCycle(t, plain, pod, all, given, cut)
		for cycle := range 2 {
			if got := spreadScoreCycle(t, indexed, pod, all, given, cut); !reflect.DeepEqual(got, want) {
				t.Fatalf("cycle %d: %v, reading every pod %v", cycle, got, want)
			}
			if cycle == 0 {
				if _, skipped := want[""]; !skipped {
					cycles++
					if len(indexed.cache.indexed) > 0 {
						used++
					}
				}
			}
		}
	})
	if used == 0 || used == cycles {
		t.Fatalf("%d of %d first cycles scored from the index: the draws should take both paths", used, cycles)
	}
	t.Logf("%d of %d first cycles scored from the index", used, cycles)
}
