package tainttoleration

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/taints"
)

// Filter is TaintToleration(pod, nodeInfo.Node()).
func (pl *TaintToleration) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return predicates.TaintToleration(pod, nodeInfo.Node())
}

// FilterNodes is Filter for each node. It reads the taints the NodeInfo
// keeps (the node's spec.taints), not the Node object, and checks them as
// UntoleratedTaint does without building its result.
func (pl *TaintToleration) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	tols := pod.Spec.Tolerations
	for i, ni := range nodes {
		if ts := ni.Taints(); len(ts) > 0 && hasUntolerated(ts, tols) {
			statuses[i] = rejected
		}
	}
}

// hasUntolerated reports whether UntoleratedTaint finds a taint among ts
// for a pod with tolerations tols: a NoSchedule or NoExecute taint that
// no toleration tolerates.
func hasUntolerated(ts []api.Taint, tols []api.Toleration) bool {
	for i := range ts {
		if e := ts[i].Effect; e != api.TaintEffectNoSchedule && e != api.TaintEffectNoExecute {
			continue
		}
		if !(taints.Options{}).TolerationsTolerate(tols, ts[i]) {
			return true
		}
	}
	return false
}

var rejected = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonUntoleratedTaint)
