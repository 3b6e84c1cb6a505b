package predicates

import (
	"errors"
	"iter"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// ErrReasonServiceAffinityViolated is ServiceAffinity's reason (the
// classic CheckServiceAffinity predicate), as v1.22 worded it.
const ErrReasonServiceAffinityViolated = "node(s) didn't match service affinity"

var (
	serviceAffinityViolated = framework.NewStatus(framework.Unschedulable, ErrReasonServiceAffinityViolated)
	serviceAffinityNoNode   = framework.AsStatus(errors.New("node not found"))
)

// namespaceOf is the pod's namespace, "" read as "default" (the
// snapshot's convention).
func namespaceOf(pod *api.Pod) string {
	if pod.Namespace == "" {
		return "default"
	}
	return pod.Namespace
}

// selectsAll reports whether labels has every key=value of set (true for
// an empty set), as a selector built from set matches.
func selectsAll(set, labels map[string]string) bool {
	for k, v := range set {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// PodServices returns the services of the pod's namespace whose selector
// selects the pod, by name, as upstream's helper.GetPodServices: a
// service with a nil selector selects nothing, one with an empty non-nil
// selector selects every pod. (Upstream lists them in its informer
// cache's order, which is unspecified; schedkit's store orders them by
// name.)
func PodServices(objs *cluster.Objects, pod *api.Pod) []*api.Service {
	var out []*api.Service
	for _, svc := range cluster.ListObjects[api.Service](objs, namespaceOf(pod)) {
		if svc.Spec.Selector != nil && selectsAll(svc.Spec.Selector, pod.Labels) {
			out = append(out, svc)
		}
	}
	return out
}

// servicePeer is a pod of the snapshot in the namespace of the pod being
// scheduled, carrying all of its labels, and the node it runs on.
type servicePeer struct {
	pod  *api.Pod
	node string
}

// ServiceAffinityState is ServiceAffinity compiled for one pod: its
// services and its peers, the pods of its namespace that carry all its
// labels. The ServiceAffinity plugin keeps one per cycle and updates it
// with AddPod and RemovePod.
type ServiceAffinityState struct {
	view *cluster.View
	// peers are the pods of the namespace whose labels include all the
	// pod's labels (every pod of the namespace if it has none), in the
	// order of the view's nodes; AddPod and RemovePod update them.
	peers []servicePeer
	// hasServices reports whether a service selects the pod.
	hasServices bool
	// backfill reports whether the pod's node selector lacks some of
	// the affinity labels (counting a label listed twice twice, as
	// upstream compares the list's length with the found set's size).
	backfill bool
}

// Clone copies the peers, which AddPod and RemovePod modify.
func (s *ServiceAffinityState) Clone() framework.StateData {
	c := *s
	c.peers = append([]servicePeer(nil), s.peers...)
	return &c
}

// NewServiceAffinityState computes the PreFilter state of pod over the
// view's nodes and objects.
func NewServiceAffinityState(v *cluster.View, affinityLabels []string, pod *api.Pod) *ServiceAffinityState {
	s := &ServiceAffinityState{view: v, hasServices: len(PodServices(v.Objects(), pod)) > 0}
	found := map[string]struct{}{}
	for _, l := range affinityLabels {
		if _, ok := pod.Spec.NodeSelector[l]; ok {
			found[l] = struct{}{}
		}
	}
	s.backfill = len(affinityLabels) > len(found)
	ns := namespaceOf(pod)
	for _, ni := range v.Nodes() {
		for _, p := range ni.Pods {
			if namespaceOf(p.Pod) == ns && selectsAll(pod.Labels, p.Pod.Labels) {
				s.peers = append(s.peers, servicePeer{pod: p.Pod, node: ni.Name()})
			}
		}
	}
	return s
}

// onNode reports whether nodeInfo holds pod (by UID when both have one,
// else by namespace and name, as the snapshot identifies pods).
func onNode(nodeInfo *cluster.NodeInfo, pod *api.Pod) bool {
	for _, p := range nodeInfo.Pods {
		q := p.Pod
		if q == pod {
			return true
		}
		if q.UID != "" && pod.UID != "" {
			if q.UID == pod.UID {
				return true
			}
			continue
		}
		if q.Name == pod.Name && namespaceOf(q) == namespaceOf(pod) {
			return true
		}
	}
	return false
}

// firstPeer returns the first peer that nodeInfo does not hide: a peer
// recorded on nodeInfo's node counts only if nodeInfo still holds it
// (preemption removes pods from a copy of the node), as upstream's
// NodeInfo.FilterOutPods keeps it.
func (s *ServiceAffinityState) firstPeer(nodeInfo *cluster.NodeInfo) (servicePeer, bool) {
	name := nodeInfo.Name()
	for _, p := range s.peers {
		if p.node != name || onNode(nodeInfo, p.pod) {
			return p, true
		}
	}
	return servicePeer{}, false
}

// Filter is the ServiceAffinity Filter over the state.
func (s *ServiceAffinityState) Filter(affinityLabels []string, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return serviceAffinityNoNode
	}
	// The labels the pod's node selector does not fix are taken from
	// the node of the first pod of the service, if a service selects
	// the pod and such a pod runs.
	var from *api.Node
	if s.backfill && s.hasServices {
		if p, ok := s.firstPeer(nodeInfo); ok {
			ni, ok := s.view.Get(p.node)
			if !ok || ni.Node() == nil {
				return serviceAffinityNoNode
			}
			from = ni.Node()
		}
	}
	for _, l := range affinityLabels {
		want, ok := pod.Spec.NodeSelector[l]
		if !ok && from != nil {
			want, ok = from.Labels[l]
		}
		if !ok {
			continue
		}
		if got, has := node.Labels[l]; !has || got != want {
			return serviceAffinityViolated
		}
	}
	return nil
}

// ServiceAffinity is the ServiceAffinity filter (v1.22; the classic
// CheckServiceAffinity predicate) as a plain function over the view's
// pods and services: the node must carry, for each of affinityLabels,
// the value the pod's node selector gives it, or else the value on the
// node of the first pod of the pod's namespace carrying all the pod's
// labels, when a service selects the pod; a label with neither is not
// checked. A mismatch is Unschedulable with
// ErrReasonServiceAffinityViolated.
func ServiceAffinity(v *cluster.View, affinityLabels []string, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(affinityLabels) == 0 {
		return nil
	}
	return NewServiceAffinityState(v, affinityLabels, pod).Filter(affinityLabels, pod, nodeInfo)
}

// AddPod adds podToAdd to the peers if it is in podToSchedule's
// namespace and carries all its labels. Its node is the one it runs on if
// the view holds it on nodeInfo's node, else its spec.nodeName, empty
// for a nominated pod, as upstream reads it.
func (s *ServiceAffinityState) AddPod(podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) {
	p := podToAdd.Pod
	if namespaceOf(p) != namespaceOf(podToSchedule) || !selectsAll(podToSchedule.Labels, p.Labels) {
		return
	}
	node := p.Spec.NodeName
	if ni, ok := s.view.Get(nodeInfo.Name()); ok {
		for _, q := range ni.Pods {
			if q == podToAdd {
				node = ni.Name()
				break
			}
		}
	}
	s.peers = append(s.peers, servicePeer{pod: p, node: node})
}

// RemovePod removes the first peer with podToRemove's namespace and
// name.
func (s *ServiceAffinityState) RemovePod(podToRemove *cluster.PodInfo) {
	p := podToRemove.Pod
	for i, q := range s.peers {
		if q.pod.Name == p.Name && namespaceOf(q.pod) == namespaceOf(p) {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			break
		}
	}
}

// Peers yields each peer and the name of the node it runs on, in the
// order of the view's nodes, then the pods AddPod added.
func (s *ServiceAffinityState) Peers() iter.Seq2[*api.Pod, string] {
	return func(yield func(*api.Pod, string) bool) {
		for _, p := range s.peers {
			if !yield(p.pod, p.node) {
				return
			}
		}
	}
}
