package interpodaffinity

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// runIPAScore runs PreScore, Score on every node and NormalizeScore; a
// PreScore status other than Success is returned instead.
func runIPAScore(t *testing.T, nodes []*api.Node, pods []*api.Pod, pod *api.Pod, args config.InterPodAffinityArgs) (framework.NodeScoreList, *framework.Status) {
	t.Helper()
	snap, err := ipaSnapshot(nodes, pods, upstreamNamespaces)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(args, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinity)
	ctx := context.Background()
	state := framework.NewCycleState()
	infos := snap.View().Nodes()
	if st := p.PreScore(ctx, state, pod, infos); st != nil {
		return nil, st
	}
	var out framework.NodeScoreList
	for _, n := range nodes {
		ni, _ := snap.Get(n.Name)
		s, st := p.Score(ctx, state, pod, ni)
		if st != nil {
			t.Fatalf("Score(%s): %v", n.Name, st)
		}
		out = append(out, framework.NodeScore{Name: n.Name, Score: s})
	}
	if st := p.NormalizeScore(ctx, state, pod, out); st != nil {
		t.Fatal(st)
	}
	return out, nil
}

func scores(names []string, vals ...int64) framework.NodeScoreList {
	out := make(framework.NodeScoreList, len(vals))
	for i, v := range vals {
		out[i] = framework.NodeScore{Name: names[i], Score: v}
	}
	return out
}

