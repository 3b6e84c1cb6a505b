package priorities

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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
// an empty set).
func selectsAll(set, labels map[string]string) bool {
	for k, v := range set {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// ServiceSelector returns the selector of the first service (by name) of
// the pod's namespace that selects the pod, or nil if none does. A
// service with a nil selector selects nothing; one with an empty
// selector selects every pod (and an empty result scores nothing).
// Upstream takes the first service in its informer cache's order, which
// is unspecified when several select the pod.
func ServiceSelector(objs *cluster.Objects, pod *api.Pod) map[string]string {
	for _, svc := range cluster.ListObjects[api.Service](objs, namespaceOf(pod)) {
		if svc.Spec.Selector != nil && selectsAll(svc.Spec.Selector, pod.Labels) {
			return svc.Spec.Selector
		}
	}
	return nil
}

// ServiceAntiAffinity is ServiceAffinity's raw score (v1.22; the classic
// ServiceAntiAffinity priority) as a plain function: the number of pods
// on the node, in the pod's namespace and not being deleted, that
// selector (ServiceSelector's result) selects; 0 for an empty selector.
func ServiceAntiAffinity(selector map[string]string, pod *api.Pod, nodeInfo *cluster.NodeInfo) int64 {
	if len(selector) == 0 || len(nodeInfo.Pods) == 0 {
		return 0
	}
	ns := namespaceOf(pod)
	var n int64
	for _, p := range nodeInfo.Pods {
		if p.Pod.DeletionTimestamp == nil && namespaceOf(p.Pod) == ns && selectsAll(selector, p.Pod.Labels) {
			n++
		}
	}
	return n
}

// NormalizeServiceAntiAffinity turns raw ServiceAntiAffinity scores into
// final ones as v1.22's NormalizeScore did: for each label of labels,
// a node carrying it gets MaxNodeScore times the share of the service's
// pods (the sum of all raw scores) that are not on nodes with its value
// of the label (MaxNodeScore when there are none), divided by the number
// of labels; a node without the label gets nothing for it. The sums, in
// float64 as upstream computes them, are truncated. Nodes are looked up
// in v; a node v lacks is an error.
func NormalizeServiceAntiAffinity(v *cluster.View, labels []string, scores framework.NodeScoreList) error {
	sums := make([]float64, len(scores))
	if len(labels) > 0 {
		nodeLabels := make([]map[string]string, len(scores))
		for i := range scores {
			ni, ok := v.Get(scores[i].Name)
			if !ok {
				return fmt.Errorf("nodeinfo not found for node name %q", scores[i].Name)
			}
			if n := ni.Node(); n != nil {
				nodeLabels[i] = n.Labels
			}
		}
		counts := map[string]int64{}
		for _, label := range labels {
			clear(counts)
			var total int64
			for i := range scores {
				total += scores[i].Score
				if value, ok := nodeLabels[i][label]; ok {
					counts[value] += scores[i].Score
				}
			}
			maxScore := float64(framework.MaxNodeScore)
			for i := range scores {
				value, ok := nodeLabels[i][label]
				if !ok {
					continue
				}
				f := maxScore
				if total > 0 {
					f = maxScore * (float64(total-counts[value]) / float64(total))
				}
				sums[i] += f / float64(len(labels))
			}
		}
	}
	for i := range scores {
		scores[i].Score = int64(sums[i])
	}
	return nil
}
