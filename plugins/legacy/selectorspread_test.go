package legacy

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// Controller kinds of the ported SelectorSpread rows, as upstream's
// rcKind, rsKind and ssKind.
var (
	ssRC = api.OwnerReference{APIVersion: "v1", Kind: "ReplicationController"}
	ssRS = api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet"}
	ssSS = api.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet"}
)

// ssOwner is upstream's controllerRef(name, kind): a controller
// reference.
func ssOwner(name string, kind api.OwnerReference) []api.OwnerReference {
	yes := true
	kind.Name, kind.Controller = name, &yes
	return []api.OwnerReference{kind}
}

// ssPod is an existing or incoming pod of the ported rows. Upstream's
// st.MakePod() pods have no namespace (""), which the rows rely on, so
// the namespace is given as upstream gives it. The snapshot needs unique
// names, which upstream's rows do not set; the test names them.
func ssPod(ns, node string, labels map[string]string, owners []api.OwnerReference) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Labels: labels, OwnerReferences: owners}}
	p.Spec.NodeName = node
	return p
}

func ssService(ns, name string, sel map[string]string) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.ServiceSpec{Selector: sel}}
}

func ssRCObj(ns, name string, sel map[string]string) *api.ReplicationController {
	return &api.ReplicationController{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.ReplicationControllerSpec{Selector: sel}}
}

func ssRSObj(ns, name string, sel map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: sel}}}
}

func ssSSObj(ns, name string, sel map[string]string) *api.StatefulSet {
	return &api.StatefulSet{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.StatefulSetSpec{Selector: &api.LabelSelector{MatchLabels: sel}}}
}

// fataler is what runSelectorSpread needs of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// runSelectorSpread runs PreScore over every node, Score for each node
// in order and NormalizeScore, as upstream's tests do.
func runSelectorSpread(t fataler, nodes []*api.Node, pods []*api.Pod, objs []any, pod *api.Pod) framework.NodeScoreList {
	t.Helper()
	for i, p := range pods {
		if p.Name == "" {
			p.Name = fmt.Sprintf("pod-%d", i)
		}
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := snap.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	pl, err := NewSelectorSpread(nil, testHandle{snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*SelectorSpread)
	ctx, state := context.Background(), framework.NewCycleState()
	if st := p.PreScore(ctx, state, pod, snap.Nodes()); !st.IsSuccess() {
		t.Fatalf("PreScore: %v", st)
	}
	var got framework.NodeScoreList
	for _, n := range nodes {
		ni, _ := snap.Get(n.Name)
		s, st := p.Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			t.Fatalf("Score: %v", st)
		}
		got = append(got, framework.NodeScore{Name: n.Name, Score: s})
	}
	if st := p.ScoreExtensions().NormalizeScore(ctx, state, pod, got); !st.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", st)
	}
	return got
}

