package conformance

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity/affinitygen"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// Namespace names pods and terms use; "other" has no Namespace object.
var interPodNamespaces = []string{"default", "team-a", "team-b", "other"}

// namespaceObjects draws Namespace objects for default, team-a and
// team-b (sometimes missing), with labels from a small pool so that
// namespace selectors both match and miss.
func namespaceObjects() *rapid.Generator[[]*api.Namespace] {
	return rapid.Custom(func(t *rapid.T) []*api.Namespace {
		var out []*api.Namespace
		for _, name := range interPodNamespaces[:3] {
			if rapid.IntRange(0, 5).Draw(t, "nsMissing") == 0 {
				continue
			}
			ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
			switch rapid.IntRange(0, 3).Draw(t, "nsLabels") {
			case 1:
				ns.Labels = map[string]string{"env": rapid.SampledFrom([]string{"prod", "dev"}).Draw(t, "env")}
			case 2:
				ns.Labels = map[string]string{"env": rapid.SampledFrom([]string{"prod", "dev"}).Draw(t, "env"), "team": name}
			case 3:
				ns.Labels = map[string]string{}
			}
			out = append(out, ns)
		}
		return out
	})
}

// interPodSelector draws a pod label selector over the app and tier
// labels clustergen's pods carry: mostly matchLabels or an expression,
// sometimes everything, nothing (nil) or an arbitrary (maybe invalid)
// selector.
func interPodSelector(invalid bool) *rapid.Generator[*api.LabelSelector] {
	return rapid.Custom(func(t *rapid.T) *api.LabelSelector {
		apps := []string{"web", "db", "batch"}
		switch rapid.IntRange(0, 11).Draw(t, "selShape") {
		case 0:
			return nil
		case 1:
			return &api.LabelSelector{}
		case 2, 3:
			return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{
				Key: "app", Operator: rapid.SampledFrom([]api.LabelSelectorOperator{api.LabelSelectorOpIn, api.LabelSelectorOpNotIn}).Draw(t, "op"),
				Values: rapid.SliceOfNDistinct(rapid.SampledFrom(apps), 1, 2, rapid.ID[string]).Draw(t, "apps"),
			}}}
		case 4:
			return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{
				Key: rapid.SampledFrom([]string{"app", "tier"}).Draw(t, "key"), Operator: rapid.SampledFrom([]api.LabelSelectorOperator{api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist}).Draw(t, "op"),
			}}}
		case 5:
			if invalid {
				return affinitygen.AnyLabelSelector().Draw(t, "anySelector")
			}
			return affinitygen.LabelSelector().Draw(t, "selector")
		case 6:
			return &api.LabelSelector{MatchLabels: map[string]string{"tier": rapid.SampledFrom([]string{"front", "back"}).Draw(t, "tier")}}
		}
		return &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}}
	})
}

// interPodTerm draws a pod affinity term: a selector, namespaces, a
// namespace selector (nil, {} or over the namespaces' labels), label keys
// (which the scheduler does not read: the API server merges them) and a
// topology key that some or no nodes carry.
func interPodTerm(invalid bool) *rapid.Generator[api.PodAffinityTerm] {
	return rapid.Custom(func(t *rapid.T) api.PodAffinityTerm {
		term := api.PodAffinityTerm{
			LabelSelector: interPodSelector(invalid).Draw(t, "labelSelector"),
			TopologyKey: rapid.SampledFrom([]string{clustergen.LabelHostname, clustergen.LabelHostname, clustergen.LabelZone, clustergen.LabelZone,
				clustergen.LabelRegion, clustergen.LabelRack, "example.com/missing"}).Draw(t, "topologyKey"),
		}
		if rapid.IntRange(0, 3).Draw(t, "hasNamespaces") == 0 {
			term.Namespaces = rapid.SliceOfN(rapid.SampledFrom(interPodNamespaces), 1, 2).Draw(t, "namespaces")
		}
		switch rapid.IntRange(0, 7).Draw(t, "nsSelector") {
		case 0:
			term.NamespaceSelector = &api.LabelSelector{}
		case 1:
			term.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"env": rapid.SampledFrom([]string{"prod", "dev"}).Draw(t, "env")}}
		case 2:
			term.NamespaceSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpExists}}}
		}
		if rapid.IntRange(0, 5).Draw(t, "labelKeys") == 0 {
			term.MatchLabelKeys = []string{"app"}
			term.MismatchLabelKeys = rapid.SliceOfN(rapid.SampledFrom([]string{"tier"}), 0, 1).Draw(t, "mismatch")
		}
		return term
	})
}

