package priorities

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

// TaintToleration is the raw TaintToleration score of pod on node: the
// number of the node's PreferNoSchedule taints that the pod does not
// tolerate. Lower is better; NormalizeScore reverses it onto [0, 100].
func TaintToleration(pod *api.Pod, node *api.Node) int64 {
	if node == nil {
		return 0
	}
	return int64(taints.CountIntolerablePreferNoSchedule(node.Spec.Taints, PreferNoScheduleTolerations(pod.Spec.Tolerations)))
}

// PreferNoScheduleTolerations keeps the tolerations that can tolerate a
// PreferNoSchedule taint (empty effect or PreferNoSchedule), as upstream's
// PreScore does; it returns tols itself when all can.
func PreferNoScheduleTolerations(tols []api.Toleration) []api.Toleration {
	keep := 0
	for _, t := range tols {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			keep++
		}
	}
	if keep == len(tols) {
		return tols
	}
	out := make([]api.Toleration, 0, keep)
	for _, t := range tols {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			out = append(out, t)
		}
	}
	return out
}
