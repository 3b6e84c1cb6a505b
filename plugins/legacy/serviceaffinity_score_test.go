package legacy

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// saScores runs ServiceAffinity's PreScore (when preScore), Score on
// every node of s and NormalizeScore, and returns the scores by node.
func saScores(t interface {
	Helper()
	Fatal(...any)
}, s *cluster.Snapshot, labels []string, pod *api.Pod, preScore bool) map[string]int64 {
	t.Helper()
	f, err := NewServiceAffinity(&config.ServiceAffinityArgs{AntiAffinityLabelsPreference: labels}, testHandle{s})
	if err != nil {
		t.Fatal(err)
	}
	pl := f.(*ServiceAffinity)
	state := framework.NewCycleState()
	nodes := s.View().Nodes()
	if preScore {
		if st := pl.PreScore(context.Background(), state, pod, nodes); st != nil {
			t.Fatal(st)
		}
	}
	var list framework.NodeScoreList
	for _, ni := range nodes {
		sc, st := pl.Score(context.Background(), state, pod, ni)
		if st != nil {
			t.Fatal(st)
		}
		list = append(list, framework.NodeScore{Name: ni.Name(), Score: sc})
	}
	if st := pl.ScoreExtensions().NormalizeScore(context.Background(), state, pod, list); st != nil {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, ns := range list {
		out[ns.Name] = ns.Score
	}
	return out
}

// upstream (v1.22): serviceaffinity TestServiceAffinityScore. Pods get
// names (p0, p1, ...) as the snapshot keys them.
func TestServiceAffinityScore(t *testing.T) {
	labels1 := map[string]string{"foo": "bar", "baz": "blah"}
	labels2 := map[string]string{"bar": "foo", "baz": "blah"}
	zone1 := map[string]string{"zone": "zone1"}
	zone1Rack1 := map[string]string{"zone": "zone1", "rack": "rack1"}
	zone1Rack2 := map[string]string{"zone": "zone1", "rack": "rack2"}
	zone2 := map[string]string{"zone": "zone2"}
	zone2Rack1 := map[string]string{"zone": "zone2", "rack": "rack1"}
	nozone := map[string]string{"name": "value"}
	labeledNodes := map[string]map[string]string{
		"machine01": nozone, "machine02": nozone,
		"machine11": zone1, "machine12": zone1,
		"machine21": zone2, "machine22": zone2,
	}
	nodesWithZoneAndRackLabels := map[string]map[string]string{
		"machine01": nozone, "machine02": nozone,
		"machine11": zone1Rack1, "machine12": zone1Rack2,
		"machine21": zone2Rack1, "machine22": zone2Rack1,
	}
	pod := func(ns, node string, labels map[string]string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Labels: labels}, Spec: api.PodSpec{NodeName: node}}
	}
	svc := func(ns string, sel map[string]string) *api.Service {
		return &api.Service{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: ns}, Spec: api.ServiceSpec{Selector: sel}}
	}
	scores := func(m11, m12, m21, m22 int64) map[string]int64 {
		return map[string]int64{"machine11": m11, "machine12": m12, "machine21": m21, "machine22": m22, "machine01": 0, "machine02": 0}
	}
	const z0, z1, z2 = "machine01", "machine11", "machine21"
	tests := []struct {
		name     string
		pod      *api.Pod
		pods     []*api.Pod
		nodes    map[string]map[string]string
		services []*api.Service
		labels   []string
		want     map[string]int64
	}{
		{name: "nothing scheduled", pod: pod("", "", nil), nodes: labeledNodes, labels: []string{"zone"}, want: scores(100, 100, 100, 100)},
		{name: "no services", pod: pod("", "", labels1), pods: []*api.Pod{pod("", z1, nil)}, nodes: labeledNodes, labels: []string{"zone"},
			want: scores(100, 100, 100, 100)},
		{name: "different services", pod: pod("", "", labels1), pods: []*api.Pod{pod("", z1, labels2)}, nodes: labeledNodes, labels: []string{"zone"},
			services: []*api.Service{svc("", map[string]string{"key": "value"})}, want: scores(100, 100, 100, 100)},
		{name: "three pods, one service pod", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z0, labels2), pod("", z1, labels2), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(100, 100, 0, 0)},
		{name: "three pods, two service pods on different machines", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels2), pod("", z1, labels1), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(50, 50, 50, 50)},
		// Upstream's row tells pods without a namespace from pods in
		// "default"; schedkit's snapshot reads "" as "default", so those
		// pods are put in "ns0" here, which keeps the row's meaning and
		// its expectation.
		{name: "three service label match pods in different namespaces", pod: pod("default", "", labels1),
			pods:  []*api.Pod{pod("ns0", z1, labels1), pod("default", z1, labels1), pod("ns0", z2, labels1), pod("ns1", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("default", labels1)}, want: scores(0, 0, 100, 100)},
		{name: "four pods, three service pods", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels2), pod("", z1, labels1), pod("", z2, labels1), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(66, 66, 33, 33)},
		{name: "service with partial pod label matches", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels2), pod("", z1, labels1), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", map[string]string{"baz": "blah"})}, want: scores(33, 33, 66, 66)},
		{name: "service pod on non-zoned node", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z0, labels1), pod("", z1, labels1), pod("", z2, labels1), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(75, 75, 50, 50)},
		{name: "three pods, two service pods, with rack label", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z0, labels2), pod("", z1, labels1), pod("", z2, labels1)},
			nodes: nodesWithZoneAndRackLabels, labels: []string{"zone", "rack"}, services: []*api.Service{svc("", labels1)}, want: scores(25, 75, 25, 25)},

		// schedkit: "" and "default" are one namespace.
		{name: "pods without a namespace are in default", pod: pod("default", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels1), pod("default", z1, labels1), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(33, 33, 66, 66)},
		// schedkit: pinned code paths of v1.22's Score.
		{name: "pods being deleted are not counted", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels1), deleting(pod("", z1, labels1)), pod("", z2, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", labels1)}, want: scores(50, 50, 50, 50)},
		{name: "service with an empty selector scores nothing", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels1)},
			nodes: labeledNodes, labels: []string{"zone"}, services: []*api.Service{svc("", map[string]string{})}, want: scores(100, 100, 100, 100)},
		{name: "no labels: every node 0", pod: pod("", "", labels1),
			pods:  []*api.Pod{pod("", z1, labels1)},
			nodes: labeledNodes, services: []*api.Service{svc("", labels1)}, want: scores(0, 0, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*api.Node
			for n, l := range tc.nodes {
				nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: l}})
			}
			for i, p := range tc.pods {
				p.Name = fmt.Sprint("p", i)
			}
			tc.pod.Name = "incoming"
			s := snapshot(t, nodes, tc.pods)
			for _, svc := range tc.services {
				if err := s.AddObject(svc); err != nil {
					t.Fatal(err)
				}
			}
			for _, pre := range []bool{true, false} {
				if got := saScores(t, s, tc.labels, tc.pod, pre); !maps.Equal(got, tc.want) {
					t.Errorf("PreScore %v: scores %v, want %v", pre, got, tc.want)
				}
			}
		})
	}
}

