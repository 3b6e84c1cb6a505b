package cluster

import (
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

// DefaultSpreadSelector returns affinity.DefaultSelector for pod over the
// store's objects: the Services of the pod's namespace and the
// ReplicationController, ReplicaSet or StatefulSet of that namespace its
// controller reference names (looked up by name, as upstream's listers
// do). A nil store has no objects.
func (o *Objects) DefaultSpreadSelector(pod *api.Pod) affinity.Selector {
	if o == nil {
		return affinity.DefaultSelector(pod, nil, nil, nil, nil)
	}
	services := ListObjects[api.Service](o, pod.Namespace)
	var (
		rc *api.ReplicationController
		rs *api.ReplicaSet
		ss *api.StatefulSet
	)
	ref := affinity.ControllerRef(&pod.ObjectMeta)
	switch affinity.SpreadControllerKind(ref) {
	case string(KindReplicationController):
		rc, _ = GetObject[api.ReplicationController](o, pod.Namespace, ref.Name)
	case string(KindReplicaSet):
		rs, _ = GetObject[api.ReplicaSet](o, pod.Namespace, ref.Name)
	case string(KindStatefulSet):
		ss, _ = GetObject[api.StatefulSet](o, pod.Namespace, ref.Name)
	}
	return affinity.DefaultSelector(pod, services, rc, rs, ss)
}

// SpreadConstraints returns the pod's compiled constraints with the given
// whenUnsatisfiable action, as the PodTopologySpread plugin takes them:
// the pod's own spec.topologySpreadConstraints if it has any; otherwise
// the defaults (nil for none) with the selector objs deduce for the pod
// (Objects.DefaultSpreadSelector), and none when that selector
// is empty. The error is a selector that does not compile, worded as
// upstream's.
func SpreadConstraints(pod *api.Pod, defaults []api.TopologySpreadConstraint, objs *Objects, action api.UnsatisfiableConstraintAction) ([]affinity.SpreadConstraint, error) {
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

// HasSpreadKeys reports whether the node has every constraint's topology
// key.
func HasSpreadKeys(node *api.Node, cs []affinity.SpreadConstraint) bool {
	for i := range cs {
		if _, ok := node.Labels[cs[i].TopologyKey]; !ok {
			return false
		}
	}
	return true
}

// SpreadNodeIncluded reports whether the node counts for constraint c of
// pod: with nodeAffinityPolicy Honor the node must match the pod's
// nodeSelector and required node affinity (req; errors count as no
// match), with nodeTaintsPolicy Honor the pod must tolerate the node's
// NoSchedule and NoExecute taints.
func SpreadNodeIncluded(c *affinity.SpreadConstraint, pod *api.Pod, node *api.Node, req *affinity.RequiredNodeAffinity) bool {
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

// CountSpreadPods counts the pods in namespace ns that sel selects,
// leaving out terminating pods (deletionTimestamp set); an empty selector
// counts none, as upstream's countPodsMatchSelector.
func CountSpreadPods(pods []*PodInfo, sel affinity.Selector, ns string) int {
	if sel.Empty() {
		return 0
	}
	n := 0
	for _, p := range pods {
		if p.Pod.DeletionTimestamp != nil || p.Pod.Namespace != ns {
			continue
		}
		if sel.Matches(p.Pod.Labels) {
			n++
		}
	}
	return n
}
