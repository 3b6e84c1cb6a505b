package scheduler

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// applied is w with sg applied from its exported fields alone: the
// pod's requests, tolerations and host ports, the node's labels and
// cordon, the victims gone.
func (w whatIfWorld) applied(sg Suggestion) whatIfWorld {
	out := whatIfWorld{pod: w.pod.DeepCopy()}
	for _, n := range w.nodes {
		if n.Name == sg.Node {
			n = n.DeepCopy()
			switch sg.Kind {
			case ChangeNodeLabels:
				for k, v := range sg.Labels {
					n.Labels[k] = v
				}
				for _, k := range sg.RemoveLabels {
					delete(n.Labels, k)
				}
			case ChangeUncordon:
				n.Spec.Unschedulable = false
			}
		}
		out.nodes = append(out.nodes, n)
	}
	for _, b := range w.bound {
		if sg.Kind == ChangeEvict && slices.ContainsFunc(sg.Victims, func(v *api.Pod) bool { return v.Name == b.Name }) {
			continue
		}
		out.bound = append(out.bound, b)
	}
	for _, n := range sg.Spread {
		for i := range n.Pods {
			p := makePod(fmt.Sprintf("filler-%s-%d", n.Value, i))
			p.Labels = w.pod.Labels
			p.Spec.NodeName = n.Node
			out.bound = append(out.bound, p)
		}
	}
	c := &out.pod.Spec.Containers[0]
	switch sg.Kind {
	case ChangeRequests:
		for k, v := range sg.Requests {
			c.Resources.Requests[k] = v
		}
	case ChangeTolerations:
		out.pod.Spec.Tolerations = append(out.pod.Spec.Tolerations, sg.Tolerations...)
	case ChangeHostPorts:
		for i := range c.Ports {
			for _, d := range sg.HostPorts {
				if c.Ports[i].HostPort == d.HostPort {
					c.Ports[i].HostPort = 0
				}
			}
		}
	}
	return out
}

// feasibleIn reports whether a fresh scheduler over w finds node
// feasible for w's pod (Explain filters every node).
func feasibleIn(t *rapid.T, w whatIfWorld, node string) bool {
	s := w.scheduler(t)
	defer s.Close()
	ex, err := s.Explain(context.Background(), w.pod)
	if err != nil {
		t.Fatal(err)
	}
	for _, ne := range ex.Nodes {
		if ne.Name == node {
			return ne.Status.IsSuccess()
		}
	}
	return false
}

// TestPropertyWhyNotSuggestionsWork: for a pod that fits nowhere, every
// suggestion, applied to the cluster from its exported fields alone,
// makes its node feasible in an independent cycle; Best is the cheapest;
// every rejected node counts in the reasons.
func TestPropertyWhyNotSuggestionsWork(t *testing.T) {
	found, kinds := 0, map[ChangeKind]int{}
	rapid.Check(t, func(t *rapid.T) {
		w := genWhatIfWorld(t)
		s := w.scheduler(t)
		defer s.Close()
		ex, err := s.ExplainWhyNot(context.Background(), w.pod)
		if err != nil {
			t.Fatal(err)
		}
		// The sandbox, re-running PreFilter on the changed cluster,
		// agrees with the incremental verification.
		sb := w.scheduler(t, func(o *options) { o.sandboxOnly = true })
		defer sb.Close()
		exSandbox, err := sb.ExplainWhyNot(context.Background(), w.pod)
		if err != nil {
			t.Fatal(err)
		}
		if ex.WhyNot != nil && !cmp.Equal(texts(ex.WhyNot), texts(exSandbox.WhyNot)) {
			t.Fatalf("incremental and sandbox verification differ: %s", cmp.Diff(texts(ex.WhyNot), texts(exSandbox.WhyNot)))
		}
		if ex.Node != "" {
			if ex.WhyNot != nil {
				t.Fatalf("placed pod has a WhyNot")
			}
			return
		}
		wn := ex.WhyNot
		if wn == nil {
			t.Fatalf("unschedulable pod without WhyNot: %v", ex.Err)
		}
		if len(wn.Reasons) == 0 {
			t.Fatalf("no reasons for %v", ex.Err)
		}
		for _, sg := range wn.Nodes {
			found++
			kinds[sg.Kind]++
			if !feasibleIn(t, w.applied(sg), sg.Node) {
				t.Fatalf("suggestion %q does not make %s feasible", sg.Text, sg.Node)
			}
			if wn.Best == nil || wn.Best.Cost > sg.Cost {
				t.Fatalf("best %v is not the cheapest (%q costs %d)", wn.Best, sg.Text, sg.Cost)
			}
		}
	})
	if found == 0 {
		t.Error("no suggestion was ever made")
	}
	t.Logf("suggestions by kind: %v", kinds)
}