func deleting(p *api.Pod) *api.Pod {
	ts := api.NewTime(time.Unix(1, 0))
	p.DeletionTimestamp = &ts
	return p
}

// A scored node the snapshot lacks is an error, worded as upstream's
// snapshot words it.
func TestNormalizeServiceAntiAffinityUnknownNode(t *testing.T) {
	s := snapshot(t, nil, nil)
	err := priorities.NormalizeServiceAntiAffinity(s.View(), []string{"zone"}, framework.NodeScoreList{{Name: "gone"}})
	if err == nil || err.Error() != `nodeinfo not found for node name "gone"` {
		t.Errorf("error %v", err)
	}
	if err := priorities.NormalizeServiceAntiAffinity(s.View(), nil, framework.NodeScoreList{{Name: "gone", Score: 3}}); err != nil {
		t.Errorf("without labels no node is looked up: %v", err)
	}
}

// Properties of the normalized scores: each in [0, MaxNodeScore]; a node
// with none of the labels gets 0; nodes with equal values of every label
// get equal scores; without service pods every labelled node gets
// MaxNodeScore for each of its labels.
func TestServiceAntiAffinityProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := []string{"zone", "rack"}
		labels := rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 2, rapid.ID[string]).Draw(t, "labels")
		n := rapid.IntRange(1, 6).Draw(t, "nodes")
		list := make(framework.NodeScoreList, n)
		var nodes []*api.Node
		total := int64(0)
		for i := range n {
			l := map[string]string{}
			for _, k := range keys {
				if rapid.Bool().Draw(t, fmt.Sprint(k, i)) {
					l[k] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, fmt.Sprint(k, "v", i))
				}
			}
			nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("n", i), Labels: l}})
			list[i] = framework.NodeScore{Name: nodes[i].Name, Score: rapid.Int64Range(0, 5).Draw(t, fmt.Sprint("raw", i))}
			total += list[i].Score
		}
		s, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := priorities.NormalizeServiceAntiAffinity(s.View(), labels, list); err != nil {
			t.Fatal(err)
		}
		for i, ns := range list {
			if ns.Score < 0 || ns.Score > framework.MaxNodeScore {
				t.Fatalf("%s: score %d out of range", ns.Name, ns.Score)
			}
			has := 0
			for _, l := range labels {
				if _, ok := nodes[i].Labels[l]; ok {
					has++
				}
			}
			if has == 0 && ns.Score != 0 {
				t.Fatalf("%s has none of %v and scores %d", ns.Name, labels, ns.Score)
			}
			if total == 0 && len(labels) > 0 && has == len(labels) && ns.Score != framework.MaxNodeScore {
				t.Fatalf("%s: no service pods, all labels, score %d", ns.Name, ns.Score)
			}
			for j := range i {
				same := true
				for _, l := range labels {
					vi, oki := nodes[i].Labels[l]
					vj, okj := nodes[j].Labels[l]
					if oki != okj || vi != vj {
						same = false
					}
				}
				if same && list[j].Score != ns.Score {
					t.Fatalf("%s and %s have the same label values and score %d, %d", ns.Name, list[j].Name, ns.Score, list[j].Score)
				}
			}
		}
	})
}

// Score allocates nothing per node once PreScore has run.
func TestServiceAffinityScoreAllocations(t *testing.T) {
	sel := map[string]string{"app": "web"}
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range 20 {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("n", i)}})
		pods = append(pods, &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("p", i), Labels: sel}, Spec: api.PodSpec{NodeName: fmt.Sprint("n", i)}})
	}
	s := snapshot(t, nodes, pods)
	if err := s.AddObject(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.ServiceSpec{Selector: sel}}); err != nil {
		t.Fatal(err)
	}
	f, _ := NewServiceAffinity(&config.ServiceAffinityArgs{AntiAffinityLabelsPreference: []string{"zone"}}, testHandle{s})
	pl := f.(*ServiceAffinity)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "new", Labels: sel}}
	state := framework.NewCycleState()
	all := s.View().Nodes()
	if st := pl.PreScore(context.Background(), state, pod, all); st != nil {
		t.Fatal(st)
	}
	if n := testing.AllocsPerRun(100, func() {
		for _, ni := range all {
			_, _ = pl.Score(context.Background(), state, pod, ni)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