// interPodAffinity draws pod affinity and anti-affinity, required and
// preferred, 0-2 terms of each (weights 1-100; sometimes 0 or negative
// when invalid), each list possibly absent.
func interPodAffinity(invalid bool) *rapid.Generator[*api.Affinity] {
	return rapid.Custom(func(t *rapid.T) *api.Affinity {
		terms := func(label string) []api.PodAffinityTerm {
			n := rapid.IntRange(0, 2).Draw(t, label)
			if n == 0 {
				return nil
			}
			out := make([]api.PodAffinityTerm, n)
			for i := range out {
				out[i] = interPodTerm(invalid).Draw(t, label+"Term")
			}
			return out
		}
		weighted := func(label string) []api.WeightedPodAffinityTerm {
			n := rapid.IntRange(0, 2).Draw(t, label)
			if n == 0 {
				return nil
			}
			out := make([]api.WeightedPodAffinityTerm, n)
			for i := range out {
				w := rapid.Int32Range(1, 100).Draw(t, "weight")
				if invalid && rapid.IntRange(0, 9).Draw(t, "oddWeight") == 0 {
					w = rapid.SampledFrom([]int32{0, -5}).Draw(t, "w")
				}
				out[i] = api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: interPodTerm(invalid).Draw(t, label+"Term")}
			}
			return out
		}
		a := &api.Affinity{}
		if rapid.Bool().Draw(t, "podAffinity") {
			a.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms("reqAffinity"),
				PreferredDuringSchedulingIgnoredDuringExecution: weighted("prefAffinity")}
		}
		if rapid.Bool().Draw(t, "podAntiAffinity") {
			a.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms("reqAnti"),
				PreferredDuringSchedulingIgnoredDuringExecution: weighted("prefAnti")}
		}
		return a
	})
}

// bendInterPod gives some pods a tier label and new pod (anti-)affinity
// (keeping their node affinity); the incoming pod's terms may be
// invalid.
func bendInterPod(t *rapid.T, p *api.Pod, incoming bool) {
	if rapid.IntRange(0, 3).Draw(t, "tierLabel") == 0 {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels["tier"] = rapid.SampledFrom([]string{"front", "back"}).Draw(t, "tier")
	}
	if rapid.IntRange(0, 3).Draw(t, "otherNamespace") == 0 {
		p.Namespace = rapid.SampledFrom(interPodNamespaces).Draw(t, "namespace")
	}
	if rapid.IntRange(0, 2).Draw(t, "bendAffinity") != 0 {
		return
	}
	a := interPodAffinity(incoming).Draw(t, "interPod")
	if p.Spec.Affinity != nil {
		a.NodeAffinity = p.Spec.Affinity.NodeAffinity
	}
	p.Spec.Affinity = a
}

// statusLine is a status as a comparable string.
func statusLine(code string, reasons []string) string {
	return code + ": " + strings.Join(reasons, "; ")
}

// extensionsCase is a cycle's PreFilter followed by AddPod of a pod and
// RemovePod of a bound pod, then Filter on every node.
type extensionsCase struct {
	in      *regression.PluginsInput
	added   *api.Pod // bound to its node
	removed *api.Pod // one of in.Pods, or nil
}

func (c extensionsCase) schedkit(t *rapid.T) map[string]string {
	ctx := context.Background()
	snap, err := cluster.NewSnapshot(c.in.Nodes, c.in.Pods)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range c.in.Namespaces {
		if err := snap.AddObject(ns); err != nil {
			t.Fatal(err)
		}
	}
	prof, err := regression.Profile(snap, c.in.Plugins)
	if err != nil {
		t.Fatal(err)
	}
	state := framework.NewCycleState()
	nodes := snap.View().Nodes()
	out := map[string]string{}
	if _, st, _ := prof.RunPreFilterPlugins(ctx, state, c.in.Pod, nodes); !st.IsSuccess() {
		out[""] = statusLine(st.Code().String(), st.Reasons())
		return out
	}
	ni, _ := snap.Get(c.added.Spec.NodeName)
	if st := prof.RunPreFilterExtensionAddPod(ctx, state, c.in.Pod, cluster.NewPodInfo(c.added), ni); !st.IsSuccess() {
		out["addPod"] = st.Message()
	}
	if c.removed != nil {
		ni, _ := snap.Get(c.removed.Spec.NodeName)
		if st := prof.RunPreFilterExtensionRemovePod(ctx, state, c.in.Pod, cluster.NewPodInfo(c.removed), ni); !st.IsSuccess() {
			out["removePod"] = st.Message()
		}
	}
	for _, ni := range nodes {
		st := prof.RunFilterPlugins(ctx, state, c.in.Pod, ni)
		out[ni.Name()] = statusLine(st.Code().String(), st.Reasons())
	}
	return out
}

