package predicates

import (
	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// Reasons of the NodeAffinity filter, as upstream's.
const (
	// ErrReasonNodeAffinity is the reason when the node does not satisfy
	// the pod's nodeSelector or required node affinity.
	ErrReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"
	// ErrReasonEnforcedNodeAffinity is the reason when the node does not
	// satisfy the plugin's added affinity.
	ErrReasonEnforcedNodeAffinity = "node(s) didn't match scheduler-enforced node affinity"
	// ErrReasonAffinityConflict is PreFilter's reason when the pod's
	// required terms name no node at all (conflicting metadata.name
	// fields).
	ErrReasonAffinityConflict = "pod affinity terms conflict"
)

// objectNameField is the only field node selector matchFields may use.
const objectNameField = "metadata.name"

var nodeAffinityStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeAffinity)

// NodeAffinityMatches reports whether node satisfies pod's nodeSelector and
// required node affinity (terms that fail to compile match nothing).
func NodeAffinityMatches(pod *api.Pod, node *api.Node) bool {
	ok, _ := affinity.GetRequiredNodeAffinity(pod).Match(node)
	return ok
}

// NodeAffinity is the NodeAffinity filter as a plain function, without
// added affinity: nil if the node satisfies the pod's nodeSelector and
// required node affinity, else UnschedulableAndUnresolvable with
// ErrReasonNodeAffinity.
func NodeAffinity(pod *api.Pod, node *api.Node) *framework.Status {
	if NodeAffinityMatches(pod, node) {
		return nil
	}
	return nodeAffinityStatus
}

// RequiredNodeNames returns the node names the pod's required node
// affinity allows through matchFields on metadata.name, as upstream's
// PreFilter computes them: within a term the In requirements on
// metadata.name intersect, terms union. all is true (and names nil) when
// some term does not restrict names, so every node may qualify; an empty,
// non-nil names means the terms conflict and no node qualifies.
func RequiredNodeNames(pod *api.Pod) (names map[string]struct{}, all bool) {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil ||
		len(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) == 0 {
		return nil, true
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		var termNames map[string]struct{}
		for _, r := range term.MatchFields {
			if r.Key != objectNameField || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			s := make(map[string]struct{}, len(r.Values))
			for _, v := range r.Values {
				if termNames == nil {
					s[v] = struct{}{}
				} else if _, ok := termNames[v]; ok {
					s[v] = struct{}{}
				}
			}
			termNames = s
		}
		if termNames == nil {
			return nil, true
		}
		if names == nil {
			names = make(map[string]struct{}, len(termNames))
		}
		for n := range termNames {
			names[n] = struct{}{}
		}
	}
	return names, false
}
