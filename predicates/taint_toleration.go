package predicates

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
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

// TaintTolerationPlugin is the filter half of TaintToleration.
type TaintTolerationPlugin struct{}

var _ framework.FilterPlugin = (*TaintTolerationPlugin)(nil)

// NewTaintToleration is the factory of TaintToleration's filter half.
// TaintToleration takes no arguments; args is ignored.
func NewTaintToleration(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &TaintTolerationPlugin{}, nil
}

// Name returns config.TaintTolerationName.
func (*TaintTolerationPlugin) Name() string { return config.TaintTolerationName }

// Filter is TaintToleration(pod, nodeInfo.Node()).
func (*TaintTolerationPlugin) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return TaintToleration(pod, nodeInfo.Node())
}

var _ framework.FastPathPlugin = (*TaintTolerationPlugin)(nil)

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *TaintTolerationPlugin) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes}
}

// FilterNodes is Filter for each node. It reads the taints the NodeInfo
// keeps (the node's spec.taints), not the Node object, and checks them as
// UntoleratedTaint does without building its result.
func (*TaintTolerationPlugin) FilterNodes(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	tols := pod.Spec.Tolerations
	for i, ni := range nodes {
		if ts := ni.Taints(); len(ts) > 0 && hasUntolerated(ts, tols) {
			statuses[i] = taintStatus
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
