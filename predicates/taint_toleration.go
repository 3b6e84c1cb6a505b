package predicates

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/taints"
)

// ErrReasonUntoleratedTaint is TaintToleration's reason in Kubernetes
// v1.37.2, which no longer names the taint (older releases said
// "node(s) had untolerated taint {key: value}").
const ErrReasonUntoleratedTaint = "node(s) had untolerated taint(s)"

var taintStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntoleratedTaint)

// UntoleratedTaint returns the first NoSchedule or NoExecute taint of the
// node that none of the pod's tolerations tolerates, and true; or false
// when the pod tolerates them all. PreferNoSchedule taints never count.
func UntoleratedTaint(pod *api.Pod, node *api.Node) (api.Taint, bool) {
	if node == nil {
		return api.Taint{}, false
	}
	return taints.FindUntolerated(node.Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute)
}

// TaintToleration is the TaintToleration filter as a plain function: nil
// if the pod tolerates every NoSchedule and NoExecute taint of the node,
// else UnschedulableAndUnresolvable with ErrReasonUntoleratedTaint.
func TaintToleration(pod *api.Pod, node *api.Node) *framework.Status {
	if _, bad := UntoleratedTaint(pod, node); bad {
		return taintStatus
	}
	return nil
}
