package upstream

import (
	"context"
	"errors"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

// ErrNoFit is returned by Schedule when no node passes the filters.
var ErrNoFit = errors.New("no node fits the pod")

// Schedule makes one scheduling decision for pod the way kube-scheduler's
// schedulePod does with every node sampled (percentageOfNodesToScore 100)
// and no nominated pods or extenders: PreFilter, Filter on the nodes in
// parallel, PreScore and Score on the feasible ones, and the node with the
// highest total (the first one on a tie).
func (f *Framework) Schedule(ctx context.Context, pod *v1.Pod) (string, error) {
	state := schedframework.NewCycleState()
	nodes := f.NodeInfos()
	res, st, _ := f.FW.RunPreFilterPlugins(ctx, state, pod)
	if !st.IsSuccess() {
		return "", st.AsError()
	}
	feasible := make([]fwk.NodeInfo, len(nodes))
	var n atomic.Int32
	f.FW.Parallelizer().Until(ctx, len(nodes), func(i int) {
		ni := nodes[i]
		if !res.AllNodes() && !res.NodeNames.Has(ni.Node().Name) {
			return
		}
		if f.FW.RunFilterPlugins(ctx, state, pod, ni).IsSuccess() {
			feasible[n.Add(1)-1] = ni
		}
	}, "Filter")
	feasible = feasible[:n.Load()]
	if len(feasible) == 0 {
		return "", ErrNoFit
	}
	if len(feasible) == 1 {
		return feasible[0].Node().Name, nil
	}
	if st := f.FW.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		return "", st.AsError()
	}
	scores, st := f.FW.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		return "", st.AsError()
	}
	best := 0
	for i := range scores {
		if scores[i].TotalScore > scores[best].TotalScore {
			best = i
		}
	}
	return scores[best].Name, nil
}

// ScheduleCycle is upstream's answer for a schedule input: its cycle over
// every node, reduced to the nodes the scheduler may pick or the
// rejections.
func ScheduleCycle(in *regression.PluginsInput) regression.ScheduleAnswer {
	return regression.ScheduleFromCycle(PluginsCycle(in))
}
