package podtopologyspread

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/taints"
)

// spreadConstraints returns the pod's compiled constraints with the given
// whenUnsatisfiable action, as the PodTopologySpread plugin takes them:
// the pod's own spec.topologySpreadConstraints if it has any; otherwise
// the defaults (nil for none) with the selector objs deduce for the pod
// (Objects.DefaultSpreadSelector), and none when that selector
// is empty. The error is a selector that does not compile, worded as
// upstream's.
func spreadConstraints(pod *api.Pod, defaults []api.TopologySpreadConstraint, objs *cluster.Objects, action api.UnsatisfiableConstraintAction) ([]affinity.SpreadConstraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		cs, err := affinity.CompileSpreadConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, action)
		if err != nil {
			if action == api.DoNotSchedule {
				return nil, fmt.Errorf("obtaining pod's hard topology spread constraints: %w", err)
			}
			return nil, fmt.Errorf("obtaining pod's soft topology spread constraints: %w", err)
		}
		return cs, nil
	}
	cs, err := affinity.CompileSpreadConstraints(defaults, pod.Labels, action)
	if err != nil {
		if action == api.DoNotSchedule {
			return nil, fmt.Errorf("setting default hard topology spread constraints: %w", err)
		}
		return nil, fmt.Errorf("setting default soft topology spread constraints: %w", err)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	sel := objs.DefaultSpreadSelector(pod)
	if sel.Empty() {
		return nil, nil
	}
	for i := range cs {
		cs[i].Selector = sel
	}
	return cs, nil
}

// hasSpreadKeys reports whether the node has every constraint's topology
// key.
func hasSpreadKeys(node *api.Node, cs []affinity.SpreadConstraint) bool {
	for i := range cs {
		if _, ok := node.Labels[cs[i].TopologyKey]; !ok {
			return false
		}
	}
	return true
}

// spreadNodeIncluded reports whether the node counts for constraint c of
// pod: with nodeAffinityPolicy Honor the node must match the pod's
// nodeSelector and required node affinity (req; errors count as no
// match), with nodeTaintsPolicy Honor the pod must tolerate the node's
// NoSchedule and NoExecute taints.
func spreadNodeIncluded(c *affinity.SpreadConstraint, pod *api.Pod, node *api.Node, req *affinity.RequiredNodeAffinity) bool {
	if c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor {
		if ok, _ := req.Match(node); !ok {
			return false
		}
	}
	if c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
		if _, bad := taints.FindUntolerated(node.Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); bad {
			return false
		}
	}
	return true
}

// spreadSignature is what a PodTopologySpread plugin's per-node counts
// depend on besides the nodes, for keeping them across cycles: the
// incoming pod's namespace, its compiled constraints' topology keys,
// selectors and node inclusion policies (not maxSkew nor minDomains) and,
// when a constraint honors them, the pod's nodeSelector and required node
// affinity or its tolerations (but their tolerationSeconds).
type spreadSignature struct {
	namespace   string
	constraints []affinity.SpreadConstraint
	// honorAffinity is whether a constraint honors node affinity; then
	// nodeSelector and required are the pod's (copied).
	honorAffinity bool
	nodeSelector  map[string]string
	required      *api.NodeSelector
	// honorTaints is whether a constraint honors taints; then
	// tolerations are the pod's, without their tolerationSeconds.
	honorTaints bool
	tolerations []api.Toleration
}

// newSpreadSignature returns the signature of pod's compiled constraints
// cs. With keep set, the pod's maps and slices (and cs) are copied, so
// that the signature can be kept while the pod changes; without, it may
// only be compared while pod and cs are unchanged.
func newSpreadSignature(pod *api.Pod, cs []affinity.SpreadConstraint, keep bool) spreadSignature {
	k := spreadSignature{namespace: pod.Namespace, constraints: cs}
	if keep {
		k.constraints = slices.Clone(cs)
	}
	for i := range cs {
		k.honorAffinity = k.honorAffinity || cs[i].NodeAffinityPolicy == api.NodeInclusionPolicyHonor
		k.honorTaints = k.honorTaints || cs[i].NodeTaintsPolicy == api.NodeInclusionPolicyHonor
	}
	if k.honorAffinity {
		k.nodeSelector = pod.Spec.NodeSelector
		if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
			k.required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		}
		if keep {
			k.nodeSelector = maps.Clone(k.nodeSelector)
			k.required = cloneNodeSelector(k.required)
		}
	}
	if k.honorTaints {
		k.tolerations = pod.Spec.Tolerations
		if keep {
			k.tolerations = slices.Clone(k.tolerations)
			for i := range k.tolerations {
				k.tolerations[i].TolerationSeconds = nil
			}
		}
	}
	return k
}

// Equal reports whether k and o give the same counts.
func (k *spreadSignature) Equal(o *spreadSignature) bool {
	if k.namespace != o.namespace || len(k.constraints) != len(o.constraints) ||
		k.honorAffinity != o.honorAffinity || k.honorTaints != o.honorTaints {
		return false
	}
	for i := range k.constraints {
		a, b := &k.constraints[i], &o.constraints[i]
		if a.TopologyKey != b.TopologyKey || a.NodeAffinityPolicy != b.NodeAffinityPolicy ||
			a.NodeTaintsPolicy != b.NodeTaintsPolicy || !reflect.DeepEqual(a.Selector, b.Selector) {
			return false
		}
	}
	if k.honorAffinity && (!maps.Equal(k.nodeSelector, o.nodeSelector) || !reflect.DeepEqual(k.required, o.required)) {
		return false
	}
	if k.honorTaints {
		if len(k.tolerations) != len(o.tolerations) {
			return false
		}
		for i := range k.tolerations {
			a, b := &k.tolerations[i], &o.tolerations[i]
			if a.Key != b.Key || a.Operator != b.Operator || a.Value != b.Value || a.Effect != b.Effect {
				return false
			}
		}
	}
	return true
}

func cloneNodeSelector(ns *api.NodeSelector) *api.NodeSelector {
	if ns == nil {
		return nil
	}
	out := &api.NodeSelector{NodeSelectorTerms: slices.Clone(ns.NodeSelectorTerms)}
	for i := range out.NodeSelectorTerms {
		t := &out.NodeSelectorTerms[i]
		t.MatchExpressions, t.MatchFields = cloneRequirements(t.MatchExpressions), cloneRequirements(t.MatchFields)
	}
	return out
}

func cloneRequirements(rs []api.NodeSelectorRequirement) []api.NodeSelectorRequirement {
	rs = slices.Clone(rs)
	for i := range rs {
		rs[i].Values = slices.Clone(rs[i].Values)
	}
	return rs
}