func TestSelectorSpreadScore(t *testing.T) {
	labels1 := map[string]string{"foo": "bar", "baz": "blah"}
	labels2 := map[string]string{"bar": "foo", "baz": "blah"}
	const def = "default"
	both := func(s1, s2 int64) framework.NodeScoreList {
		return framework.NodeScoreList{{Name: "node1", Score: s1}, {Name: "node2", Score: s2}}
	}
	spread := ssPod(def, "", labels1, ssOwner("ss1", ssSS))
	spread.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "foo", WhenUnsatisfiable: api.DoNotSchedule}}
	tests := []struct {
		name string
		pod  *api.Pod
		pods []*api.Pod
		objs []any
		want framework.NodeScoreList
	}{
		{ // upstream: TestSelectorSpreadScore "nothing scheduled"
			name: "nothing scheduled", pod: ssPod("", "", nil, nil), want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "no services"
			name: "no services", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{ssPod("", "node1", nil, nil)},
			want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "different services"
			name: "different services", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{ssPod("", "node1", labels2, nil)},
			objs: []any{ssService(def, "s1", map[string]string{"key": "value"})},
			want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "two pods, one service pod"
			name: "two pods, one service pod", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{ssPod("", "node1", labels2, nil), ssPod("", "node2", labels1, nil)},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(100, 0),
		},
		{ // upstream: TestSelectorSpreadScore "five pods, one service pod in no namespace"
			name: "five pods, one service pod in no namespace", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{
				ssPod("", "node1", labels2, nil), ssPod(def, "node1", labels1, nil), ssPod("ns1", "node1", labels1, nil),
				ssPod("", "node2", labels1, nil), ssPod("", "node2", labels2, nil),
			},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(100, 0),
		},
		{ // upstream: TestSelectorSpreadScore "four pods, one service pod in default namespace"
			name: "four pods, one service pod in default namespace", pod: ssPod(def, "", labels1, nil),
			pods: []*api.Pod{
				ssPod("", "node1", labels1, nil), ssPod("ns1", "node1", labels1, nil),
				ssPod(def, "node2", labels1, nil), ssPod("", "node2", labels2, nil),
			},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(100, 0),
		},
		{ // upstream: TestSelectorSpreadScore "five pods, one service pod in specific namespace"
			// (upstream's service has no name; the object store needs one)
			name: "five pods, one service pod in specific namespace", pod: ssPod("ns1", "", labels1, nil),
			pods: []*api.Pod{
				ssPod("", "node1", labels2, nil), ssPod(def, "node1", labels1, nil), ssPod("ns2", "node1", labels1, nil),
				ssPod("ns1", "node2", labels1, nil), ssPod("", "node2", labels2, nil),
			},
			objs: []any{ssService("ns1", "s1", labels1)},
			want: both(100, 0),
		},
		{ // upstream: TestSelectorSpreadScore "three pods, two service pods on different nodes"
			name: "three pods, two service pods on different nodes", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{ssPod("", "node1", labels2, nil), ssPod("", "node1", labels1, nil), ssPod("", "node2", labels1, nil)},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "four pods, three service pods"
			name: "four pods, three service pods", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{
				ssPod("", "node1", labels2, nil), ssPod("", "node1", labels1, nil),
				ssPod("", "node2", labels1, nil), ssPod("", "node2", labels1, nil),
			},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(50, 0),
		},
		{ // upstream: TestSelectorSpreadScore "service with partial pod label matches"
			name: "service with partial pod label matches", pod: ssPod("", "", labels1, nil),
			pods: []*api.Pod{ssPod("", "node1", labels2, nil), ssPod("", "node1", labels1, nil), ssPod("", "node2", labels1, nil)},
			objs: []any{ssService(def, "s1", map[string]string{"baz": "blah"})},
			want: both(0, 50),
		},
		{ // upstream: TestSelectorSpreadScore "service with partial pod label matches with service and replication controller"
			// baz=blah matches both label sets and foo=bar only labels1:
			// pod2 and pod3 are spread, pod1 is not.
			name: "service with partial pod label matches with service and replication controller",
			pod:  ssPod(def, "", labels1, ssOwner("rc1", ssRC)),
			pods: []*api.Pod{ssPod(def, "node1", labels2, nil), ssPod(def, "node1", labels1, nil), ssPod(def, "node2", labels1, nil)},
			objs: []any{
				ssRCObj(def, "rc1", map[string]string{"foo": "bar"}), ssRCObj(def, "rc2", map[string]string{"bar": "foo"}),
				ssService(def, "s1", map[string]string{"baz": "blah"}),
			},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "service with partial pod label matches with service and replica set"
			name: "service with partial pod label matches with service and replica set",
			pod:  ssPod(def, "", labels1, ssOwner("rs1", ssRS)),
			pods: []*api.Pod{ssPod(def, "node1", labels2, nil), ssPod(def, "node1", labels1, nil), ssPod(def, "node2", labels1, nil)},
			objs: []any{
				ssService(def, "s1", map[string]string{"baz": "blah"}),
				ssRSObj(def, "rs1", map[string]string{"foo": "bar"}), ssRSObj(def, "rs2", map[string]string{"bar": "foo"}),
			},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "service with partial pod label matches with service and statefulset"
			name: "service with partial pod label matches with service and statefulset",
			pod:  ssPod(def, "", labels1, ssOwner("ss1", ssSS)),
			pods: []*api.Pod{ssPod(def, "node1", labels2, nil), ssPod(def, "node1", labels1, nil), ssPod(def, "node2", labels1, nil)},
			objs: []any{
				ssService(def, "s1", map[string]string{"baz": "blah"}),
				ssSSObj(def, "ss1", map[string]string{"foo": "bar"}), ssSSObj(def, "ss2", map[string]string{"bar": "foo"}),
			},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "disjoined service and replication controller matches no pods"
			name: "disjoined service and replication controller matches no pods",
			pod:  ssPod(def, "", map[string]string{"foo": "bar", "bar": "foo"}, ssOwner("rc3", ssRC)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rc2", ssRC)), ssPod(def, "node1", labels1, ssOwner("rc1", ssRC)),
				ssPod(def, "node2", labels1, ssOwner("rc1", ssRC)),
			},
			objs: []any{ssRCObj(def, "rc3", map[string]string{"foo": "bar"}), ssService(def, "s1", map[string]string{"bar": "foo"})},
			want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "disjoined service and replica set matches no pods"
			name: "disjoined service and replica set matches no pods",
			pod:  ssPod(def, "", map[string]string{"foo": "bar", "bar": "foo"}, ssOwner("rs3", ssRS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rs2", ssRS)), ssPod(def, "node1", labels1, ssOwner("rs1", ssRS)),
				ssPod(def, "node2", labels1, ssOwner("rs1", ssRS)),
			},
			objs: []any{ssService(def, "s1", map[string]string{"bar": "foo"}), ssRSObj(def, "rs3", map[string]string{"foo": "bar"})},
			want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "disjoined service and stateful set matches no pods"
			name: "disjoined service and stateful set matches no pods",
			pod:  ssPod(def, "", map[string]string{"foo": "bar", "bar": "foo"}, ssOwner("ss3", ssSS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("ss2", ssSS)), ssPod(def, "node1", labels1, ssOwner("ss1", ssSS)),
				ssPod(def, "node2", labels1, ssOwner("ss1", ssSS)),
			},
			objs: []any{ssService(def, "s1", map[string]string{"bar": "foo"}), ssSSObj(def, "ss3", map[string]string{"foo": "bar"})},
			want: both(100, 100),
		},
		{ // upstream: TestSelectorSpreadScore "Replication controller with partial pod label matches"
			// Both nodes have one pod of the controller: both score 0.
			name: "Replication controller with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("rc1", ssRC)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rc2", ssRC)), ssPod(def, "node1", labels1, ssOwner("rc1", ssRC)),
				ssPod(def, "node2", labels1, ssOwner("rc1", ssRC)),
			},
			objs: []any{ssRCObj(def, "rc1", map[string]string{"foo": "bar"})},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "Replica set with partial pod label matches"
			name: "Replica set with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("rs1", ssRS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rs2", ssRS)), ssPod(def, "node1", labels1, ssOwner("rs1", ssRS)),
				ssPod(def, "node2", labels1, ssOwner("rs1", ssRS)),
			},
			objs: []any{ssRSObj(def, "rs1", map[string]string{"foo": "bar"})},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "StatefulSet with partial pod label matches"
			name: "StatefulSet with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("ss1", ssSS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("ss2", ssSS)), ssPod(def, "node1", labels1, ssOwner("ss1", ssSS)),
				ssPod(def, "node2", labels1, ssOwner("ss1", ssSS)),
			},
			objs: []any{ssSSObj(def, "ss1", map[string]string{"foo": "bar"})},
			want: both(0, 0),
		},
		{ // upstream: TestSelectorSpreadScore "Another replication controller with partial pod label matches"
			name: "Another replication controller with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("rc3", ssRC)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rc2", ssRC)), ssPod(def, "node1", labels1, ssOwner("rc1", ssRC)),
				ssPod(def, "node2", labels1, ssOwner("rc1", ssRC)),
			},
			objs: []any{ssRCObj(def, "rc3", map[string]string{"baz": "blah"})},
			want: both(0, 50),
		},
		{ // upstream: TestSelectorSpreadScore "Another replication set with partial pod label matches"
			name: "Another replication set with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("rs3", ssRS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("rs2", ssRS)), ssPod(def, "node1", labels1, ssOwner("rs1", ssRS)),
				ssPod(def, "node2", labels1, ssOwner("rs1", ssRS)),
			},
			objs: []any{ssRSObj(def, "rs3", map[string]string{"baz": "blah"})},
			want: both(0, 50),
		},
		{ // upstream: TestSelectorSpreadScore "Another stateful set with partial pod label matches"
			name: "Another stateful set with partial pod label matches",
			pod:  ssPod(def, "", labels1, ssOwner("ss3", ssSS)),
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("ss2", ssSS)), ssPod(def, "node1", labels1, ssOwner("ss1", ssSS)),
				ssPod(def, "node2", labels1, ssOwner("ss1", ssSS)),
			},
			objs: []any{ssSSObj(def, "ss3", map[string]string{"baz": "blah"})},
			want: both(0, 50),
		},
		{ // upstream: TestSelectorSpreadScore "Another statefulset with TopologySpreadConstraints set in pod"
			name: "Another statefulset with TopologySpreadConstraints set in pod",
			pod:  spread,
			pods: []*api.Pod{
				ssPod(def, "node1", labels2, ssOwner("ss2", ssSS)), ssPod(def, "node1", labels1, ssOwner("ss1", ssSS)),
				ssPod(def, "node2", labels1, ssOwner("ss1", ssSS)),
			},
			objs: []any{ssSSObj(def, "ss1", map[string]string{"baz": "blah"})},
			want: both(0, 0),
		},
		{ // schedkit: terminating pods are not counted (countMatchingPods)
			name: "terminating pod not counted", pod: ssPod(def, "", labels1, nil),
			pods: []*api.Pod{ssTerminating(ssPod(def, "node1", labels1, nil)), ssPod(def, "node2", labels1, nil)},
			objs: []any{ssService(def, "s1", labels1)},
			want: both(100, 0),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "node1"}}, {ObjectMeta: api.ObjectMeta{Name: "node2"}}}
			got := runSelectorSpread(t, nodes, tc.pods, tc.objs, tc.pod)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("scores (-want,+got):\n%s", diff)
			}
		})
	}
}

