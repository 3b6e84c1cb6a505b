package predicates

// Builders for the ported PodTopologySpread tables: the method names are
// those of upstream's scheduler testing wrappers, so that each ported row
// reads like the upstream row it pins.

import (
	"time"

	"github.com/schedkit/schedkit/api"
)

type spreadPodBuilder struct{ p *api.Pod }

func spreadPod() *spreadPodBuilder {
	return &spreadPodBuilder{p: &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default"}}}
}

func (b *spreadPodBuilder) Name(n string) *spreadPodBuilder {
	b.p.Name, b.p.UID = n, "uid-"+n
	return b
}
func (b *spreadPodBuilder) Namespace(ns string) *spreadPodBuilder { b.p.Namespace = ns; return b }
func (b *spreadPodBuilder) Node(n string) *spreadPodBuilder       { b.p.Spec.NodeName = n; return b }
func (b *spreadPodBuilder) Label(k, v string) *spreadPodBuilder {
	if b.p.Labels == nil {
		b.p.Labels = map[string]string{}
	}
	b.p.Labels[k] = v
	return b
}
func (b *spreadPodBuilder) Terminating() *spreadPodBuilder {
	ts := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b.p.DeletionTimestamp = &ts
	return b
}
func (b *spreadPodBuilder) NodeSelector(m map[string]string) *spreadPodBuilder {
	b.p.Spec.NodeSelector = m
	return b
}
func (b *spreadPodBuilder) Toleration(key string) *spreadPodBuilder {
	b.p.Spec.Tolerations = append(b.p.Spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
	return b
}
func (b *spreadPodBuilder) required(op api.NodeSelectorOperator, key string, vals []string) *spreadPodBuilder {
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
func (b *spreadPodBuilder) NodeAffinityIn(key string, vals []string, _ int) *spreadPodBuilder {
	return b.required(api.NodeSelectorOpIn, key, vals)
}
func (b *spreadPodBuilder) NodeAffinityNotIn(key string, vals []string) *spreadPodBuilder {
	return b.required(api.NodeSelectorOpNotIn, key, vals)
}
func (b *spreadPodBuilder) SpreadConstraint(maxSkew int, key string, mode api.UnsatisfiableConstraintAction, sel *api.LabelSelector, minDomains *int32, affinityPolicy, taintsPolicy *api.NodeInclusionPolicy, matchLabelKeys []string) *spreadPodBuilder {
	b.p.Spec.TopologySpreadConstraints = append(b.p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
		MaxSkew: int32(maxSkew), TopologyKey: key, WhenUnsatisfiable: mode, LabelSelector: sel, MinDomains: minDomains,
		NodeAffinityPolicy: affinityPolicy, NodeTaintsPolicy: taintsPolicy, MatchLabelKeys: matchLabelKeys,
	})
	return b
}
func (b *spreadPodBuilder) Obj() *api.Pod { return b.p }

type spreadNodeBuilder struct{ n *api.Node }

func spreadNode() *spreadNodeBuilder { return &spreadNodeBuilder{n: &api.Node{}} }
func (b *spreadNodeBuilder) Name(n string) *spreadNodeBuilder {
	b.n.Name, b.n.UID = n, "uid-"+n
	return b
}
func (b *spreadNodeBuilder) Label(k, v string) *spreadNodeBuilder {
	if b.n.Labels == nil {
		b.n.Labels = map[string]string{}
	}
	b.n.Labels[k] = v
	return b
}
func (b *spreadNodeBuilder) Taints(t []api.Taint) *spreadNodeBuilder { b.n.Spec.Taints = t; return b }
func (b *spreadNodeBuilder) Obj() *api.Node                          { return b.n }

type spreadSelectorBuilder struct{ s *api.LabelSelector }

func spreadSel() *spreadSelectorBuilder { return &spreadSelectorBuilder{s: &api.LabelSelector{}} }
func (b *spreadSelectorBuilder) Exists(k string) *spreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpExists})
	return b
}
func (b *spreadSelectorBuilder) Label(k, v string) *spreadSelectorBuilder {
	if b.s.MatchLabels == nil {
		b.s.MatchLabels = map[string]string{}
	}
	b.s.MatchLabels[k] = v
	return b
}
func (b *spreadSelectorBuilder) In(k string, v []string) *spreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: v})
	return b
}
func (b *spreadSelectorBuilder) NotIn(k string, v []string) *spreadSelectorBuilder {
	b.s.MatchExpressions = append(b.s.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpNotIn, Values: v})
	return b
}
func (b *spreadSelectorBuilder) Obj() *api.LabelSelector { return b.s }

func spreadPtr[T any](v T) *T { return &v }

var (
	ignorePolicy = api.NodeInclusionPolicyIgnore
	honorPolicy  = api.NodeInclusionPolicyHonor
	fooSelector  = spreadSel().Exists("foo").Obj()
	barSelector  = spreadSel().Exists("bar").Obj()
	taintsUnsch  = []api.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule}}
)
