package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// ipaPod builds pods for the InterPodAffinity tables, as upstream's
// st.MakePod does.
type ipaPod struct{ p *api.Pod }

func mkPod(ns, node string, labels map[string]string) *ipaPod {
	return &ipaPod{&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Labels: labels}, Spec: api.PodSpec{NodeName: node}}}
}

func (b *ipaPod) aff() *api.Affinity {
	if b.p.Spec.Affinity == nil {
		b.p.Spec.Affinity = &api.Affinity{}
	}
	return b.p.Spec.Affinity
}

// reqAff adds a required pod affinity term.
func (b *ipaPod) reqAff(t api.PodAffinityTerm) *ipaPod {
	a := b.aff()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, t)
	return b
}

// reqAnti adds a required pod anti-affinity term.
func (b *ipaPod) reqAnti(t api.PodAffinityTerm) *ipaPod {
	a := b.aff()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, t)
	return b
}

// prefAff adds a preferred pod affinity term.
func (b *ipaPod) prefAff(w int32, t api.PodAffinityTerm) *ipaPod {
	a := b.aff()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: t})
	return b
}

// prefAnti adds a preferred pod anti-affinity term.
func (b *ipaPod) prefAnti(w int32, t api.PodAffinityTerm) *ipaPod {
	a := b.aff()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution, api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: t})
	return b
}

func (b *ipaPod) obj() *api.Pod { return b.p }

// term is a pod affinity term over topo with the given selector.
func term(topo string, sel *api.LabelSelector) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topo}
}

func selIn(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpIn, Values: vals}}}
}

func selNotIn(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpNotIn, Values: vals}}}
}

func selExists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

func selReqs(reqs ...api.LabelSelectorRequirement) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: reqs}
}

func ipaNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

// fakeNamespaces is a namespace lister over a list.
type fakeNamespaces []*api.Namespace

func (f fakeNamespaces) Namespace(name string) (*api.Namespace, bool) {
	for _, ns := range f {
		if ns.Name == name {
			return ns, true
		}
	}
	return nil, false
}

func (f fakeNamespaces) Namespaces() []*api.Namespace { return f }

// ipaHandle is a framework.Handle over a snapshot.
type ipaHandle struct{ snap *cluster.Snapshot }

func (h ipaHandle) Snapshot() *cluster.Snapshot { return h.snap }

// ipaSnapshot names unnamed pods and builds a snapshot holding the
// namespaces.
func ipaSnapshot(nodes []*api.Node, pods []*api.Pod, ns fakeNamespaces) (*cluster.Snapshot, error) {
	for i, p := range pods {
		if p.Name == "" {
			p.Name = fmt.Sprintf("pod-%d", i)
		}
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		return nil, err
	}
	for _, n := range ns {
		if err := snap.AddObject(n); err != nil {
			return nil, err
		}
	}
	return snap, nil
}
