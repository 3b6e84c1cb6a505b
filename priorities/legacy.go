package priorities

import (
	"encoding/json"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// The optional score plugins of plugins and priorities kube-scheduler
// removed, with their last upstream semantics: registered, not in the
// default profile (a Policy file or a profile enables them).

// NodeLabelScore is NodeLabel's score (v1.21): MaxNodeScore for each
// label of presentPref the node has and each of absentPref it lacks,
// averaged over the number of labels (0 without labels).
func NodeLabelScore(presentPref, absentPref []string, node *api.Node) int64 {
	n := len(presentPref) + len(absentPref)
	if n == 0 {
		return 0
	}
	var labels map[string]string // a nil node has none
	if node != nil {
		labels = node.Labels
	}
	var score int64
	for _, l := range presentPref {
		if _, ok := labels[l]; ok {
			score += framework.MaxNodeScore
		}
	}
	for _, l := range absentPref {
		if _, ok := labels[l]; !ok {
			score += framework.MaxNodeScore
		}
	}
	return score / int64(n)
}

// PreferAvoidPodsAnnotationKey is the node annotation NodePreferAvoidPods
// reads.
const PreferAvoidPodsAnnotationKey = "scheduler.alpha.kubernetes.io/preferAvoidPods"

// avoidPods is the annotation's JSON (core/v1 AvoidPods): every field
// is decoded so that a value of the wrong type fails the whole
// annotation, as upstream's json.Unmarshal into v1.AvoidPods does.
type avoidPods struct {
	PreferAvoidPods []struct {
		PodSignature struct {
			PodController *api.OwnerReference `json:"podController,omitempty"`
		} `json:"podSignature"`
		EvictionTime api.Time `json:"evictionTime,omitempty"`
		Reason       string   `json:"reason,omitempty"`
		Message      string   `json:"message,omitempty"`
	} `json:"preferAvoidPods,omitempty"`
}

// NodePreferAvoidPods is the NodePreferAvoidPods score (v1.21) as a plain
// function: 0 when the pod's controller is a ReplicationController or a
// ReplicaSet that the node's preferAvoidPods annotation names (by kind
// and uid), MaxNodeScore otherwise (also when the annotation does not
// parse).
func NodePreferAvoidPods(pod *api.Pod, node *api.Node) int64 {
	var ref *api.OwnerReference
	for i := range pod.OwnerReferences {
		if c := pod.OwnerReferences[i].Controller; c != nil && *c {
			ref = &pod.OwnerReferences[i]
			break
		}
	}
	if ref == nil || (ref.Kind != "ReplicationController" && ref.Kind != "ReplicaSet") {
		return framework.MaxNodeScore
	}
	if node == nil {
		return framework.MaxNodeScore
	}
	v, ok := node.Annotations[PreferAvoidPodsAnnotationKey]
	if !ok {
		return framework.MaxNodeScore
	}
	var avoids avoidPods
	if err := json.Unmarshal([]byte(v), &avoids); err != nil {
		return framework.MaxNodeScore
	}
	for _, a := range avoids.PreferAvoidPods {
		if c := a.PodSignature.PodController; c != nil && c.Kind == ref.Kind && c.UID == ref.UID {
			return 0
		}
	}
	return framework.MaxNodeScore
}
