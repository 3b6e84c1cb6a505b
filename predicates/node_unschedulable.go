package predicates

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/taints"
)

// TaintNodeUnschedulable is the key of the taint a cordoned node carries
// and that a pod tolerates to run on one anyway.
const TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"

// ErrReasonNodeUnschedulable is NodeUnschedulable's reason, as upstream's
// ErrReasonUnschedulable.
const ErrReasonNodeUnschedulable = "node(s) were unschedulable"

var unschedulableStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeUnschedulable)

// NodeUnschedulable is the NodeUnschedulable filter as a plain function:
// nil unless the node is cordoned (spec.unschedulable) and the pod does
// not tolerate the node.kubernetes.io/unschedulable:NoSchedule taint, in
// which case UnschedulableAndUnresolvable with
// ErrReasonNodeUnschedulable.
func NodeUnschedulable(pod *api.Pod, node *api.Node) *framework.Status {
	if node == nil || !node.Spec.Unschedulable {
		return nil
	}
	if taints.TolerationsTolerate(pod.Spec.Tolerations, api.Taint{Key: TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return nil
	}
	return unschedulableStatus
}
