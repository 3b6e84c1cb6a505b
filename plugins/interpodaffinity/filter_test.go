package interpodaffinity

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// upstreamNamespaces are the Namespace objects of upstream's
// interpodaffinity tests (scoring_test.go namespaces).
var upstreamNamespaces = fakeNamespaces{
	{ObjectMeta: api.ObjectMeta{Name: "subteam1.team1", Labels: map[string]string{"team": "team1"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam2.team1", Labels: map[string]string{"team": "team1"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam1.team2", Labels: map[string]string{"team": "team2"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam2.team2", Labels: map[string]string{"team": "team2"}}},
}

func statusString(s *framework.Status) string {
	if s == nil {
		return "Success"
	}
	return s.Code().String() + ": " + s.Message()
}

var (
	wantAffinity     = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	wantAnti         = framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	wantExistingAnti = framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
)

// runIPAFilter runs PreFilter over all nodes, then Filter on each.
func runIPAFilter(t *testing.T, nodes []*api.Node, pods []*api.Pod, ns fakeNamespaces, pod *api.Pod) (*framework.Status, []*framework.Status) {
	t.Helper()
	snap, err := ipaSnapshot(nodes, pods, ns)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(nil, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinity)
	state := framework.NewCycleState()
	infos := snap.View().Nodes()
	_, pre := p.PreFilter(context.Background(), state, pod, infos)
	if !pre.IsSuccess() {
		return pre, nil
	}
	var out []*framework.Status
	for _, n := range nodes {
		ni, _ := snap.Get(n.Name)
		out = append(out, p.Filter(context.Background(), state, pod, ni))
	}
	return nil, out
}

func TestRequiredAffinitySingleNode(t *testing.T) {
	podLabel := map[string]string{"service": "securityscan"}
	podLabel2 := map[string]string{"security": "S1"}
	existing := mkPod("", "node1", podLabel).Obj
	node1 := ipaNode("node1", map[string]string{"region": "r1", "zone": "z11"})
	nsTerm := func(ns *api.LabelSelector, topo string) api.PodAffinityTerm {
		return api.PodAffinityTerm{LabelSelector: selIn("service", "securityscan", "value2"), NamespaceSelector: ns, TopologyKey: topo}
	}
	team1 := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpIn, Values: []string{"team1"}}}}
	const badValue = `parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: "{{.bad-value.}}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	// upstream: filtering_test.go TestRequiredAffinitySingleNode, row by row
	// (its InterPodAffinityHostnameFastPath=false runs).
	tests := []struct {
		name   string
		pod    *api.Pod
		pods   []*api.Pod
		pre    *framework.Status
		filter *framework.Status
	}{
		{name: "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
			pod: &api.Pod{}, pre: framework.NewStatus(framework.Skip)},
		{name: "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
			pod: mkPod("", "", podLabel2).ReqAff(term("region", selIn("service", "securityscan", "value2"))).Obj(), pods: []*api.Pod{existing()}},
		{name: "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
			pod: mkPod("", "", podLabel2).ReqAff(term("region", selNotIn("service", "securityscan3", "value3"))).Obj(), pods: []*api.Pod{existing()}},
		{name: "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
			pod:  mkPod("", "", podLabel2).ReqAff(api.PodAffinityTerm{LabelSelector: selIn("service", "securityscan", "value2"), Namespaces: []string{"DiffNameSpace"}}).Obj(),
			pods: []*api.Pod{mkPod("ns", "node1", map[string]string{"service": "securityscan"}).Obj()}, filter: wantAffinity},
		{name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
			pod: mkPod("", "", podLabel).ReqAff(term("", selIn("service", "antivirusscan", "value2"))).Obj(), pods: []*api.Pod{existing()}, filter: wantAffinity},
		{name: "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
			pod: mkPod("", "", podLabel2).
				ReqAff(term("region", selReqs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpExists}, api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}))).
				ReqAff(term("region", selReqs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan"}}, api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}}))).Obj(),
			pods: []*api.Pod{existing()}},
		{name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
			pod: mkPod("", "", podLabel2).
				ReqAff(term("region", selReqs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpExists}, api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}))).
				ReqAff(term("region", selReqs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan2"}}, api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}}))).Obj(),
			pods: []*api.Pod{existing()}, filter: wantAffinity},
		{name: "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
			pod:  mkPod("", "", podLabel2).ReqAff(term("region", selIn("service", "securityscan", "value2"))).ReqAnti(term("node", selIn("service", "antivirusscan", "value2"))).Obj(),
			pods: []*api.Pod{existing()}},
		{name: "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
			pod:  mkPod("", "", podLabel2).ReqAff(term("region", selIn("service", "securityscan", "value2"))).ReqAnti(term("node", selIn("service", "antivirusscan", "value2"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel).ReqAnti(term("node", selIn("service", "antivirusscan", "value2"))).Obj()}},
		{name: "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
			pod:  mkPod("", "", podLabel2).ReqAff(term("region", selIn("service", "securityscan", "value2"))).ReqAnti(term("zone", selIn("service", "securityscan", "value2"))).Obj(),
			pods: []*api.Pod{existing()}, filter: wantAnti},
		{name: "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			pod:  mkPod("", "", podLabel).ReqAff(term("region", selIn("service", "securityscan", "value2"))).ReqAnti(term("node", selIn("service", "antivirusscan", "value2"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel).ReqAnti(term("zone", selIn("service", "securityscan", "value2"))).Obj()}, filter: wantExistingAnti},
		{name: "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
			pod:  mkPod("", "", podLabel).ReqAff(term("region", selNotIn("service", "securityscan", "value2"))).Obj(),
			pods: []*api.Pod{mkPod("", "node2", map[string]string{"service": "securityscan"}).Obj()}, filter: wantAffinity},
		{name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			pod:  mkPod("", "", podLabel).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel).ReqAnti(term("zone", selIn("service", "securityscan", "value2"))).Obj()}, filter: wantExistingAnti},
		{name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
			pod:  mkPod("", "", podLabel).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel).ReqAnti(term("zone", selNotIn("service", "securityscan", "value2"))).Obj()}, pre: framework.NewStatus(framework.Skip)},
		{name: "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
			pod:  mkPod("", "", podLabel).ReqAnti(term("region", selExists("service"))).ReqAnti(term("region", selExists("security"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel2).ReqAnti(term("zone", selExists("security"))).Obj()}, filter: wantAnti},
		{name: "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
			pod:  mkPod("", "", podLabel).ReqAnti(term("zone", selExists("service"))).ReqAnti(term("zone", selExists("security"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel2).ReqAnti(term("zone", selExists("security"))).Obj()}, filter: wantAnti},
		{name: "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
			pod:  mkPod("", "", podLabel2).ReqAnti(term("zone", selExists("security"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", podLabel).ReqAnti(term("zone", selExists("service"))).ReqAnti(term("zone", selExists("security"))).Obj()}, filter: wantExistingAnti},
		{name: "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
			pod:  mkPod("", "", map[string]string{"abc": "", "xyz": ""}).ReqAnti(term("zone", selExists("abc"))).ReqAnti(term("zone", selExists("def"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", map[string]string{"def": "", "xyz": ""}).ReqAnti(term("zone", selExists("abc"))).ReqAnti(term("zone", selExists("def"))).Obj()}, filter: wantAnti},
		{name: "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
			pod:  mkPod("", "", map[string]string{"def": "", "xyz": ""}).ReqAnti(term("zone", selExists("abc"))).ReqAnti(term("zone", selExists("def"))).Obj(),
			pods: []*api.Pod{mkPod("", "node1", map[string]string{"abc": "", "xyz": ""}).ReqAnti(term("zone", selExists("abc"))).ReqAnti(term("zone", selExists("def"))).Obj()}, filter: wantAnti},
		{name: "PodAffinity fails PreFilter with an invalid affinity label syntax",
			pod: mkPod("", "", podLabel).ReqAff(term("region", selIn("service", "{{.bad-value.}}"))).ReqAff(term("node", selIn("service", "antivirusscan", "value2"))).Obj(),
			pre: framework.NewStatus(framework.UnschedulableAndUnresolvable, badValue)},
		{name: "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
			pod: mkPod("", "", podLabel).ReqAff(term("region", selIn("service", "foo"))).ReqAff(term("node", selIn("service", "{{.bad-value.}}"))).Obj(),
			pre: framework.NewStatus(framework.UnschedulableAndUnresolvable, badValue)},
		{name: "affinity with NamespaceSelector",
			pod:  mkPod("", "", podLabel2).ReqAff(nsTerm(team1, "region")).Obj(),
			pods: []*api.Pod{mkPod("subteam1.team1", "node1", podLabel).Obj()}},
		{name: "affinity with non-matching NamespaceSelector",
			pod:  mkPod("", "", podLabel2).ReqAff(nsTerm(team1, "region")).Obj(),
			pods: []*api.Pod{mkPod("subteam1.team2", "node1", podLabel).Obj()}, filter: wantAffinity},
		{name: "anti-affinity with matching NamespaceSelector",
			pod:  mkPod("subteam1.team1", "", podLabel2).ReqAnti(nsTerm(team1, "zone")).Obj(),
			pods: []*api.Pod{mkPod("subteam2.team1", "node1", podLabel).Obj()}, filter: wantAnti},
		{name: "anti-affinity with matching all NamespaceSelector",
			pod:  mkPod("subteam1.team1", "", podLabel2).ReqAnti(nsTerm(&api.LabelSelector{}, "zone")).Obj(),
			pods: []*api.Pod{mkPod("subteam2.team1", "node1", podLabel).Obj()}, filter: wantAnti},
		{name: "anti-affinity with non-matching NamespaceSelector",
			pod:  mkPod("subteam1.team1", "", podLabel2).ReqAnti(nsTerm(team1, "zone")).Obj(),
			pods: []*api.Pod{mkPod("subteam1.team2", "node1", podLabel).Obj()}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pre, got := runIPAFilter(t, []*api.Node{node1}, tc.pods, upstreamNamespaces, tc.pod)
			if statusString(pre) != statusString(tc.pre) {
				t.Fatalf("PreFilter = %s, want %s", statusString(pre), statusString(tc.pre))
			}
			if pre != nil {
				return
			}
			if statusString(got[0]) != statusString(tc.filter) {
				t.Fatalf("Filter = %s, want %s", statusString(got[0]), statusString(tc.filter))
			}
		})
	}
}

func TestRequiredAffinityMultipleNodes(t *testing.T) {
	labelRgChina := map[string]string{"region": "China"}
	labelRgChinaAzAz1 := map[string]string{"region": "China", "az": "az1"}
	labelRgIndia := map[string]string{"region": "India"}
	lbl := func(region, zone, host string) map[string]string {
		return map[string]string{"region": region, "zone": zone, "hostname": host}
	}
	chinaIndia := []*api.Node{ipaNode("nodeA", labelRgChina), ipaNode("nodeB", labelRgChinaAzAz1), ipaNode("nodeC", labelRgIndia)}
	r1z1z1 := func() []*api.Node {
		return []*api.Node{ipaNode("nodeA", lbl("r1", "z1", "nodeA")), ipaNode("nodeB", lbl("r1", "z1", "nodeB"))}
	}
	r1z1z2 := func() []*api.Node {
		return []*api.Node{ipaNode("nodeA", lbl("r1", "z1", "nodeA")), ipaNode("nodeB", lbl("r1", "z2", "nodeB"))}
	}
	// upstream: filtering_test.go TestRequiredAffinityMultipleNodes (its
	// InterPodAffinityHostnameFastPath=false runs).
	tests := []struct {
		name  string
		pod   *api.Pod
		pods  []*api.Pod
		nodes []*api.Node
		pre   *framework.Status
		want  []*framework.Status
	}{
		{name: "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
			pod:   mkPod("", "", nil).ReqAff(term("region", selIn("foo", "bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "bar"}).Obj()},
			nodes: chinaIndia, want: []*framework.Status{nil, nil, wantAffinity}},
		{name: "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
			pod:   mkPod("", "", map[string]string{"foo": "bar", "service": "securityscan"}).ReqAff(term("zone", selIn("foo", "bar"))).ReqAff(term("zone", selIn("service", "securityscan"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "bar"}).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", map[string]string{"zone": "az1", "hostname": "h1"}), ipaNode("nodeB", map[string]string{"zone": "az2", "hostname": "h2"})},
			want:  []*framework.Status{nil, nil}},
		{name: "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
			pod:   mkPod("", "", map[string]string{"foo": "bar", "service": "securityscan"}).ReqAff(term("zone", selIn("foo", "bar"))).ReqAff(term("zone", selIn("service", "securityscan"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "bar"}).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", map[string]string{"zoneLabel": "az1", "hostname": "h1"}), ipaNode("nodeB", map[string]string{"zoneLabel": "az2", "hostname": "h2"})},
			want:  []*framework.Status{wantAffinity, wantAffinity}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
			pod:   mkPod("", "", nil).ReqAnti(term("region", selIn("foo", "abc"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "abc"}).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", map[string]string{"region": "r1", "hostname": "nodeA"}), ipaNode("nodeB", map[string]string{"region": "r1", "hostname": "nodeB"})},
			want:  []*framework.Status{wantAnti, wantAnti}},
		{name: "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
			pod:   mkPod("", "", nil).ReqAnti(term("region", selIn("foo", "abc"))).ReqAnti(term("zone", selIn("service", "securityscan"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "abc", "service": "securityscan"}).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", lbl("r1", "z1", "nodeA")), ipaNode("nodeB", lbl("r1", "z2", "nodeB"))},
			want:  []*framework.Status{wantAnti, wantAnti}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
			pod:   mkPod("", "", nil).ReqAnti(term("region", selIn("foo", "abc"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "abc"}).Obj()},
			nodes: chinaIndia, want: []*framework.Status{wantAnti, wantAnti, nil}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
			pod: mkPod("NS1", "", map[string]string{"foo": "123"}).ReqAnti(term("region", selIn("foo", "bar"))).Obj(),
			pods: []*api.Pod{mkPod("NS1", "nodeA", map[string]string{"foo": "bar"}).Obj(),
				mkPod("NS2", "nodeC", nil).ReqAnti(term("region", selIn("foo", "123"))).Obj()},
			nodes: chinaIndia, want: []*framework.Status{wantAnti, wantAnti, nil}},
		{name: "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
			pod:   mkPod("", "", map[string]string{"foo": ""}).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", nil).ReqAnti(term("invalid-node-label", selExists("foo"))).Obj()},
			nodes: r1z1z1(), pre: framework.NewStatus(framework.Skip)},
		{name: "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
			pod:   mkPod("", "nodeA", nil).ReqAnti(term("invalid-node-label", selExists("foo"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": ""}).Obj()},
			nodes: r1z1z1(), want: []*framework.Status{nil, nil}},
		{name: "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
			pod:   mkPod("", "", map[string]string{"foo": "", "bar": ""}).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", nil).ReqAnti(term("zone", selExists("foo"))).Obj(), mkPod("", "nodeA", nil).ReqAnti(term("region", selExists("bar"))).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantExistingAnti, wantExistingAnti}},
		{name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
			pod:   mkPod("", "", nil).ReqAnti(term("zone", selExists("foo"))).ReqAnti(term("region", selExists("bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": ""}).Obj(), mkPod("", "nodeB", map[string]string{"bar": ""}).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantAnti, wantAnti}},
		{name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			pod:   mkPod("", "", map[string]string{"foo": "", "bar": ""}).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", nil).ReqAnti(term("invalid-node-label", selExists("foo"))).ReqAnti(term("zone", selExists("bar"))).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantExistingAnti, nil}},
		{name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			pod:   mkPod("", "", nil).ReqAnti(term("invalid-node-label", selExists("foo"))).ReqAnti(term("zone", selExists("bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "", "bar": ""}).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantAnti, nil}},
		{name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			pod:   mkPod("", "", map[string]string{"foo": "", "bar": ""}).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", nil).ReqAnti(term("region", selExists("foo"))).ReqAnti(term("zone", selExists("bar"))).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantExistingAnti, wantExistingAnti}},
		{name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			pod:   mkPod("", "", nil).ReqAnti(term("region", selExists("foo"))).ReqAnti(term("zone", selExists("bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "", "bar": ""}).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantAnti, wantAnti}},
		{name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
			pod: mkPod("", "", map[string]string{"foo": "", "bar": ""}).Obj(),
			pods: []*api.Pod{mkPod("", "nodeA", nil).ReqAnti(term("zone", selExists("foo"))).ReqAnti(term("zone", selExists("labelA"))).Obj(),
				mkPod("", "nodeB", nil).ReqAnti(term("zone", selExists("bar"))).ReqAnti(term("zone", selExists("labelB"))).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", lbl("r1", "z1", "nodeA")), ipaNode("nodeB", lbl("r1", "z2", "nodeB")), ipaNode("nodeC", lbl("r1", "z3", "nodeC"))},
			want:  []*framework.Status{wantExistingAnti, wantExistingAnti, nil}},
		{name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
			pod:   mkPod("", "", nil).ReqAff(term("region", selExists("foo"))).ReqAff(term("zone", selExists("bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": "", "bar": ""}).Obj()},
			nodes: r1z1z1(), want: []*framework.Status{nil, nil}},
		{name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
			pod:   mkPod("", "", nil).ReqAff(term("region", selExists("foo"))).ReqAff(term("zone", selExists("bar"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": ""}).Obj(), mkPod("", "nodeB", map[string]string{"bar": ""}).Obj()},
			nodes: r1z1z2(), want: []*framework.Status{wantAffinity, wantAffinity}},
		{name: "Test incoming pod's host-scoped affinity (fast path)",
			pod:   mkPod("", "", nil).ReqAff(term("kubernetes.io/hostname", selExists("foo"))).Obj(),
			pods:  []*api.Pod{mkPod("", "nodeA", map[string]string{"foo": ""}).Obj()},
			nodes: []*api.Node{ipaNode("nodeA", map[string]string{"kubernetes.io/hostname": "nodeA"}), ipaNode("nodeB", map[string]string{"kubernetes.io/hostname": "nodeB"})},
			want:  []*framework.Status{nil, wantAffinity}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pre, got := runIPAFilter(t, tc.nodes, tc.pods, nil, tc.pod)
			if statusString(pre) != statusString(tc.pre) {
				t.Fatalf("PreFilter = %s, want %s", statusString(pre), statusString(tc.pre))
			}
			if pre != nil {
				return
			}
			for i := range tc.nodes {
				if statusString(got[i]) != statusString(tc.want[i]) {
					t.Errorf("Filter(%s) = %s, want %s", tc.nodes[i].Name, statusString(got[i]), statusString(tc.want[i]))
				}
			}
		})
	}
}

// upstream: filtering_test.go TestPreFilterDisabled: Filter without
// PreFilter state is an Error.
func TestInterPodAffinityFilterWithoutState(t *testing.T) {
	snap, _ := cluster.NewSnapshot([]*api.Node{ipaNode("n", nil)}, nil)
	pl, err := New(nil, ipaHandle{Snap: snap})
	if err != nil {
		t.Fatal(err)
	}
	ni, _ := snap.Get("n")
	got := pl.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), &api.Pod{}, ni)
	want := `error reading "PreFilterInterPodAffinity" from cycleState: not found`
	if got.Code() != framework.Error || got.Message() != want {
		t.Fatalf("Filter = %v, want Error %q", got, want)
	}
	if _, err := New(nil, nil); err == nil || err.Error() != "SnapshotSharedlister is nil" {
		t.Fatalf("New(nil handle) = %v", err)
	}
}

// Filter allocates nothing once PreFilter has run.
func TestInterPodAffinityFilterAllocations(t *testing.T) {
	nodes := []*api.Node{ipaNode("a", map[string]string{"zone": "z1", "kubernetes.io/hostname": "a"}), ipaNode("b", map[string]string{"zone": "z2", "kubernetes.io/hostname": "b"})}
	pods := []*api.Pod{mkPod("", "a", map[string]string{"app": "web"}).ReqAnti(term("zone", selIn("app", "db"))).Obj()}
	pod := mkPod("", "", map[string]string{"app": "db"}).ReqAff(term("zone", selIn("app", "web"))).ReqAnti(term("kubernetes.io/hostname", selIn("app", "db"))).Obj()
	snap, err := ipaSnapshot(nodes, pods, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := New(nil, ipaHandle{Snap: snap})
	p := pl.(*InterPodAffinity)
	state := framework.NewCycleState()
	if _, st := p.PreFilter(context.Background(), state, pod, snap.View().Nodes()); st != nil {
		t.Fatal(st)
	}
	for _, ni := range snap.View().Nodes() {
		if n := testing.AllocsPerRun(100, func() { p.Filter(context.Background(), state, pod, ni) }); n != 0 {
			t.Errorf("Filter(%s) allocates %v times", ni.Name(), n)
		}
	}
}

// countsOfState flattens a state's three counts (of a Clone, whose
// count maps hold them also when the state's are cold).
func countsOfState(s *interPodAffinityState) [3]map[string]map[string]int64 {
	s = s.Clone().(*interPodAffinityState)
	return [3]map[string]map[string]int64{countsOf(s.m.existing), countsOf(s.m.affinity), countsOf(s.m.anti)}
}

func TestPreFilterStateAddRemovePod(t *testing.T) {
	label1 := map[string]string{"region": "r1", "zone": "z11", "kubernetes.io/hostname": "nodeA"}
	label2 := map[string]string{"region": "r1", "zone": "z12", "kubernetes.io/hostname": "nodeB"}
	label3 := map[string]string{"region": "r2", "zone": "z21", "kubernetes.io/hostname": "nodeC"}
	fooBar := map[string]string{"foo": "bar"}
	antiFooBar := func(b *ipaPod) *ipaPod { return b.ReqAnti(term("region", selIn("foo", "bar"))) }
	antiComplex := func(b *ipaPod) *ipaPod {
		return b.ReqAnti(term("region", selIn("foo", "bar", "buzz"))).ReqAnti(term("zone", selNotIn("service", "bar", "security", "test")))
	}
	affComplex := func(b *ipaPod) *ipaPod {
		return b.ReqAff(term("region", selIn("foo", "bar", "buzz"))).ReqAff(term("zone", selNotIn("service", "bar", "security", "test")))
	}
	with := func(name, node string, labels map[string]string, fs ...func(*ipaPod) *ipaPod) *api.Pod {
		b := mkPod("", node, labels)
		for _, f := range fs {
			b = f(b)
		}
		p := b.Obj()
		p.Name = name
		return p
	}
	threeNodes := []*api.Node{ipaNode("nodeA", label1), ipaNode("nodeB", label2), ipaNode("nodeC", label3)}
	type counts = map[string]map[string]int64
	// upstream: filtering_test.go TestPreFilterStateAddRemovePod (want*
	// are the incoming pod's anti-affinity and affinity counts after
	// AddPod).
	tests := []struct {
		name               string
		pending, added     *api.Pod
		existing           []*api.Pod
		nodes              []*api.Node
		wantAnti, wantAffi counts
	}{
		{name: "preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
			pending:  with("pending", "", fooBar, antiFooBar),
			existing: []*api.Pod{with("p1", "nodeA", fooBar), with("p2", "nodeC", nil, antiFooBar)},
			added:    with("addedPod", "nodeB", fooBar, antiFooBar),
			nodes:    threeNodes, wantAnti: counts{"region": {"r1": 2}}, wantAffi: counts{}},
		{name: "preFilterState anti-affinity terms are updated correctly after adding and removing a pod (complex)",
			pending:  with("pending", "", fooBar, antiComplex),
			existing: []*api.Pod{with("p1", "nodeA", fooBar), with("p2", "nodeC", nil, antiFooBar)},
			added:    with("addedPod", "nodeA", fooBar, antiComplex),
			nodes:    threeNodes, wantAnti: counts{"region": {"r1": 2}, "zone": {"z11": 2, "z21": 1}}, wantAffi: counts{}},
		{name: "preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod",
			pending:  with("pending", "", fooBar, affComplex),
			existing: []*api.Pod{with("p1", "nodeA", fooBar), with("p2", "nodeC", nil, antiFooBar, affComplex)},
			added:    with("addedPod", "nodeA", fooBar, antiComplex),
			nodes:    threeNodes, wantAnti: counts{}, wantAffi: counts{"region": {"r1": 2}, "zone": {"z11": 2}}},
		{name: "preFilterState anti-affinity terms with both hostname and non-hostname are updated correctly after adding and removing a pod",
			pending:  with("pending", "", fooBar, antiFooBar),
			existing: []*api.Pod{with("p1", "nodeA", fooBar)},
			added: with("addedPod", "nodeA", fooBar, func(b *ipaPod) *ipaPod {
				return b.ReqAnti(term("region", selIn("foo", "bar"))).ReqAnti(term("kubernetes.io/hostname", selIn("foo", "bar")))
			}),
			nodes: threeNodes[:2], wantAnti: counts{"region": {"r1": 2}}, wantAffi: counts{}},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prefilter := func(pods []*api.Pod) (*InterPodAffinity, *framework.CycleState, *interPodAffinityState, *cluster.Snapshot) {
				snap, err := ipaSnapshot(tc.nodes, pods, nil)
				if err != nil {
					t.Fatal(err)
				}
				pl, _ := New(nil, ipaHandle{Snap: snap})
				p := pl.(*InterPodAffinity)
				state := framework.NewCycleState()
				if _, st := p.PreFilter(ctx, state, tc.pending, snap.View().Nodes()); st != nil {
					t.Fatalf("PreFilter: %v", st)
				}
				s, _ := readInterPodAffinityState(state)
				return p, state, s, snap
			}
			_, _, all, _ := prefilter(append(append([]*api.Pod(nil), tc.existing...), tc.added))
			p, state, s, snap := prefilter(tc.existing)
			original := countsOfState(s.Clone().(*interPodAffinityState))
			ni, _ := snap.Get(tc.added.Spec.NodeName)
			if st := p.AddPod(ctx, state, tc.pending, cluster.NewPodInfo(tc.added), ni); st != nil {
				t.Fatal(st)
			}
			s, _ = readInterPodAffinityState(state)
			if diff := cmp.Diff(tc.wantAnti, countsOf(s.m.anti)); diff != "" {
				t.Errorf("anti-affinity counts after AddPod (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantAffi, countsOf(s.m.affinity)); diff != "" {
				t.Errorf("affinity counts after AddPod (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(countsOfState(all), countsOfState(s)); diff != "" {
				t.Errorf("AddPod differs from PreFilter with the pod (-want +got):\n%s", diff)
			}
			if st := p.RemovePod(ctx, state, tc.pending, cluster.NewPodInfo(tc.added), ni); st != nil {
				t.Fatal(st)
			}
			s, _ = readInterPodAffinityState(state)
			if diff := cmp.Diff(original, countsOfState(s)); diff != "" {
				t.Errorf("RemovePod does not restore the counts (-want +got):\n%s", diff)
			}
			// Pure RemovePod from the state with every pod.
			p2, state2, _, snap2 := prefilter(append(append([]*api.Pod(nil), tc.existing...), tc.added))
			ni2, _ := snap2.Get(tc.added.Spec.NodeName)
			if st := p2.RemovePod(ctx, state2, tc.pending, cluster.NewPodInfo(tc.added), ni2); st != nil {
				t.Fatal(st)
			}
			s2, _ := readInterPodAffinityState(state2)
			if diff := cmp.Diff(original, countsOfState(s2)); diff != "" {
				t.Errorf("RemovePod from the full state (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetTPMapMatchingIncomingAffinityAntiAffinity(t *testing.T) {
	const host = "kubernetes.io/hostname"
	normal := func(labels ...string) *api.Pod {
		l := map[string]string{}
		for _, k := range labels {
			l[k] = ""
		}
		p := mkPod("", "nodeA", l).Obj()
		p.Name = "normal"
		return p
	}
	nodeA := ipaNode("nodeA", map[string]string{host: "nodeA"})
	type counts = map[string]map[string]int64
	// upstream: filtering_test.go TestGetTPMapMatchingIncomingAffinityAntiAffinity.
	tests := []struct {
		name               string
		existing           []*api.Pod
		pod                *api.Pod
		wantAffi, wantAnti counts
	}{
		{name: "nil test", pod: mkPod("", "", nil).Obj(), wantAffi: counts{}, wantAnti: counts{}},
		{name: "incoming pod without affinity/anti-affinity causes a no-op", existing: []*api.Pod{normal("aaa")}, pod: mkPod("", "", nil).Obj(), wantAffi: counts{}, wantAnti: counts{}},
		{name: "no pod has label that violates incoming pod's affinity and anti-affinity", existing: []*api.Pod{normal("bbb")},
			pod:      mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAnti(term(host, selExists("aaa"))).Obj(),
			wantAffi: counts{}, wantAnti: counts{}},
		{name: "existing pod matches incoming pod's affinity and anti-affinity - single term case", existing: []*api.Pod{normal("aaa")},
			pod:      mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAnti(term(host, selExists("aaa"))).Obj(),
			wantAffi: counts{host: {"nodeA": 1}}, wantAnti: counts{host: {"nodeA": 1}}},
		{name: "existing pod matches incoming pod's affinity and anti-affinity - multiple terms case", existing: []*api.Pod{normal("aaa", "bbb")},
			pod:      mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAff(term(host, selExists("bbb"))).ReqAnti(term(host, selExists("aaa"))).Obj(),
			wantAffi: counts{host: {"nodeA": 2}}, wantAnti: counts{host: {"nodeA": 1}}},
		{name: "existing pod not match incoming pod's affinity but matches anti-affinity", existing: []*api.Pod{normal("aaa")},
			pod: mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAff(term(host, selExists("bbb"))).
				ReqAnti(term(host, selExists("aaa"))).ReqAnti(term(host, selExists("bbb"))).Obj(),
			wantAffi: counts{}, wantAnti: counts{host: {"nodeA": 1}}},
		{name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1", existing: []*api.Pod{normal("aaa", "bbb")},
			pod: mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAff(term(host, selExists("ccc"))).
				ReqAnti(term(host, selExists("aaa"))).ReqAnti(term(host, selExists("ccc"))).Obj(),
			wantAffi: counts{}, wantAnti: counts{host: {"nodeA": 1}}},
		{name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2", existing: []*api.Pod{normal("bbb")},
			pod: mkPod("", "", nil).ReqAff(term(host, selExists("aaa"))).ReqAff(term(host, selExists("bbb"))).
				ReqAnti(term(host, selExists("aaa"))).ReqAnti(term(host, selExists("bbb"))).Obj(),
			wantAffi: counts{}, wantAnti: counts{host: {"nodeA": 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap, err := ipaSnapshot([]*api.Node{nodeA}, tc.existing, nil)
			if err != nil {
				t.Fatal(err)
			}
			pl, _ := New(nil, ipaHandle{Snap: snap})
			state := framework.NewCycleState()
			_, st := pl.(*InterPodAffinity).PreFilter(context.Background(), state, tc.pod, snap.View().Nodes())
			if st.IsSkip() {
				if len(tc.wantAffi)+len(tc.wantAnti) != 0 {
					t.Fatalf("PreFilter skipped, want counts %v %v", tc.wantAffi, tc.wantAnti)
				}
				return
			}
			s, _ := readInterPodAffinityState(state)
			s = s.Clone().(*interPodAffinityState) // count maps of its own, also when the state's are cold
			if diff := cmp.Diff(tc.wantAffi, countsOf(s.m.affinity)); diff != "" {
				t.Errorf("affinity counts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantAnti, countsOf(s.m.anti)); diff != "" {
				t.Errorf("anti-affinity counts (-want +got):\n%s", diff)
			}
		})
	}
}

// upstream: filtering_test.go TestMultipleAffinityTermsRequireSingleMatchingPod
// (InterPodAffinityHostnameFastPath=false).
func TestMultipleAffinityTermsRequireSingleMatchingPod(t *testing.T) {
	const host = "kubernetes.io/hostname"
	pod := mkPod("default", "", nil).ReqAff(term(host, selIn("foo", "bar"))).ReqAff(term(host, selIn("baz", "qux"))).Obj()
	named := func(name, node string, labels map[string]string) *api.Pod {
		p := mkPod("default", node, labels).Obj()
		p.Name = name
		return p
	}
	podA := named("podA", "node-1", map[string]string{"foo": "bar"})
	podB := named("podB", "node-1", map[string]string{"baz": "qux"})
	podC := named("podC", "node-3", map[string]string{"foo": "bar", "baz": "qux"})
	nodes := []*api.Node{ipaNode("node-1", map[string]string{host: "node-1"}), ipaNode("node-2", map[string]string{host: "node-2"}), ipaNode("node-3", map[string]string{host: "node-3"})}
	ns := fakeNamespaces{{ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{}}}}
	_, got := runIPAFilter(t, nodes, []*api.Pod{podA, podB, podC}, ns, pod)
	if statusString(got[0]) != statusString(wantAffinity) || got[1] == nil || got[2] != nil {
		t.Errorf("two terms matched by two pods: node-1 %s, node-2 %s, node-3 %s; want a pod matching both (node-3 only)",
			statusString(got[0]), statusString(got[1]), statusString(got[2]))
	}
	self := *pod
	self.Labels = map[string]string{"foo": "bar", "baz": "qux"}
	_, got = runIPAFilter(t, nodes, []*api.Pod{podA, podB}, ns, &self)
	if got[0] != nil {
		t.Errorf("self-affinity with no pod matching both terms: node-1 %s, want Success", statusString(got[0]))
	}
}

// A cache entry whose nodes all went (a sync over no nodes) counts its
// next sync by domain id again, over the keys it had: it filters as a new
// plugin.
func TestInterPodAffinityCacheEmptied(t *testing.T) {
	pod := mkPod("default", "", map[string]string{"app": "web"}).
		ReqAff(term("zone", selIn("app", "web"))).ReqAnti(term("kubernetes.io/hostname", selIn("app", "db"))).Obj()
	existing := []*api.Pod{
		mkPod("default", "n1", map[string]string{"app": "web"}).Obj(),
		mkPod("default", "n2", map[string]string{"app": "db"}).ReqAnti(term("zone", selIn("app", "web"))).Obj(),
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
	check := func(when string) {
		t.Helper()
		fresh, _ := New(nil, ipaHandle{Snap: snap})
		got, _ := filterWith(cached, snap, pod)
		want, _ := filterWith(fresh.(*InterPodAffinity), snap, pod)
		if !reflect.DeepEqual(got, want) {
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
	for i, labels := range []map[string]string{{"zone": "z1"}, {"kubernetes.io/hostname": "n4", "zone": "z2"}} {
		name := fmt.Sprintf("n%d", i+3)
		if err := snap.AddNode(ipaNode(name, labels)); err != nil {
			t.Fatal(err)
		}
		p := mkPod("default", name, map[string]string{"app": "db"}).ReqAnti(term("zone", selIn("app", "web"))).Obj()
		p.Name, p.UID = "added-"+name, "added-"+name
		if err := snap.AddPod(p); err != nil {
			t.Fatal(err)
		}
		check("nodes again: " + name)
	}
}
