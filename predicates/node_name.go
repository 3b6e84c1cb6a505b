package predicates

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// ErrReasonNodeName is NodeName's reason, as upstream's nodename.ErrReason.
const ErrReasonNodeName = "node(s) didn't match the requested node name"

var nodeNameStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeName)

// NodeNameFits reports whether pod may run on node by name: the pod names
// no node (spec.nodeName is empty) or names this one.
func NodeNameFits(pod *api.Pod, node *api.Node) bool {
	return pod.Spec.NodeName == "" || node != nil && pod.Spec.NodeName == node.Name
}

// NodeName is the NodeName filter as a plain function: nil if the pod
// fits the node by name, else UnschedulableAndUnresolvable with
// ErrReasonNodeName.
func NodeName(pod *api.Pod, node *api.Node) *framework.Status {
	if NodeNameFits(pod, node) {
		return nil
	}
	return nodeNameStatus
}
