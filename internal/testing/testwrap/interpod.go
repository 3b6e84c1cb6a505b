package testwrap

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// IPAPod builds pods for the InterPodAffinity tables, as upstream's
// st.MakePod does.
type IPAPod struct{ p *api.Pod }

// MkPod starts a pod in namespace ns on node ("" for a pending pod)
// with labels.
func MkPod(ns, node string, labels map[string]string) *IPAPod {
	return &IPAPod{&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Labels: labels}, Spec: api.PodSpec{NodeName: node}}}
}

func (b *IPAPod) affinity() *api.Affinity {
	if b.p.Spec.Affinity == nil {
		b.p.Spec.Affinity = &api.Affinity{}
	}
	return b.p.Spec.Affinity
}

// reqAff adds a required pod affinity term.
func (b *IPAPod) ReqAff(t api.PodAffinityTerm) *IPAPod {
	a := b.affinity()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, t)
	return b
}

// reqAnti adds a required pod anti-affinity term.
func (b *IPAPod) ReqAnti(t api.PodAffinityTerm) *IPAPod {
	a := b.affinity()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, t)
	return b
}

// prefAff adds a preferred pod affinity term.
func (b *IPAPod) PrefAff(w int32, t api.PodAffinityTerm) *IPAPod {
	a := b.affinity()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: t})
	return b
}

// prefAnti adds a preferred pod anti-affinity term.
func (b *IPAPod) PrefAnti(w int32, t api.PodAffinityTerm) *IPAPod {
	a := b.affinity()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution, api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: t})
	return b
}

// Obj returns the pod built.
func (b *IPAPod) Obj() *api.Pod { return b.p }

// Term is a pod affinity term over topo with the given selector.
func Term(topo string, sel *api.LabelSelector) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topo}
}

// SelIn selects pods whose key is one of vals.
func SelIn(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpIn, Values: vals}}}
}

// SelNotIn selects pods whose key is none of vals.
func SelNotIn(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpNotIn, Values: vals}}}
}

// SelExists selects pods that have key.
func SelExists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

// SelReqs is a selector of the requirements.
func SelReqs(reqs ...api.LabelSelectorRequirement) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: reqs}
}

// IPANode is a node with labels.
func IPANode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

// FakeNamespaces is a namespace lister over a list.
type FakeNamespaces []*api.Namespace

// Namespace returns the named namespace.
func (f FakeNamespaces) Namespace(name string) (*api.Namespace, bool) {
	for _, ns := range f {
		if ns.Name == name {
			return ns, true
		}
	}
	return nil, false
}

// Namespaces returns them all.
func (f FakeNamespaces) Namespaces() []*api.Namespace { return f }

// IPAHandle is a framework.Handle over a snapshot.
type IPAHandle struct{ Snap *cluster.Snapshot }

// Snapshot returns the snapshot.
func (h IPAHandle) Snapshot() *cluster.Snapshot { return h.Snap }

// IPASnapshot names unnamed pods and builds a snapshot holding the
// namespaces.
func IPASnapshot(nodes []*api.Node, pods []*api.Pod, ns FakeNamespaces) (*cluster.Snapshot, error) {
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