func ssTerminating(p *api.Pod) *api.Pod {
	ts := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p.DeletionTimestamp = &ts
	return p
}

func sortNodeScores(l framework.NodeScoreList) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Score != l[j].Score {
			return l[i].Score < l[j].Score
		}
		return l[i].Name < l[j].Name
	})
}

// zoneSpreadNodes are upstream's labeled nodes of
// TestZoneSelectorSpreadPriority: one node in zone1, two in zone2,
// three in zone3 (topology.kubernetes.io/zone).
func zoneSpreadNodes() []*api.Node {
	var nodes []*api.Node
	for _, n := range []struct{ name, zone string }{
		{"node1.zone1", "zone1"}, {"node1.zone2", "zone2"}, {"node2.zone2", "zone2"},
		{"node1.zone3", "zone3"}, {"node2.zone3", "zone3"}, {"node3.zone3", "zone3"},
	} {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: n.name, Labels: map[string]string{affinity.LabelTopologyZone: n.zone}}})
	}
	return nodes
}

func TestZoneSelectorSpreadPriority(t *testing.T) {
	labels1 := map[string]string{"label1": "l1", "baz": "blah"}
	labels2 := map[string]string{"label2": "l2", "baz": "blah"}
	const (
		m1z1 = "node1.zone1"
		m1z2 = "node1.zone2"
		m2z2 = "node2.zone2"
		m1z3 = "node1.zone3"
		m2z3 = "node2.zone3"
		m3z3 = "node3.zone3"
		def  = "default"
	)
	// build is upstream's buildPod: a pod of the default namespace.
	build := func(node string, labels map[string]string, owners []api.OwnerReference) *api.Pod {
		return ssPod(def, node, labels, owners)
	}
	scores := func(z1, z2a, z2b, z3a, z3b, z3c int64) framework.NodeScoreList {
		return framework.NodeScoreList{{Name: m1z1, Score: z1}, {Name: m1z2, Score: z2a}, {Name: m2z2, Score: z2b},
			{Name: m1z3, Score: z3a}, {Name: m2z3, Score: z3b}, {Name: m3z3, Score: z3c}}
	}
	svc := []any{ssService(def, "s1", labels1)}
	tests := []struct {
		name string
		pod  *api.Pod
		pods []*api.Pod
		objs []any
		want framework.NodeScoreList
	}{
		{ // upstream: TestZoneSelectorSpreadPriority "nothing scheduled"
			name: "nothing scheduled", pod: ssPod("", "", nil, nil), want: scores(100, 100, 100, 100, 100, 100),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "no services"
			name: "no services", pod: build("", labels1, nil), pods: []*api.Pod{build(m1z1, nil, nil)},
			want: scores(100, 100, 100, 100, 100, 100),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "different services"
			name: "different services", pod: build("", labels1, nil), pods: []*api.Pod{build(m1z1, labels2, nil)},
			objs: []any{ssService(def, "s1", map[string]string{"key": "value"})},
			want: scores(100, 100, 100, 100, 100, 100),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "two pods, 0 matching"
			name: "two pods, 0 matching", pod: build("", labels1, nil),
			pods: []*api.Pod{build(m1z1, labels2, nil), build(m1z2, labels2, nil)},
			objs: svc, want: scores(100, 100, 100, 100, 100, 100),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "two pods, 1 matching (in z2)"
			name: "two pods, 1 matching (in z2)", pod: build("", labels1, nil),
			pods: []*api.Pod{build(m1z1, labels2, nil), build(m1z2, labels1, nil)},
			objs: svc, want: scores(100, 0, 33, 100, 100, 100),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "five pods, 3 matching (z2=2, z3=1)"
			name: "five pods, 3 matching (z2=2, z3=1)", pod: build("", labels1, nil),
			pods: []*api.Pod{
				build(m1z1, labels2, nil), build(m1z2, labels1, nil), build(m2z2, labels1, nil),
				build(m1z3, labels2, nil), build(m2z3, labels1, nil),
			},
			objs: svc, want: scores(100, 0, 0, 66, 33, 66),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "four pods, 3 matching (z1=1, z2=1, z3=1)"
			name: "four pods, 3 matching (z1=1, z2=1, z3=1)", pod: build("", labels1, nil),
			pods: []*api.Pod{build(m1z1, labels1, nil), build(m1z2, labels1, nil), build(m2z2, labels2, nil), build(m1z3, labels1, nil)},
			objs: svc, want: scores(0, 0, 33, 0, 33, 33),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "five pods, 4 matching (z1=1, z2=2, z3=1)"
			name: "five pods, 4 matching (z1=1, z2=2, z3=1)", pod: build("", labels1, nil),
			pods: []*api.Pod{
				build(m1z1, labels1, nil), build(m1z2, labels1, nil), build(m2z2, labels1, nil),
				build(m2z2, labels2, nil), build(m1z3, labels1, nil),
			},
			objs: svc, want: scores(33, 0, 0, 33, 66, 66),
		},
		{ // upstream: TestZoneSelectorSpreadPriority "Replication controller spreading (z1=0, z2=1, z3=2)"
			// Two pods on node1.zone3 make zone2's scores questionable, but
			// the order is right: zone1 first, node1.zone3 last.
			name: "Replication controller spreading (z1=0, z2=1, z3=2)", pod: build("", labels1, ssOwner("rc1", ssRC)),
			pods: []*api.Pod{build(m1z3, labels1, nil), build(m1z2, labels1, nil), build(m1z3, labels1, nil)},
			objs: []any{ssRCObj(def, "rc1", labels1)},
			want: scores(100, 50, 66, 0, 33, 33),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runSelectorSpread(t, zoneSpreadNodes(), tc.pods, tc.objs, tc.pod)
			sortNodeScores(got)
			sortNodeScores(tc.want)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("scores (-want,+got):\n%s", diff)
			}
		})
	}
}