// TestWhyNotTable pins the suggestions on a small cluster: a node short
// of cpu, a tainted one, a cordoned one, and one both tainted and short,
// which no single change fixes (tolerating its taint fails verification).
func TestWhyNotTable(t *testing.T) {
	node := func(name string, cpu int) *api.Node {
		n := makeNodes(name)[0]
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.NewMilliQuantity(int64(cpu)*1000, quantity.DecimalSI),
			api.ResourceMemory: quantity.NewQuantity(8<<30, quantity.BinarySI), api.ResourcePods: quantity.NewQuantity(10, quantity.DecimalSI)}
		return n
	}
	gpu := api.Taint{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}
	short, tainted, cordoned, both := node("short", 2), node("tainted", 4), node("cordoned", 4), node("both", 1)
	tainted.Spec.Taints = []api.Taint{gpu}
	both.Spec.Taints = []api.Taint{gpu}
	cordoned.Spec.Unschedulable = true
	w := whatIfWorld{nodes: []*api.Node{short, tainted, cordoned, both}, pod: whatIfPod("p", 3000, 1)}
	s := w.scheduler(t)
	defer s.Close()
	ex, err := s.ExplainWhyNot(context.Background(), w.pod)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sg := range ex.WhyNot.Nodes {
		got[sg.Node] = string(sg.Kind) + ": " + sg.Text
	}
	want := map[string]string{
		"short":    "requests: lower the request of cpu to 2 (from 3)",
		"tainted":  "tolerations: tolerate taint dedicated=gpu:NoSchedule",
		"cordoned": "uncordon: uncordon node cordoned",
	}
	if !cmp.Equal(got, want) {
		t.Errorf("suggestions: %s", cmp.Diff(want, got))
	}
	if b := ex.WhyNot.Best; b == nil || b.Node != "short" {
		t.Errorf("best %+v, want the request on short", b)
	}
	if got, want := ex.WhyNot.Summary(), "taint dedicated=gpu:NoSchedule on 2 nodes, cpu exhausted on 1 node, node(s) were unschedulable on 1 node"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestWhyNotSpread: a node whose zone holds two matching pods while the
// other zone holds none breaks maxSkew 1; the other zone needs two more.
func TestWhyNotSpread(t *testing.T) {
	a, b := makeNodes("a1", "b1")[0], makeNodes("b1")[0]
	for n, zone := range map[*api.Node]string{a: "a", b: "b"} {
		n.Labels["topology.kubernetes.io/zone"] = zone
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.MustParse("4"), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("10")}
	}
	b.Status.Allocatable[api.ResourceCPU] = quantity.MustParse("1")
	var bound []*api.Pod
	for i := range 2 {
		p := whatIfPod(fmt.Sprintf("web-%d", i), 100, 0)
		p.Labels, p.Spec.NodeName = map[string]string{"app": "web"}, "a1"
		bound = append(bound, p)
	}
	pod := whatIfPod("p", 2000, 0)
	pod.Labels = map[string]string{"app": "web"}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone",
		WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	w := whatIfWorld{nodes: []*api.Node{a, b}, bound: bound, pod: pod}
	s := w.scheduler(t)
	defer s.Close()
	ex, err := s.ExplainWhyNot(context.Background(), pod)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sg := range ex.WhyNot.Nodes {
		got[sg.Node] = sg.Text
	}
	want := map[string]string{
		"a1": "topology spread: topology.kubernetes.io/zone=b needs 2 more matching pods",
		"b1": "lower the request of cpu to 1 (from 2)",
	}
	if !cmp.Equal(got, want) {
		t.Errorf("suggestions: %s", cmp.Diff(want, got))
	}
}

