package legacy

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

func saNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

func saPod(name, ns, node string, labels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: labels}, Spec: api.PodSpec{NodeName: node}}
}

func saService(name, ns string, selector map[string]string) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}, Spec: api.ServiceSpec{Selector: selector}}
}

func newServiceAffinityPlugin(t interface{ Fatal(...any) }, s *cluster.Snapshot, labels []string) *ServiceAffinity {
	pl, err := NewServiceAffinity(&config.ServiceAffinityArgs{AffinityLabels: labels}, storageHandle{s})
	if err != nil {
		t.Fatal(err)
	}
	return pl.(*ServiceAffinity)
}

func runServiceAffinity(t testing.TB, pl *ServiceAffinity, s *cluster.Snapshot, pod *api.Pod, node string) *framework.Status {
	t.Helper()
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(context.Background(), state, pod, s.View().Nodes()); !st.IsSuccess() && !st.IsSkip() {
		t.Fatalf("PreFilter: %v", st)
	}
	ni, ok := s.View().Get(node)
	if !ok {
		t.Fatalf("node %s not found", node)
	}
	return pl.Filter(context.Background(), state, pod, ni)
}

// upstream (v1.22): serviceaffinity TestServiceAffinity. Pods and
// services have names here (the snapshot and the object store key them).
func TestServiceAffinity(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	labels1 := map[string]string{"region": "r1", "zone": "z11"}
	labels2 := map[string]string{"region": "r1", "zone": "z12"}
	labels3 := map[string]string{"region": "r2", "zone": "z21"}
	labels4 := map[string]string{"region": "r2", "zone": "z22"}
	nodes := func() []*api.Node {
		return []*api.Node{saNode("machine1", labels1), saNode("machine2", labels2), saNode("machine3", labels3),
			saNode("machine4", labels4), saNode("machine5", labels4)}
	}
	withSelector := func(p *api.Pod, sel map[string]string) *api.Pod { p.Spec.NodeSelector = sel; return p }
	tests := []struct {
		name     string
		pod      *api.Pod
		pods     []*api.Pod
		services []*api.Service
		node     string
		labels   []string
		want     framework.Code
	}{
		{name: "nothing scheduled", pod: saPod("p", "", "", nil), node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "pod with region label match", pod: withSelector(saPod("p", "", "", nil), map[string]string{"region": "r1"}),
			node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "pod with region label mismatch", pod: withSelector(saPod("p", "", "", nil), map[string]string{"region": "r2"}),
			node: "machine1", labels: []string{"region"}, want: framework.Unschedulable},
		{name: "service pod on same node", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine1", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "service pod on different node, region match", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine2", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "service pod on different node, region mismatch", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine3", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Unschedulable},
		{name: "service in different namespace, region mismatch", pod: saPod("p", "ns1", "", selector), pods: []*api.Pod{saPod("e", "ns1", "machine3", selector)},
			services: []*api.Service{saService("s", "ns2", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "pod in different namespace, region mismatch", pod: saPod("p", "ns1", "", selector), pods: []*api.Pod{saPod("e", "ns2", "machine3", selector)},
			services: []*api.Service{saService("s", "ns1", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "service and pod in same namespace, region mismatch", pod: saPod("p", "ns1", "", selector), pods: []*api.Pod{saPod("e", "ns1", "machine3", selector)},
			services: []*api.Service{saService("s", "ns1", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Unschedulable},
		{name: "service pod on different node, multiple labels, not all match", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine2", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine1", labels: []string{"region", "zone"}, want: framework.Unschedulable},
		{name: "service pod on different node, multiple labels, all match", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine5", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine4", labels: []string{"region", "zone"}, want: framework.Success},

		// schedkit: the rest pin v1.22's code paths the table above
		// does not reach.
		{name: "node selector wins over the service pod's node", pod: withSelector(saPod("p", "", "", selector), map[string]string{"region": "r1"}),
			pods: []*api.Pod{saPod("e", "", "machine3", selector)}, services: []*api.Service{saService("s", "", selector)},
			node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "label set by the node selector, the other backfilled", pod: withSelector(saPod("p", "", "", selector), map[string]string{"region": "r1"}),
			pods: []*api.Pod{saPod("e", "", "machine2", selector)}, services: []*api.Service{saService("s", "", selector)},
			node: "machine1", labels: []string{"region", "zone"}, want: framework.Unschedulable},
		{name: "service with a nil selector selects nothing", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine3", selector)},
			services: []*api.Service{saService("s", "", nil)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
		{name: "service with an empty selector selects everything", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "machine3", selector)},
			services: []*api.Service{saService("s", "", map[string]string{})}, node: "machine1", labels: []string{"region"}, want: framework.Unschedulable},
		{name: "first pod by node order decides", pod: saPod("p", "", "", selector),
			pods:     []*api.Pod{saPod("e1", "", "machine3", selector), saPod("e2", "", "machine1", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine2", labels: []string{"region"}, want: framework.Success},
		{name: "pod without labels: every pod of the namespace is a peer", pod: saPod("p", "", "", nil),
			pods:     []*api.Pod{saPod("e", "", "machine3", map[string]string{"other": "x"})},
			services: []*api.Service{saService("s", "", map[string]string{})}, node: "machine1", labels: []string{"region"}, want: framework.Unschedulable},
		{name: "peer's node lacks the label: not checked", pod: saPod("p", "", "", selector), pods: []*api.Pod{saPod("e", "", "bare", selector)},
			services: []*api.Service{saService("s", "", selector)}, node: "machine1", labels: []string{"region"}, want: framework.Success},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs := make([]any, 0, len(tc.services))
			for _, s := range tc.services {
				objs = append(objs, s)
			}
			s := storageSnap(t, append(nodes(), saNode("bare", nil)), tc.pods, objs...)
			pl := newServiceAffinityPlugin(t, s, tc.labels)
			st := runServiceAffinity(t, pl, s, tc.pod, tc.node)
			if st.Code() != tc.want {
				t.Fatalf("status %v (%v), want %v", st.Code(), st, tc.want)
			}
			if tc.want == framework.Unschedulable && st.Message() != predicates.ErrReasonServiceAffinityViolated {
				t.Errorf("message %q", st.Message())
			}
			ni, _ := s.View().Get(tc.node)
			if got := predicates.ServiceAffinity(s.View(), tc.labels, tc.pod, ni); got.Code() != tc.want {
				t.Errorf("plain function: %v, want %v", got, tc.want)
			}
		})
	}
}

func peerNames(s *predicates.ServiceAffinityState) []string {
	var out []string
	for pod, node := range s.Peers() {
		out = append(out, pod.Name+"@"+node)
	}
	slices.Sort(out)
	return out
}

// upstream (v1.22): serviceaffinity TestPreFilterStateAddRemovePod.
func TestServiceAffinityAddRemovePod(t *testing.T) {
	label1 := map[string]string{"region": "r1", "zone": "z11"}
	label2 := map[string]string{"region": "r1", "zone": "z12"}
	label3 := map[string]string{"region": "r2", "zone": "z21"}
	selector1 := map[string]string{"foo": "bar"}
	tests := []struct {
		name     string
		services []*api.Service
	}{
		{name: "no anti-affinity or service affinity exist"},
		{name: "metadata service-affinity data are updated correctly after adding and removing a pod", services: []*api.Service{saService("s", "", selector1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []*api.Node{saNode("nodeA", label1), saNode("nodeB", label2), saNode("nodeC", label3)}
			pending := saPod("pending", "", "", selector1)
			existing := []*api.Pod{saPod("p1", "", "nodeA", selector1), saPod("p2", "", "nodeC", nil)}
			added := saPod("addedPod", "", "nodeB", selector1)
			var objs []any
			for _, s := range tc.services {
				objs = append(objs, s)
			}
			stateOf := func(pods []*api.Pod) (*ServiceAffinity, *cluster.Snapshot, *framework.CycleState, *predicates.ServiceAffinityState) {
				s := storageSnap(t, nodes, pods, objs...)
				pl := newServiceAffinityPlugin(t, s, []string{"region", "zone"})
				cs := framework.NewCycleState()
				if _, st := pl.PreFilter(context.Background(), cs, pending, nil); !st.IsSuccess() {
					t.Fatal(st)
				}
				st, status := readServiceAffinityState(cs)
				if status != nil {
					t.Fatal(status)
				}
				return pl, s, cs, st
			}
			_, _, _, all := stateOf(append(slices.Clone(existing), added))
			pl, s, cs, st := stateOf(existing)
			orig := peerNames(st.Clone().(*predicates.ServiceAffinityState))
			ni, _ := s.View().Get("nodeB")
			if status := pl.AddPod(context.Background(), cs, pending, cluster.NewPodInfo(added), ni); status != nil {
				t.Fatal(status)
			}
			if got, want := peerNames(st), peerNames(all); !slices.Equal(got, want) {
				t.Errorf("after AddPod %v, want %v", got, want)
			}
			if status := pl.RemovePod(context.Background(), cs, pending, cluster.NewPodInfo(added), ni); status != nil {
				t.Fatal(status)
			}
			if got := peerNames(st); !slices.Equal(got, orig) {
				t.Errorf("after RemovePod %v, want %v", got, orig)
			}
		})
	}
}

// upstream (v1.22): serviceaffinity TestPreFilterDisabled.
func TestServiceAffinityPreFilterDisabled(t *testing.T) {
	s := storageSnap(t, []*api.Node{saNode("n", nil)}, nil)
	pl := newServiceAffinityPlugin(t, s, []string{"region"})
	ni, _ := s.View().Get("n")
	got := pl.Filter(context.Background(), framework.NewCycleState(), saPod("p", "", "", nil), ni)
	want := framework.AsStatus(fmt.Errorf(`error reading "PreFilterServiceAffinity" from cycleState: not found`))
	if !got.Equal(want) || got.Message() != want.Message() {
		t.Errorf("status %v, want %v", got, want)
	}
}

// Without affinity labels the filter is off: PreFilter skips, there are
// no extensions, Filter passes.
func TestServiceAffinityNoLabels(t *testing.T) {
	s := storageSnap(t, []*api.Node{saNode("n", nil)}, nil)
	pl := newServiceAffinityPlugin(t, s, nil)
	if _, st := pl.PreFilter(context.Background(), framework.NewCycleState(), saPod("p", "", "", nil), nil); !st.IsSkip() {
		t.Errorf("PreFilter %v, want Skip", st)
	}
	if pl.PreFilterExtensions() != nil {
		t.Error("extensions without labels")
	}
	ni, _ := s.View().Get("n")
	if st := pl.Filter(context.Background(), framework.NewCycleState(), saPod("p", "", "", nil), ni); st != nil {
		t.Errorf("Filter %v", st)
	}
}

// As upstream's NodeInfo.FilterOutPods: a peer on the filtered node that
// the node no longer holds (preemption removed it from a copy) is not
// the first peer, and the next one decides.
func TestServiceAffinityRemovedFromNodeCopy(t *testing.T) {
	sel := map[string]string{"app": "web"}
	nodes := []*api.Node{saNode("a", map[string]string{"zone": "1"}), saNode("b", map[string]string{"zone": "2"})}
	pods := []*api.Pod{saPod("on-a", "", "a", sel), saPod("on-b", "", "b", sel)}
	s := storageSnap(t, nodes, pods, saService("web", "", sel))
	pl := newServiceAffinityPlugin(t, s, []string{"zone"})
	pod := saPod("p", "", "", sel)
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(context.Background(), state, pod, nil); st != nil {
		t.Fatal(st)
	}
	a, _ := s.View().Get("a")
	if st := pl.Filter(context.Background(), state, pod, a); st != nil {
		t.Fatalf("node a with its pod: %v", st)
	}
	b, _ := s.View().Get("b")
	if st := pl.Filter(context.Background(), state, pod, b); st.Code() != framework.Unschedulable {
		t.Fatalf("node b: %v, want Unschedulable (zone of a's pod)", st)
	}
	c := a.Clone()
	if err := c.RemovePod(pods[0]); err != nil {
		t.Fatal(err)
	}
	if st := pl.Filter(context.Background(), state, pod, c); st.Code() != framework.Unschedulable {
		t.Errorf("node a without its pod: %v, want Unschedulable (zone of b's pod)", st)
	}
}

// A nominated pod has no spec.nodeName; when it is the only peer,
// v1.22 looked up the node "" and failed with an error, and so does
// schedkit.
func TestServiceAffinityNominatedPeer(t *testing.T) {
	sel := map[string]string{"app": "web"}
	s := storageSnap(t, []*api.Node{saNode("a", map[string]string{"zone": "1"})}, nil, saService("web", "", sel))
	pl := newServiceAffinityPlugin(t, s, []string{"zone"})
	pod := saPod("p", "", "", sel)
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(context.Background(), state, pod, nil); st != nil {
		t.Fatal(st)
	}
	a, _ := s.View().Get("a")
	nominated := cluster.NewPodInfo(saPod("nominated", "", "", sel))
	with := a.Clone()
	with.AddPod(nominated)
	if st := pl.AddPod(context.Background(), state, pod, nominated, with); st != nil {
		t.Fatal(st)
	}
	if st := pl.Filter(context.Background(), state, pod, with); !st.IsError() || st.Message() != "node not found" {
		t.Errorf("status %v, want the error node not found", st)
	}
}

// Properties: adding a pod then removing it leaves every node's verdict
// as it was; the plugin and the plain function agree.
func TestServiceAffinityProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zones := []string{"1", "2", "3"}
		apps := []string{"a", "b"}
		nNodes := rapid.IntRange(1, 4).Draw(t, "nodes")
		var nodes []*api.Node
		for i := range nNodes {
			l := map[string]string{}
			if rapid.Bool().Draw(t, fmt.Sprint("zoned", i)) {
				l["zone"] = rapid.SampledFrom(zones).Draw(t, fmt.Sprint("zone", i))
			}
			nodes = append(nodes, saNode(fmt.Sprint("n", i), l))
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 5).Draw(t, "pods") {
			node := nodes[rapid.IntRange(0, nNodes-1).Draw(t, fmt.Sprint("on", i))].Name
			pods = append(pods, saPod(fmt.Sprint("e", i), "", node, map[string]string{"app": rapid.SampledFrom(apps).Draw(t, fmt.Sprint("app", i))}))
		}
		var objs []any
		if rapid.Bool().Draw(t, "service") {
			objs = append(objs, saService("svc", "", map[string]string{"app": "a"}))
		}
		s := storageSnap(t, nodes, pods, objs...)
		pl := newServiceAffinityPlugin(t, s, []string{"zone"})
		pod := saPod("p", "", "", map[string]string{"app": "a"})
		state := framework.NewCycleState()
		if _, st := pl.PreFilter(context.Background(), state, pod, nil); st != nil {
			t.Fatal(st)
		}
		before := make([]*framework.Status, nNodes)
		for i, ni := range s.View().Nodes() {
			before[i] = pl.Filter(context.Background(), state, pod, ni)
			if plain := predicates.ServiceAffinity(s.View(), []string{"zone"}, pod, ni); !plain.Equal(before[i]) {
				t.Fatalf("node %s: plain %v, plugin %v", ni.Name(), plain, before[i])
			}
		}
		host := s.View().Nodes()[rapid.IntRange(0, nNodes-1).Draw(t, "host")]
		extra := cluster.NewPodInfo(saPod("extra", "", host.Name(), map[string]string{"app": "a"}))
		if st := pl.AddPod(context.Background(), state, pod, extra, host); st != nil {
			t.Fatal(st)
		}
		if st := pl.RemovePod(context.Background(), state, pod, extra, host); st != nil {
			t.Fatal(st)
		}
		for i, ni := range s.View().Nodes() {
			if after := pl.Filter(context.Background(), state, pod, ni); !after.Equal(before[i]) {
				t.Fatalf("node %s: %v after add and remove, %v before", ni.Name(), after, before[i])
			}
		}
	})
}

// Filter allocates nothing per node once PreFilter has run.
func TestServiceAffinityFilterAllocations(t *testing.T) {
	sel := map[string]string{"app": "web"}
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range 20 {
		nodes = append(nodes, saNode(fmt.Sprint("n", i), map[string]string{"zone": fmt.Sprint(i % 3)}))
		pods = append(pods, saPod(fmt.Sprint("p", i), "", fmt.Sprint("n", i), sel))
	}
	s := storageSnap(t, nodes, pods, saService("web", "", sel))
	pl := newServiceAffinityPlugin(t, s, []string{"zone"})
	pod := saPod("new", "", "", sel)
	state := framework.NewCycleState()
	if _, st := pl.PreFilter(context.Background(), state, pod, nil); st != nil {
		t.Fatal(st)
	}
	all := s.View().Nodes()
	if n := testing.AllocsPerRun(100, func() {
		for _, ni := range all {
			_ = pl.Filter(context.Background(), state, pod, ni)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
