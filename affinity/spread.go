package affinity

import (
	"strings"

	"github.com/schedkit/schedkit/api"
)

// Well-known topology labels (k8s.io/api/core/v1 LabelHostname and
// LabelTopologyZone).
const (
	// LabelHostname is the node label holding the node's host name.
	LabelHostname = "kubernetes.io/hostname"
	// LabelTopologyZone is the node label holding the node's zone.
	LabelTopologyZone = "topology.kubernetes.io/zone"
)

// SpreadConstraint is a compiled api.TopologySpreadConstraint, as the
// PodTopologySpread plugin's internal topologySpreadConstraint: the label
// selector compiled (with matchLabelKeys merged from the pod's labels),
// minDomains defaulted to 1 and the node inclusion policies defaulted to
// Honor (node affinity) and Ignore (taints). It is immutable once built.
type SpreadConstraint struct {
	// MaxSkew is the largest allowed difference between a domain's count
	// and the global minimum.
	MaxSkew int32
	// TopologyKey is the node label whose values are the domains.
	TopologyKey string
	// Selector selects the pods counted; a nil labelSelector compiles to
	// Nothing, an empty one to Everything.
	Selector Selector
	// MinDomains is the number of eligible domains below which the
	// global minimum counts as 0.
	MinDomains int32
	// NodeAffinityPolicy: with Honor only nodes matching the pod's
	// nodeSelector and required node affinity are counted.
	NodeAffinityPolicy api.NodeInclusionPolicy
	// NodeTaintsPolicy: with Honor only nodes whose NoSchedule and
	// NoExecute taints the pod tolerates are counted.
	NodeTaintsPolicy api.NodeInclusionPolicy
}

// CompileSpreadConstraints compiles the constraints with the given
// whenUnsatisfiable action, in order, as the plugin's
// filterTopologySpreadConstraints does with its feature gates at their
// v1.37 defaults: the label selector compiled by CompileLabelSelector;
// the pod's values of matchLabelKeys (keys the pod lacks are skipped)
// ANDed in as key=value requirements unless the selector is Nothing —
// the API server has usually merged them already (MergeSpreadLabelKeys),
// and merging twice selects the same pods; a nil minDomains is 1; nil
// policies are Honor (node affinity) and Ignore (taints). The first
// selector that does not compile is the error.
func CompileSpreadConstraints(constraints []api.TopologySpreadConstraint, podLabels map[string]string, action api.UnsatisfiableConstraintAction) ([]SpreadConstraint, error) {
	var out []SpreadConstraint
	for i := range constraints {
		c := &constraints[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := CompileLabelSelector(c.LabelSelector)
		if err != nil {
			return nil, err
		}
		if len(c.MatchLabelKeys) > 0 {
			set := map[string]string{}
			for _, k := range c.MatchLabelKeys {
				if v, ok := podLabels[k]; ok {
					set[k] = v
				}
			}
			if len(set) > 0 && !sel.MatchesNothing() {
				sel = SelectorFromSet(set).Add(sel.reqs...)
			}
		}
		sc := SpreadConstraint{
			MaxSkew: c.MaxSkew, TopologyKey: c.TopologyKey, Selector: sel, MinDomains: 1,
			NodeAffinityPolicy: api.NodeInclusionPolicyHonor, NodeTaintsPolicy: api.NodeInclusionPolicyIgnore,
		}
		if c.MinDomains != nil {
			sc.MinDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			sc.NodeAffinityPolicy = *c.NodeAffinityPolicy
		}
		if c.NodeTaintsPolicy != nil {
			sc.NodeTaintsPolicy = *c.NodeTaintsPolicy
		}
		out = append(out, sc)
	}
	return out, nil
}

// MergeSpreadLabelKeys returns the constraint with the pod's values of
// its matchLabelKeys appended to its label selector as "key In (value)"
// expressions, as the API server's pod strategy does on create (with
// MatchLabelKeysInPodTopologySpread and
// MatchLabelKeysInPodTopologySpreadSelectorMerge on, their v1.37
// defaults). Keys the pod lacks are skipped and a nil label selector
// stays nil. Unlike the API server, an expression already present is not
// appended twice, so merging an admitted pod's constraint changes
// nothing. c itself is not modified.
func MergeSpreadLabelKeys(c api.TopologySpreadConstraint, podLabels map[string]string) api.TopologySpreadConstraint {
	if len(c.MatchLabelKeys) == 0 || c.LabelSelector == nil {
		return c
	}
	ls := &api.LabelSelector{
		MatchLabels:      c.LabelSelector.MatchLabels,
		MatchExpressions: append([]api.LabelSelectorRequirement(nil), c.LabelSelector.MatchExpressions...),
	}
	for _, k := range c.MatchLabelKeys {
		v, ok := podLabels[k]
		if !ok || hasExpression(ls.MatchExpressions, k, api.LabelSelectorOpIn, v) {
			continue
		}
		ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: []string{v}})
	}
	c.LabelSelector = ls
	return c
}