// TestWhyNotVolumes: a node outside the zone of the pod's bound volume
// gets the zone label the volume has; a node the volume's node affinity
// excludes gets the label the affinity needs. Both are verified.
func TestWhyNotVolumes(t *testing.T) {
	for _, tc := range []struct {
		name string
		pv   func(*api.PersistentVolume)
		want string
	}{
		{"zone", func(pv *api.PersistentVolume) { pv.Labels = map[string]string{"topology.kubernetes.io/zone": "a"} },
			"label node b1 topology.kubernetes.io/zone=a (where volume pv1 is)"},
		{"node affinity", func(pv *api.PersistentVolume) {
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: api.NodeSelectorOpIn, Values: []string{"a"}}}}}}}
		}, "label node b1 topology.kubernetes.io/zone=a (where volume pv1 is)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := makeNodes("a1")[0], makeNodes("b1")[0]
			for n, zone := range map[*api.Node]string{a: "a", b: "b"} {
				n.Labels["topology.kubernetes.io/zone"] = zone
				n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.MustParse("4"), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("10")}
			}
			a.Status.Allocatable[api.ResourceCPU] = quantity.MustParse("1")
			pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv1"}}
			pv.Spec.Capacity = api.ResourceList{api.ResourceStorage: quantity.MustParse("1Gi")}
			pv.Spec.ClaimRef = &api.ObjectReference{Namespace: "default", Name: "data"}
			tc.pv(pv)
			pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default", Annotations: map[string]string{api.AnnBindCompleted: "yes"}}}
			pvc.Spec.VolumeName, pvc.Status.Phase = "pv1", api.ClaimBound
			pod := whatIfPod("p", 2000, 0)
			pod.Spec.Volumes = []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}
			w := whatIfWorld{nodes: []*api.Node{a, b}, pod: pod}
			s := w.scheduler(t)
			defer s.Close()
			if err := s.Snapshot().AddObjects(pv, pvc); err != nil {
				t.Fatal(err)
			}
			ex, err := s.ExplainWhyNot(context.Background(), pod)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, sg := range ex.WhyNot.Nodes {
				got[sg.Node] = sg.Text
			}
			want := map[string]string{"a1": "lower the request of cpu to 1 (from 2)", "b1": tc.want}
			if !cmp.Equal(got, want) {
				t.Errorf("suggestions: %s\n%v", cmp.Diff(want, got), ex.Err)
			}
		})
	}
}

func texts(w *WhyNot) []string {
	var out []string
	for _, sg := range w.Nodes {
		out = append(out, sg.Node+": "+sg.Text)
	}
	return out
}

// TestWhyNotSandboxBound: label changes PreFilter reads (the pod spreads
// and selects on the label) are verified on a copy of the cluster at most
// MaxSandboxChecks times; the rest are counted, not shown.
func TestWhyNotSandboxBound(t *testing.T) {
	var nodes []*api.Node
	for i := range MaxSandboxChecks + 6 {
		n := makeNodes(fmt.Sprintf("n%03d", i))[0]
		n.Labels["topology.kubernetes.io/zone"] = "z"
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.MustParse("4"), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("10")}
		nodes = append(nodes, n)
	}
	pod := whatIfPod("p", 100, 0)
	pod.Labels = map[string]string{"app": "web"}
	pod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone",
		WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	s := whatIfWorld{nodes: nodes, pod: pod}.scheduler(t)
	defer s.Close()
	ex, err := s.ExplainWhyNot(context.Background(), pod)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(ex.WhyNot.Nodes), MaxSandboxChecks; got != want {
		t.Errorf("%d suggestions, want %d", got, want)
	}
	if got, want := ex.WhyNot.NotVerified, 6; got != want {
		t.Errorf("NotVerified %d, want %d", got, want)
	}
}

// TestPropertyWhyNotLeavesSchedulerAsExplain: ExplainWhyNot leaves the
// scheduler where Explain leaves it: the same start index, random source
// and snapshot generation.
func TestPropertyWhyNotLeavesSchedulerAsExplain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWhatIfWorld(t)
		a, b := w.scheduler(t), w.scheduler(t)
		defer a.Close()
		defer b.Close()
		ctx := context.Background()
		if _, err := a.Explain(ctx, w.pod); err != nil {
			t.Fatal(err)
		}
		if _, err := b.ExplainWhyNot(ctx, w.pod); err != nil {
			t.Fatal(err)
		}
		if a.nextStartNodeIndex != b.nextStartNodeIndex || *a.pcg != *b.pcg || a.snapshot.Generation() != b.snapshot.Generation() {
			t.Fatalf("start %d/%d, generation %d/%d", a.nextStartNodeIndex, b.nextStartNodeIndex, a.snapshot.Generation(), b.snapshot.Generation())
		}
	})
}
