package conformance

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity/affinitygen"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/taints/taintsgen"
)

// defaultWeight is the plugin's weight in kube-scheduler's default
// profile (as schedkit's framework.DefaultPlugins lists it).
func defaultWeight(name string) int32 {
	for _, p := range framework.DefaultPlugins() {
		if p.Name == name {
			return p.Weight
		}
	}
	return 0
}

// incomingPod draws the pod to place: clustergen's pods, with now and
// then a node name, tolerations for the nodes' taints, a node selector or
// node affinity over the nodes' labels, and the cordon toleration.
func incomingPod(nodes []*api.Node) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := clustergen.Pod().Draw(t, "pod")
		p.Name, p.UID = "incoming", "uid-incoming"
		switch rapid.IntRange(0, 9).Draw(t, "nodeName") {
		case 0:
			p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "nodeIndex")].Name
		case 1:
			p.Spec.NodeName = "no-such-node"
		}
		if rapid.Bool().Draw(t, "tolerations") {
			for range rapid.IntRange(1, 3).Draw(t, "nTolerations") {
				tol := taintsgen.Toleration().Draw(t, "toleration")
				if rapid.Bool().Draw(t, "nodeTaintKey") {
					tol.Key = fmt.Sprintf("example.com/taint-%d", rapid.IntRange(0, 1).Draw(t, "taintIndex"))
					tol.Value = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "value")
				}
				p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
			}
		}
		if rapid.IntRange(0, 9).Draw(t, "cordonToleration") == 0 {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "node.kubernetes.io/unschedulable", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
		}
		zoneTerm := func() api.NodeSelectorTerm {
			return api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{
				Key: clustergen.LabelZone, Operator: rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn}).Draw(t, "op"),
				Values: rapid.SliceOfNDistinct(rapid.SampledFrom(clustergen.Zones), 1, 2, rapid.ID[string]).Draw(t, "zones"),
			}}}
		}
		switch rapid.IntRange(0, 5).Draw(t, "nodeAffinity") {
		case 0:
			p.Spec.NodeSelector = map[string]string{clustergen.LabelZone: rapid.SampledFrom(clustergen.Zones).Draw(t, "zone")}
		case 1:
			na := &api.NodeAffinity{}
			switch rapid.IntRange(0, 5).Draw(t, "required") {
			case 0, 1, 2:
				na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{zoneTerm()}}
			case 3:
				// Possibly invalid terms: the plugin reports them lazily.
				na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
					affinitygen.AnyNodeSelectorTerm().Draw(t, "anyTerm"), zoneTerm()}}
			}
			for range rapid.IntRange(0, 3).Draw(t, "preferred") {
				term := zoneTerm()
				switch rapid.IntRange(0, 7).Draw(t, "arbitraryPreference") {
				case 0, 1:
					term = affinitygen.NodeSelectorTerm().Draw(t, "term")
				case 2:
					term = affinitygen.AnyNodeSelectorTerm().Draw(t, "anyTerm")
				}
				na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
					api.PreferredSchedulingTerm{Weight: rapid.Int32Range(1, 100).Draw(t, "weight"), Preference: term})
			}
			if p.Spec.Affinity == nil {
				p.Spec.Affinity = &api.Affinity{}
			}
			p.Spec.Affinity.NodeAffinity = na
		}
		return p
	})
}

// pluginsInput draws a small cluster (1-8 nodes, some cordoned, 0-12
// bound pods, some with pod (anti)-affinity, Namespace objects with
// labels), a pod to place and runs it through plugins; see
// bendSpreadInput for the topology spread parts.
func pluginsInput(plugins []regression.PluginRef) *rapid.Generator[*regression.PluginsInput] {
	return rapid.Custom(func(t *rapid.T) *regression.PluginsInput {
		c := clustergen.Cluster(rapid.IntRange(1, 8).Draw(t, "nodes"), rapid.IntRange(0, 12).Draw(t, "pods")).Draw(t, "cluster")
		for _, n := range c.Nodes {
			n.Spec.Unschedulable = rapid.IntRange(0, 5).Draw(t, "cordoned") == 0
		}
		for _, p := range c.Pods {
			bendInterPod(t, p, false)
		}
		pod := incomingPod(c.Nodes).Draw(t, "incoming")
		bendInterPod(t, pod, true)
		in := &regression.PluginsInput{Nodes: c.Nodes, Pods: c.Pods, Pod: pod, Plugins: plugins,
			Namespaces: namespaceObjects().Draw(t, "namespaceObjects")}
		bendSpreadInput(t, in)
		return in
	})
}

// TestPlugins runs every plugin of upstream.Plugins alone, and then all of
// them together with their default weights, through schedkit's framework
// and upstream's, and compares each node's filter status (code, reasons,
// plugin) and each feasible node's normalised score per plugin.
func TestPlugins(t *testing.T) {
	var all []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		ref := regression.PluginRef{Name: name, Weight: defaultWeight(name)}
		all = append(all, ref)
		t.Run(name, func(t *testing.T) {
			Property(t, regression.KindPlugins, pluginsInput([]regression.PluginRef{ref}), upFn(upstream.PluginsCycle), nil)
		})
	}
	t.Run("all", func(t *testing.T) {
		Property(t, regression.KindPlugins, pluginsInput(all), upFn(upstream.PluginsCycle), nil)
	})
}

// TestSchedule runs scheduler.Scheduler (every node sampled) on the same
// inputs with all the plugins and checks it picks one of the nodes
// upstream scores best, or, when no node fits, reports upstream's
// rejections in its FitError.
func TestSchedule(t *testing.T) {
	var all []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		all = append(all, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	Property(t, regression.KindSchedule, pluginsInput(all), upFn(upstream.ScheduleCycle), nil)
}

// TestPluginTable checks that every plugin of schedkit's default profile
// that schedkit implements is in the differential run.
func TestPluginTable(t *testing.T) {
	snap, err := regressionSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	var refs []regression.PluginRef
	for _, p := range framework.DefaultPlugins() {
		if p.Name != queuesort.Name && p.Name != defaultbinder.Name {
			refs = append(refs, regression.PluginRef{Name: p.Name})
		}
	}
	prof, err := regression.Profile(snap, refs)
	if err != nil {
		t.Fatal(err)
	}
	table := upstream.PluginNames()
	lists := prof.ListPlugins()
	for _, point := range []string{"Filter", "Score"} {
		for _, name := range lists[point] {
			// DynamicResources has its own differential run
			// (dra_plugin_test.go): its upstream side needs a DRA manager.
			if !slices.Contains(table, name) && name != "DynamicResources" {
				t.Errorf("schedkit implements %s plugin %s, which is not in upstream.Plugins: add it", point, name)
			}
		}
	}
}
