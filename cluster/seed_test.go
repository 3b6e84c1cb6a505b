package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// A memo seeded with a view (SeedView) whose totals came from the pod
// index (PodCounts.AddByDomain, TermCounts.AddByDomain) follows the
// snapshot through pods and nodes added, assumed and removed exactly as
// a memo that computed every node: totals by zone of the pods labelled
// app=web in namespace default, and of their required anti-affinity
// terms, are those of a count of every pod after each change.
func TestPropSeedViewFollowsSnapshot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zones := []string{"z1", "z2", "z3"}
		mkNode := func(name string) *api.Node {
			labels := map[string]string{"kubernetes.io/hostname": name}
			if z := rapid.IntRange(0, len(zones)).Draw(t, "zone"); z < len(zones) {
				labels["zone"] = zones[z]
			}
			return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, Labels: labels}}
		}
		mkPod := func(name, node string) *api.Pod {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name,
				Namespace: rapid.SampledFrom([]string{"default", "other"}).Draw(t, "ns"),
				Labels:    map[string]string{"app": rapid.SampledFrom([]string{"web", "db"}).Draw(t, "app")}},
				Spec: api.PodSpec{NodeName: node}}
			if rapid.Bool().Draw(t, "anti") {
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
					TopologyKey:   rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key")}}}}
			}
			return p
		}
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 30).Draw(t, "nodes") {
			nodes = append(nodes, mkNode(fmt.Sprintf("n%d", i)))
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			pods = append(pods, mkPod(fmt.Sprintf("p%d", i), nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name))
		}
		snap, err := NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := affinity.CompileLabelSelector(&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}})
		if err != nil {
			t.Fatal(err)
		}
		q := PodQuery{Namespaces: map[string]struct{}{"default": {}}, Selector: sel}
		web := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "in", Namespace: "default", Labels: map[string]string{"app": "web"}}}
		// A node's value: its matching pods and matching terms, by key.
		type value struct {
			node  *api.Node
			pods  int64
			terms map[string]int64
		}
		compute := func(ni *NodeInfo, v *value) bool {
			*v = value{node: ni.Node(), terms: map[string]int64{}}
			for _, p := range ni.Pods {
				if p.Pod.Namespace == "default" && sel.Matches(p.Pod.Labels) {
					v.pods++
				}
				for i := range p.RequiredAntiAffinityTerms {
					if tm := &p.RequiredAntiAffinityTerms[i]; tm.Matches(web, nil) {
						v.terms[tm.TopologyKey]++
					}
				}
			}
			return v.pods > 0 || len(v.terms) > 0
		}
		// Totals by key and label value.
		type totals map[string]map[string]int64
		add := func(tot totals, key, val string, n int64) {
			if tot[key] == nil {
				tot[key] = map[string]int64{}
			}
			tot[key][val] += n
			if tot[key][val] == 0 {
				delete(tot[key], val)
			}
			if len(tot[key]) == 0 {
				delete(tot, key)
			}
		}
		apply := func(tot totals, v *value, sign int64) {
			if z, ok := v.node.Labels["zone"]; ok && v.pods > 0 {
				add(tot, "pods", z, sign*v.pods)
			}
			for k, n := range v.terms {
				if val, ok := v.node.Labels[k]; ok {
					add(tot, k, val, sign*n)
				}
			}
		}
		full := func(view *View) totals {
			tot := totals{}
			for _, ni := range view.Nodes() {
				var v value
				if compute(ni, &v) {
					apply(tot, &v, 1)
				}
			}
			return tot
		}
		// The seed: totals read from the index alone.
		view := snap.View()
		seeded := totals{}
		cnt, ok := view.CountPods([]PodQuery{q})
		if !ok {
			t.Fatal("CountPods cannot answer")
		}
		zone := view.Topology("zone")
		n := make([]int64, zone.NumIDs())
		made, _, ok := cnt.AddByDomain(0, zone, 1, n)
		if !ok {
			t.Fatal("AddByDomain refused the view's Topology")
		}
		nonZero := 0
		for id, x := range n {
			if x != 0 {
				nonZero++
				add(seeded, "pods", zone.Value(int32(id)), x)
			}
		}
		if made != nonZero {
			t.Fatalf("AddByDomain made %d entries non-zero, %d are", made, nonZero)
		}
		ex, ok := view.CountTerms(func(kind TermKind, tm *affinity.AffinityTerm, _ int32) (int64, bool) {
			return 0, kind == RequiredAntiAffinity && tm.Matches(web, nil)
		})
		if !ok {
			t.Fatal("CountTerms cannot answer")
		}
		for k, key := range ex.Keys {
			topo := view.Topology(key)
			n := make([]int64, topo.NumIDs())
			if _, _, ok := ex.AddByDomain(k, topo, n, nil); !ok {
				t.Fatal("TermCounts.AddByDomain refused the view's Topology")
			}
			for id, x := range n {
				if x != 0 {
					add(seeded, key, topo.Value(int32(id)), x)
				}
			}
		}
		if want := full(view); fmt.Sprint(seeded) != fmt.Sprint(want) {
			t.Fatalf("seeded totals %v, counted %v", seeded, want)
		}
		var m NodeMemo[value]
		m.SeedView(view)
		tot := seeded
		change := func(v *value, _ *NodeInfo, sign int64) { apply(tot, v, sign) }
		for step := range rapid.IntRange(1, 40).Draw(t, "steps") { // past sparseLimit
			switch rapid.IntRange(0, 12).Draw(t, "change") {
			case 0, 1, 5, 6, 7, 8, 9, 10, 11, 12:
				nd := snap.View().Nodes()
				if len(nd) == 0 {
					continue
				}
				p := mkPod(fmt.Sprintf("added-%d", step), nd[rapid.IntRange(0, len(nd)-1).Draw(t, "onNode")].Name())
				if rapid.Bool().Draw(t, "assume") {
					if err := snap.AssumePod(p, p.Spec.NodeName); err != nil {
						t.Fatal(err)
					}
				} else if err := snap.AddPod(p); err != nil {
					t.Fatal(err)
				}
				pods = append(pods, p)
			case 2:
				if len(pods) > 0 {
					i := rapid.IntRange(0, len(pods)-1).Draw(t, "removed")
					if err := snap.RemovePod(pods[i]); err == nil {
						pods = append(pods[:i], pods[i+1:]...)
					}
				}
			case 3:
				if err := snap.AddNode(mkNode(fmt.Sprintf("new-%d", step))); err != nil {
					t.Fatal(err)
				}
			case 4:
				nd := snap.View().Nodes()
				if len(nd) > 1 {
					if err := snap.RemoveNode(nd[rapid.IntRange(0, len(nd)-1).Draw(t, "gone")].Name()); err != nil {
						t.Fatal(err)
					}
				}
			}
			v := snap.View()
			m.SyncView(v, v.Nodes(), compute, change)
			if want := full(v); fmt.Sprint(tot) != fmt.Sprint(want) {
				t.Fatalf("step %d: followed totals %v, counted %v", step, tot, want)
			}
		}
	})
}