func (c extensionsCase) upstream(t *rapid.T) map[string]string {
	ctx := context.Background()
	nodes, pods := upstream.ConvertCluster(c.in.Nodes, c.in.Pods)
	var objects []any
	for _, ns := range c.in.Namespaces {
		objects = append(objects, upstream.MustConvert[v1.Namespace](ns))
	}
	f, err := upstream.NewFrameworkObjects(ctx, nodes, pods, objects, c.in.Plugins, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pod := upstream.MustConvert[v1.Pod](c.in.Pod)
	state := schedframework.NewCycleState()
	out := map[string]string{}
	if _, st, _ := f.FW.RunPreFilterPlugins(ctx, state, pod); !st.IsSuccess() {
		out[""] = statusLine(st.Code().String(), st.Reasons())
		return out
	}
	// Upstream's framework records plugin metrics only for sampled
	// cycles; the extensions run either way.
	info := func(p *api.Pod) fwk.PodInfo {
		pi, _ := schedframework.NewPodInfo(upstream.MustConvert[v1.Pod](p))
		return pi
	}
	ni, err := f.Snapshot.NodeInfos().Get(c.added.Spec.NodeName)
	if err != nil {
		t.Fatal(err)
	}
	if st := f.FW.RunPreFilterExtensionAddPod(ctx, state, pod, info(c.added), ni); !st.IsSuccess() {
		out["addPod"] = st.Message()
	}
	if c.removed != nil {
		ni, err := f.Snapshot.NodeInfos().Get(c.removed.Spec.NodeName)
		if err != nil {
			t.Fatal(err)
		}
		if st := f.FW.RunPreFilterExtensionRemovePod(ctx, state, pod, info(c.removed), ni); !st.IsSuccess() {
			out["removePod"] = st.Message()
		}
	}
	for _, ni := range f.NodeInfos() {
		st := f.FW.RunFilterPlugins(ctx, state, pod, ni)
		var reasons []string
		if st != nil {
			reasons = st.Reasons()
		}
		out[ni.Node().Name] = statusLine(st.Code().String(), reasons)
	}
	return out
}

// TestInterPodAffinityExtensions compares InterPodAffinity's AddPod and
// RemovePod with upstream's, as nominated pods and preemption use them:
// PreFilter, AddPod of a new pod on a node, RemovePod of a bound pod,
// then every node's Filter status. (Not a fixture kind: a disagreement
// is reported with its input only.)
func TestInterPodAffinityExtensions(t *testing.T) {
	plugins := []regression.PluginRef{{Name: "InterPodAffinity", Weight: 2}}
	rapid.Check(t, func(t *rapid.T) {
		in := pluginsInput(plugins).Draw(t, "input")
		added := clustergen.Pod().Draw(t, "added")
		bendInterPod(t, added, false)
		added.Name, added.UID = "added", "uid-added"
		added.Spec.NodeName = rapid.SampledFrom(in.Nodes).Draw(t, "addedNode").Name
		c := extensionsCase{in: in, added: added}
		if len(in.Pods) > 0 && rapid.Bool().Draw(t, "remove") {
			c.removed = rapid.SampledFrom(in.Pods).Draw(t, "removed")
		}
		sk, us := c.schedkit(t), c.upstream(t)
		if !reflect.DeepEqual(sk, us) {
			b, _ := json.Marshal(struct {
				In      *regression.PluginsInput `json:"in"`
				Added   *api.Pod                 `json:"added"`
				Removed *api.Pod                 `json:"removed,omitempty"`
			}{in, added, c.removed})
			t.Fatalf("schedkit and upstream disagree after AddPod/RemovePod\ninput: %s\nschedkit: %v\nupstream: %v", b, sk, us)
		}
	})
}
