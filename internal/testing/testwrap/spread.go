// Package testwrap holds builders for the tests that port upstream's
// scheduler tables: their method names are those of upstream's scheduler
// testing wrappers (pkg/scheduler/testing), so that each ported row reads
// like the upstream row it pins. Test code only.
package testwrap

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
)

// SpreadPodBuilder builds a pod the way upstream's scheduler testing
// wrapper (st.MakePod) does, so that ported table rows read like upstream's.
type SpreadPodBuilder struct{ p *api.Pod }

// SpreadPod starts a pod in namespace default.
func SpreadPod() *SpreadPodBuilder {
	return &SpreadPodBuilder{p: &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default"}}}
}

// Name is the builder's Name step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Name(n string) *SpreadPodBuilder {
	b.p.Name, b.p.UID = n, "uid-"+n
	return b
}

// Namespace is the builder's Namespace step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Namespace(ns string) *SpreadPodBuilder { b.p.Namespace = ns; return b }

// Node is the builder's Node step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Node(n string) *SpreadPodBuilder { b.p.Spec.NodeName = n; return b }

// Label is the builder's Label step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Label(k, v string) *SpreadPodBuilder {
	if b.p.Labels == nil {
		b.p.Labels = map[string]string{}
	}
	b.p.Labels[k] = v
	return b
}

// Terminating is the builder's Terminating step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Terminating() *SpreadPodBuilder {
	ts := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b.p.DeletionTimestamp = &ts
	return b
}

// NodeSelector is the builder's NodeSelector step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) NodeSelector(m map[string]string) *SpreadPodBuilder {
	b.p.Spec.NodeSelector = m
	return b
}

// Toleration is the builder's Toleration step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Toleration(key string) *SpreadPodBuilder {
	b.p.Spec.Tolerations = append(b.p.Spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
	return b
}

// required is the builder's required step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) required(op api.NodeSelectorOperator, key string, vals []string) *SpreadPodBuilder {
	if b.p.Spec.Affinity == nil {
		b.p.Spec.Affinity = &api.Affinity{}
	}
	if b.p.Spec.Affinity.NodeAffinity == nil {
		b.p.Spec.Affinity.NodeAffinity = &api.NodeAffinity{}
	}
	b.p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
		{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}}}}}
	return b
}

// NodeAffinityIn is the builder's NodeAffinityIn step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) NodeAffinityIn(key string, vals []string, _ int) *SpreadPodBuilder {
	return b.required(api.NodeSelectorOpIn, key, vals)
}

// NodeAffinityNotIn is the builder's NodeAffinityNotIn step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) NodeAffinityNotIn(key string, vals []string) *SpreadPodBuilder {
	return b.required(api.NodeSelectorOpNotIn, key, vals)
}

// SpreadConstraint is the builder's SpreadConstraint step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) SpreadConstraint(maxSkew int, key string, mode api.UnsatisfiableConstraintAction, sel *api.LabelSelector, minDomains *int32, affinityPolicy, taintsPolicy *api.NodeInclusionPolicy, matchLabelKeys []string) *SpreadPodBuilder {
	b.p.Spec.TopologySpreadConstraints = append(b.p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
		MaxSkew: int32(maxSkew), TopologyKey: key, WhenUnsatisfiable: mode, LabelSelector: sel, MinDomains: minDomains,
		NodeAffinityPolicy: affinityPolicy, NodeTaintsPolicy: taintsPolicy, MatchLabelKeys: matchLabelKeys,
	})
	return b
}

// Obj is the builder's Obj step (upstream's wrapper method of that name).
func (b *SpreadPodBuilder) Obj() *api.Pod { return b.p }

// SpreadNodeBuilder builds a node as upstream's st.MakeNode does.
type SpreadNodeBuilder struct{ n *api.Node }

// SpreadNode starts a node.
func SpreadNode() *SpreadNodeBuilder { return &SpreadNodeBuilder{n: &api.Node{}} }

// Name is the builder's Name step (upstream's wrapper method of that name).
func (b *SpreadNodeBuilder) Name(n string) *SpreadNodeBuilder {
	b.n.Name, b.n.UID = n, "uid-"+n
	return b
}

// Label is the builder's Label step (upstream's wrapper method of that name).
func (b *SpreadNodeBuilder) Label(k, v string) *SpreadNodeBuilder {
	if b.n.Labels == nil {
		b.n.Labels = map[string]string{}
	}
	b.n.Labels[k] = v
	return b
}

// Taints is the builder's Taints step (upstream's wrapper method of that name).
func (b *SpreadNodeBuilder) Taints(t []api.Taint) *SpreadNodeBuilder { b.n.Spec.Taints = t; return b }

// Obj is the builder's Obj step (upstream's wrapper method of that name).
func (b *SpreadNodeBuilder) Obj() *api.Node { return b.n }

// SpreadSelectorBuilder builds a label selector as upstream's
// st.MakeLabelSelector does.
type SpreadSelectorBuilder struct{ s *api.LabelSelector }

// SpreadSel starts an empty label selector.
func SpreadSel() *SpreadSelectorBuilder { return &SpreadSelectorBuilder{s: &api.LabelSelector{}} }

// Exists is the builder's Exists step (upstream's wrapper method of that name).
func (b *SpreadSelectorBuilder) Exists(k string) *SpreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpExists})
	return b
}

// Label is the builder's Label step (upstream's wrapper method of that name).
func (b *SpreadSelectorBuilder) Label(k, v string) *SpreadSelectorBuilder {
	if b.s.MatchLabels == nil {
		b.s.MatchLabels = map[string]string{}
	}
	b.s.MatchLabels[k] = v
	return b
}

// In is the builder's In step (upstream's wrapper method of that name).
func (b *SpreadSelectorBuilder) In(k string, v []string) *SpreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: v})
	return b
}

// NotIn is the builder's NotIn step (upstream's wrapper method of that name).
func (b *SpreadSelectorBuilder) NotIn(k string, v []string) *SpreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpNotIn, Values: v})
	return b
}

// Obj is the builder's Obj step (upstream's wrapper method of that name).
func (b *SpreadSelectorBuilder) Obj() *api.LabelSelector { return b.s }

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// SpreadChurnCluster is the cluster of the spread plugins' concurrent-cycle
// tests: 600 nodes (more than two chunks of node pointers) labelled by
// hostname and one of three zones, and 900 pods spread over them, two in
// three labelled foo.
func SpreadChurnCluster() ([]*api.Node, []*api.Pod) {
	var nodes []*api.Node
	var names []string
	for i := range 600 {
		name := fmt.Sprintf("n%d", i)
		b := SpreadNode().Name(name).Label("kubernetes.io/hostname", name).Label("zone", fmt.Sprintf("z%d", i%3))
		nodes, names = append(nodes, b.Obj()), append(names, name)
	}
	var pods []*api.Pod
	for i := range 900 {
		b := SpreadPod().Name(fmt.Sprintf("p%d", i)).Node(names[(i*7)%len(names)])
		if i%3 != 0 {
			b.Label("foo", "")
		}
		pods = append(pods, b.Obj())
	}
	return nodes, pods
}
