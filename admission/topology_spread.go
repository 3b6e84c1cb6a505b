package admission

import (
	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// MergeSpreadLabelKeys merges every topology spread constraint's
// matchLabelKeys into its label selector, in place, as the API server's
// pod strategy does on create in v1.37 (mutateTopologySpreadConstraints,
// with MatchLabelKeysInPodTopologySpread and
// MatchLabelKeysInPodTopologySpreadSelectorMerge on by default): each
// key the pod has becomes a "key In (value)" expression; constraints
// with a nil selector are left alone (see affinity.MergeSpreadLabelKeys).
// The scheduler still merges the keys itself too, so a pod that skipped
// this step is placed the same; merging keeps the stored pod as the API
// server would store it.
func MergeSpreadLabelKeys(pod *api.Pod) {
	cs := pod.Spec.TopologySpreadConstraints
	for i := range cs {
		cs[i] = affinity.MergeSpreadLabelKeys(cs[i], pod.Labels)
	}
}