// ControllerRef is api.GetControllerOf, kept for its callers; new code
// calls api.GetControllerOf.
func ControllerRef(meta *api.ObjectMeta) *api.OwnerReference {
	return api.GetControllerOf(meta)
}

// SpreadControllerKind returns "ReplicationController", "ReplicaSet" or
// "StatefulSet" when ref names one of the controllers whose selector
// DefaultSelector uses (v1 ReplicationController, apps/v1 ReplicaSet or
// StatefulSet, compared as upstream compares group, version and kind),
// and "" otherwise (nil ref, another kind, a malformed apiVersion).
func SpreadControllerKind(ref *api.OwnerReference) string {
	if ref == nil {
		return ""
	}
	var group, version string
	switch gv := ref.APIVersion; strings.Count(gv, "/") {
	case 0:
		version = gv
	case 1:
		if gv != "/" {
			group, version, _ = strings.Cut(gv, "/")
		}
	default:
		return ""
	}
	switch {
	case group == "" && version == "v1" && ref.Kind == "ReplicationController":
		return ref.Kind
	case group == "apps" && version == "v1" && (ref.Kind == "ReplicaSet" || ref.Kind == "StatefulSet"):
		return ref.Kind
	}
	return ""
}

// DefaultSelector is the selector kube-scheduler deduces for a pod
// without spread constraints of its own (helper.DefaultSelector): the
// union of the selectors of the services (of the pod's namespace; pass
// them all, those whose selector does not match the pod are skipped, as
// are services with a nil selector), then, for the pod's controller,
// either rc's selector merged into the same label set, or the
// requirements of rs's or ss's label selector added (nothing when it is
// nil or does not compile). Pass the controller the pod's ControllerRef
// names, found in the pod's namespace, or nil. An empty result
// (Everything) means the pod gets no default constraints.
func DefaultSelector(pod *api.Pod, services []*api.Service, rc *api.ReplicationController, rs *api.ReplicaSet, ss *api.StatefulSet) Selector {
	set := map[string]string{}
	for _, svc := range services {
		if svc.Spec.Selector == nil || !SelectorFromSet(svc.Spec.Selector).Matches(pod.Labels) {
			continue
		}
		for k, v := range svc.Spec.Selector {
			set[k] = v
		}
	}
	sel := SelectorFromSet(set)
	var ls *api.LabelSelector
	switch {
	case rc != nil:
		for k, v := range rc.Spec.Selector {
			set[k] = v
		}
		return SelectorFromSet(set)
	case rs != nil:
		ls = rs.Spec.Selector
	case ss != nil:
		ls = ss.Spec.Selector
	default:
		return sel
	}
	other, err := CompileLabelSelector(ls)
	if err != nil || other.MatchesNothing() {
		return sel
	}
	return sel.Add(other.reqs...)
}
