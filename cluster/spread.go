package cluster

import (
	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
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