// SelectorSpreadScore's float arithmetic, pinned on values whose
// truncation depends on it.
func TestSelectorSpreadScoreArithmetic(t *testing.T) {
	tests := []struct {
		count, maxNode     int64
		hasZone            bool
		zoneCount, maxZone int64
		want               int64
	}{
		{0, 0, false, 0, 0, 100},
		{1, 2, false, 0, 0, 50},
		{1, 3, false, 0, 0, 66}, // 66.67 truncated
		{0, 1, true, 1, 1, 33},  // 100/3
		{0, 1, true, 0, 1, 100}, // 100·1/3 + 2/3·100 = 100 (not 99)
		{1, 2, true, 1, 2, 50},  // 50/3 + 2/3·50
		{0, 2, true, 1, 2, 66},  // 100/3 + 2/3·50
		{2, 2, true, 0, 0, 66},  // zone part 100 with maxZone 0
		{0, 0, true, 0, 0, 100}, // no matching pods anywhere
		{1, 3, true, 2, 3, 44},  // 66.67/3 + 2/3·33.33 = 44.44
	}
	for _, tc := range tests {
		if got := priorities.SelectorSpreadScore(tc.count, tc.maxNode, tc.hasZone, tc.zoneCount, tc.maxZone); got != tc.want {
			t.Errorf("SelectorSpreadScore(%d, %d, %v, %d, %d) = %d, want %d", tc.count, tc.maxNode, tc.hasZone, tc.zoneCount, tc.maxZone, got, tc.want)
		}
	}
}