func TestPreferredAffinity(t *testing.T) {
	rgChina, rgIndia := map[string]string{"region": "China"}, map[string]string{"region": "India"}
	az1, az2 := map[string]string{"az": "az1"}, map[string]string{"az": "az2"}
	rgChinaAz1 := map[string]string{"region": "China", "az": "az1"}
	s1, s2 := map[string]string{"security": "S1"}, map[string]string{"security": "S2"}
	team1 := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpIn, Values: []string{"team1"}}}}
	notTeam1 := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpNotIn, Values: []string{"team1"}}}}
	s1Region := api.PodAffinityTerm{LabelSelector: selIn("security", "S1"), TopologyKey: "region"}
	nsTerm := api.PodAffinityTerm{LabelSelector: selIn("security", "S1"), TopologyKey: "region", Namespaces: []string{"subteam2.team2"}, NamespaceSelector: team1}
	negTerm := api.PodAffinityTerm{LabelSelector: selIn("security", "S1"), TopologyKey: "region", NamespaceSelector: notTeam1}
	// The affinities of upstream's table, by its names.
	stayWithS1InRegion := func(b *ipaPod) *ipaPod { return b.PrefAff(5, s1Region) }
	stayWithS2InRegion := func(b *ipaPod) *ipaPod { return b.PrefAff(6, term("region", selIn("security", "S2"))) }
	affinity3 := func(b *ipaPod) *ipaPod {
		return b.PrefAff(8, term("region", selReqs(api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpNotIn, Values: []string{"S1"}},
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpIn, Values: []string{"S2"}}))).
			PrefAff(2, term("region", selReqs(api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist})))
	}
	hardAffinity := func(b *ipaPod) *ipaPod {
		return b.ReqAff(term("region", selIn("security", "S1", "value2"))).
			ReqAff(term("region", selReqs(api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist})))
	}
	awayFromS1InAz := func(b *ipaPod) *ipaPod { return b.PrefAnti(5, term("az", selIn("security", "S1"))) }
	awayFromS2InAz := func(b *ipaPod) *ipaPod { return b.PrefAnti(5, term("az", selIn("security", "S2"))) }
	stayS1AwayS2 := func(b *ipaPod) *ipaPod {
		return b.PrefAff(8, s1Region).PrefAnti(5, term("az", selIn("security", "S2")))
	}
	pod := func(ns, node string, labels map[string]string, with ...func(*ipaPod) *ipaPod) *api.Pod {
		b := mkPod(ns, node, labels)
		for _, w := range with {
			b = w(b)
		}
		return b.Obj()
	}
	n := func(labels ...map[string]string) []*api.Node {
		var out []*api.Node
		for i, l := range labels {
			out = append(out, ipaNode([]string{"node1", "node2", "node3", "node4", "node5"}[i], l))
		}
		return out
	}
	names := []string{"node1", "node2", "node3", "node4", "node5"}
	const max = framework.MaxNodeScore
	// upstream: scoring_test.go TestPreferredAffinity, row by row.
	tests := []struct {
		name       string
		pod        *api.Pod
		pods       []*api.Pod
		nodes      []*api.Node
		ignore     bool
		want       framework.NodeScoreList
		wantStatus *framework.Status
	}{
		{name: "all nodes are same priority as Affinity is nil", pod: pod("", "", s1), nodes: n(rgChina, rgIndia, az1), wantStatus: framework.NewStatus(framework.Skip)},
		{name: "Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
			pod: pod("", "", s1, stayWithS1InRegion), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", s2), pod("", "node3", s1)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, max, 0, 0)},
		{name: "All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
			pod: pod("", "", nil, stayWithS1InRegion), pods: []*api.Pod{pod("", "node1", s1)},
			nodes: n(rgChina, rgChinaAz1, rgIndia), want: scores(names, max, max, 0)},
		{name: "Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
			pod:   pod("", "", s1, stayWithS2InRegion),
			pods:  []*api.Pod{pod("", "node1", s2), pod("", "node1", s2), pod("", "node2", s2), pod("", "node3", s2), pod("", "node4", s2), pod("", "node5", s2)},
			nodes: n(rgChina, rgIndia, rgChina, rgChina, rgIndia), want: scores(names, max, 0, max, max, 0)},
		{name: "Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
			pod: pod("", "", s1, affinity3), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", s2), pod("", "node3", s1)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, 20, max, 0)},
		{name: "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
			pod: pod("", "", s2), pods: []*api.Pod{pod("", "node1", s1, stayWithS1InRegion), pod("", "node2", s2, stayWithS2InRegion)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, 0, max, 0)},
		{name: "Affinity symmetry with namespace selector",
			pod:   pod("subteam1.team1", "", s1),
			pods:  []*api.Pod{pod("", "node1", s1, func(b *ipaPod) *ipaPod { return b.PrefAff(5, nsTerm) }), pod("", "node2", s2, stayWithS2InRegion)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, max, 0, 0)},
		{name: "AntiAffinity symmetry with namespace selector",
			pod:   pod("subteam1.team1", "", s1),
			pods:  []*api.Pod{pod("", "node1", s1, func(b *ipaPod) *ipaPod { return b.PrefAnti(5, nsTerm) }), pod("", "node2", s2, stayWithS2InRegion)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, 0, max, max)},
		{name: "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
			pod: pod("", "", s1), pods: []*api.Pod{pod("", "node1", s1, hardAffinity), pod("", "node2", s2, hardAffinity)},
			nodes: n(rgChina, rgIndia, az1), want: scores(names, max, max, 0)},
		{name: "Anti Affinity: pod that does not match existing pods in node will get high score ",
			pod: pod("", "", s1, awayFromS1InAz), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", s2)},
			nodes: n(az1, rgChina), want: scores(names, 0, max)},
		{name: "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
			pod: pod("", "", s1, awayFromS1InAz), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", s1)},
			nodes: n(az1, rgChina), want: scores(names, 0, max)},
		{name: "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
			pod: pod("", "", s1, awayFromS1InAz), pods: []*api.Pod{pod("", "node1", s1), pod("", "node1", s1), pod("", "node2", s2)},
			nodes: n(az1, rgIndia), want: scores(names, 0, max)},
		{name: "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
			pod: pod("", "", s2), pods: []*api.Pod{pod("", "node1", s1, awayFromS2InAz), pod("", "node2", s2, awayFromS1InAz)},
			nodes: n(az1, az2), want: scores(names, 0, max)},
		{name: "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
			pod: pod("", "", s1, stayS1AwayS2), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", s1)},
			nodes: n(rgChina, az1), want: scores(names, max, 0)},
		{name: "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
			pod:   pod("", "", s1, stayS1AwayS2),
			pods:  []*api.Pod{pod("", "node1", s1), pod("", "node1", s1), pod("", "node2", s1), pod("", "node3", s1), pod("", "node3", s1), pod("", "node4", s1), pod("", "node5", s1)},
			nodes: n(rgChinaAz1, rgIndia, rgChina, rgChina, rgIndia), want: scores(names, max, 0, max, max, 0)},
		{name: "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
			pod:   pod("", "", s1, stayS1AwayS2),
			pods:  []*api.Pod{pod("", "node1", s1), pod("", "node2", s2), pod("", "node3", nil, stayS1AwayS2), pod("", "node4", nil, awayFromS1InAz)},
			nodes: n(rgChina, az1, rgIndia, az2), want: scores(names, max, 0, max, 0)},
		{name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
			pod: pod("", "", s1), pods: []*api.Pod{pod("", "node1", s1), pod("", "node2", nil, stayS1AwayS2)},
			nodes: n(rgChina, rgChina), want: scores(names, 0, 0)},
		{name: "invalid Affinity fails PreScore",
			pod:   pod("", "", nil, func(b *ipaPod) *ipaPod { return b.PrefAff(8, term("region", selIn("security", "{{.bad-value.}}"))) }),
			nodes: n(rgChina, rgChina), wantStatus: framework.NewStatus(framework.Error, `Invalid value: "{{.bad-value.}}"`)},
		{name: "invalid AntiAffinity fails PreScore",
			pod:   pod("", "", nil, func(b *ipaPod) *ipaPod { return b.PrefAnti(5, term("az", selIn("security", "{{.bad-value.}}"))) }),
			nodes: n(rgChina, rgChina), wantStatus: framework.NewStatus(framework.Error, `Invalid value: "{{.bad-value.}}"`)},
		{name: "Affinity with pods matching NamespaceSelector",
			pod: pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAff(5, nsTerm) }),
			pods: []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam1.team2", "node1", s1),
				pod("subteam2.team1", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, max, 0)},
		{name: "Affinity with pods matching both NamespaceSelector and Namespaces fields",
			pod: pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAff(5, nsTerm) }),
			pods: []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam2.team2", "node1", s1),
				pod("subteam2.team1", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, max, 0)},
		{name: "AntiAffinity with pods matching NamespaceSelector",
			pod: pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAnti(5, nsTerm) }),
			pods: []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam1.team2", "node1", s1),
				pod("subteam2.team1", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, 0, max)},
		{name: "AntiAffinity with pods matching both NamespaceSelector and Namespaces fields",
			pod: pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAnti(5, nsTerm) }),
			pods: []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam2.team2", "node1", s1),
				pod("subteam2.team1", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, 0, max)},
		{name: "Affinity with pods correctly enforcing negative NamespaceSelector",
			pod:   pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAff(5, negTerm) }),
			pods:  []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam1.team2", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, 0, max)},
		{name: "AntiAffinity with pods correctly enforcing negative NamespaceSelector",
			pod:   pod("subteam1.team1", "", s1, func(b *ipaPod) *ipaPod { return b.PrefAnti(5, negTerm) }),
			pods:  []*api.Pod{pod("subteam1.team1", "node1", s1), pod("subteam1.team1", "node1", s1), pod("subteam1.team2", "node2", s1)},
			nodes: n(rgChina, rgIndia), want: scores(names, max, 0)},
		{name: "Ignore preferred terms of existing pods",
			pod:   pod("", "", s2),
			pods:  []*api.Pod{pod("", "node1", s1, stayS1AwayS2), pod("", "node2", s2, stayWithS2InRegion)},
			nodes: n(rgChina, rgIndia), ignore: true, wantStatus: framework.NewStatus(framework.Skip)},
		{name: "Do not ignore preferred terms of existing pods",
			pod:   pod("", "", s2),
			pods:  []*api.Pod{pod("", "node1", s1, stayS1AwayS2), pod("", "node2", s2, stayWithS2InRegion)},
			nodes: n(rgChina, rgIndia), want: scores(names, 0, max)},
		{name: "No nodes to score", pod: pod("", "", s2), wantStatus: framework.NewStatus(framework.Skip)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := int32(1)
			got, st := runIPAScore(t, tc.nodes, tc.pods, tc.pod, config.InterPodAffinityArgs{HardPodAffinityWeight: &w, IgnorePreferredTermsOfExistingPods: tc.ignore})
			if tc.wantStatus != nil || st != nil {
				if st.Code() != tc.wantStatus.Code() || !strings.Contains(st.Message(), tc.wantStatus.Message()) {
					t.Fatalf("PreScore = %v, want %v", st, tc.wantStatus)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreferredAffinityWithHardPodAffinitySymmetricWeight(t *testing.T) {
	s1 := map[string]string{"service": "S1"}
	hard := func(node string) *api.Pod {
		return mkPod("", node, nil).ReqAff(api.PodAffinityTerm{LabelSelector: selIn("service", "S1"), TopologyKey: "region",
			Namespaces:        []string{"", "subteam2.team2"},
			NamespaceSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpIn, Values: []string{"team1"}}}}}).Obj()
	}
	nodes := func() []*api.Node {
		return []*api.Node{ipaNode("node1", map[string]string{"region": "China"}), ipaNode("node2", map[string]string{"region": "India"}), ipaNode("node3", map[string]string{"az": "az1"})}
	}
	names := []string{"node1", "node2", "node3"}
	// upstream: scoring_test.go TestPreferredAffinityWithHardPodAffinitySymmetricWeight.
	tests := []struct {
		name   string
		ns     string
		weight int32
		want   framework.NodeScoreList
		skip   bool
	}{
		{name: "with default weight", weight: 1, want: scores(names, 100, 100, 0)},
		{name: "with zero weight", weight: 0, skip: true},
		{name: "with no matching namespace", ns: "subteam1.team2", weight: 1, skip: true},
		{name: "with matching NamespaceSelector", ns: "subteam1.team1", weight: 1, want: scores(names, 100, 100, 0)},
		{name: "with matching Namespaces", ns: "subteam2.team2", weight: 1, want: scores(names, 100, 100, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.weight
			got, st := runIPAScore(t, nodes(), []*api.Pod{hard("node1"), hard("node2")}, mkPod(tc.ns, "", s1).Obj(), config.InterPodAffinityArgs{HardPodAffinityWeight: &w})
			if tc.skip {
				if !st.IsSkip() {
					t.Fatalf("PreScore = %v, want Skip", st)
				}
				return
			}
			if st != nil {
				t.Fatal(st)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

// NormalizeMinMax maps the lowest to 0 and the highest to 100, negative
// sums included, truncating as upstream's float arithmetic does.
func TestNormalizeMinMax(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	for _, tc := range []struct{ in, want []int64 }{
		{[]int64{-5, 0, 5, 10}, []int64{0, 33, 66, 100}},
		{[]int64{-7, -7}, []int64{0, 0}},
		{[]int64{3, 1, 2}, []int64{100, 0, 50}},
		{[]int64{0, 1, 2}, []int64{0, 50, 100}},
		{[]int64{-3, -2, -1}, []int64{0, 50, 100}},
	} {
		l := scores(names, tc.in...)
		priorities.NormalizeMinMax(l)
		if diff := cmp.Diff(scores(names, tc.want...), l); diff != "" {
			t.Errorf("NormalizeMinMax(%v) (-want +got):\n%s", tc.in, diff)
		}
		row := slices.Clone(tc.in)
		priorities.NormalizeMinMaxScores(row)
		if diff := cmp.Diff(tc.want, row); diff != "" {
			t.Errorf("NormalizeMinMaxScores(%v) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// Score allocates nothing once PreScore has run.
func TestInterPodAffinityScoreAllocations(t *testing.T) {
	nodes := []*api.Node{ipaNode("a", map[string]string{"zone": "z1", "kubernetes.io/hostname": "a"}), ipaNode("b", map[string]string{"zone": "z2", "kubernetes.io/hostname": "b"})}
	pods := []*api.Pod{mkPod("", "a", map[string]string{"app": "web"}).PrefAnti(3, term("zone", selIn("app", "db"))).Obj()}
	pod := mkPod("", "", map[string]string{"app": "db"}).PrefAff(5, term("kubernetes.io/hostname", selIn("app", "web"))).Obj()
	snap, err := ipaSnapshot(nodes, pods, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, ipaHandle{Snap: snap})
	p := pl.(*InterPodAffinity)
	state := framework.NewCycleState()
	if st := p.PreScore(context.Background(), state, pod, snap.View().Nodes()); st != nil {
		t.Fatal(st)
	}
	for _, ni := range snap.View().Nodes() {
		if n := testing.AllocsPerRun(100, func() { _, _ = p.Score(context.Background(), state, pod, ni) }); n != 0 {
			t.Errorf("Score(%s) allocates %v times", ni.Name(), n)
		}
	}
}

// A cache entry whose nodes all went (a sync over no nodes) counts its
// next sync from scratch again, as a first sync, with its earlier keys
// gone: it scores as a new plugin.
func TestInterPodAffinityScoreCacheEmptied(t *testing.T) {
	pref := mkPod("default", "", map[string]string{"app": "web"}).
		PrefAff(3, term("zone", selIn("app", "web"))).PrefAnti(2, term("kubernetes.io/hostname", selIn("app", "db"))).Obj()
	existing := []*api.Pod{
		mkPod("default", "n1", map[string]string{"app": "web"}).Obj(),
		mkPod("default", "n2", map[string]string{"app": "db"}).Obj(),
	}
	nodes := []*api.Node{
		ipaNode("n1", map[string]string{"kubernetes.io/hostname": "n1", "zone": "z1"}),
		ipaNode("n2", map[string]string{"kubernetes.io/hostname": "n2", "zone": "z2"}),
	}
	snap, err := ipaSnapshot(nodes, existing, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, ipaHandle{Snap: snap})
	cached := pl.(*InterPodAffinity)
	raw := func(p *InterPodAffinity) map[string]int64 {
		state := framework.NewCycleState()
		nis := snap.View().Nodes()
		if st := p.PreScore(context.Background(), state, pref, nis); st != nil {
			return map[string]int64{"": int64(st.Code())}
		}
		out := map[string]int64{}
		for _, ni := range nis {
			s, st := p.Score(context.Background(), state, pref, ni)
			if st != nil {
				t.Fatal(st)
			}
			out[ni.Name()] = s
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		fresh, _ := New(nil, ipaHandle{Snap: snap})
		if got, want := raw(cached), raw(fresh.(*InterPodAffinity)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: cached plugin %v, new plugin %v", when, got, want)
		}
	}
	check("first")
	for _, n := range nodes {
		if err := snap.RemoveNode(n.Name); err != nil {
			t.Fatal(err)
		}
	}
	check("no nodes")
	// Back with the zone key only: the hostname key of the first sync is
	// gone.
	if err := snap.AddNode(ipaNode("n3", map[string]string{"zone": "z1"})); err != nil {
		t.Fatal(err)
	}
	added := mkPod("default", "n3", map[string]string{"app": "web"}).Obj()
	added.Name, added.UID = "added", "added"
	if err := snap.AddPod(added); err != nil {
		t.Fatal(err)
	}
	check("nodes again")
	if err := snap.AddNode(ipaNode("n4", map[string]string{"kubernetes.io/hostname": "n4", "zone": "z2"})); err != nil {
		t.Fatal(err)
	}
	check("changed after the second first sync")
}
