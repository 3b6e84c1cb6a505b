package priorities

import (
	"context"
	"encoding/json"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
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

// NodeLabelPlugin is the score half of the NodeLabel plugin.
type NodeLabelPlugin struct {
	args *config.NodeLabelArgs
}

var _ framework.ScorePlugin = (*NodeLabelPlugin)(nil)

// NewNodeLabel is the NodeLabel score factory; args are
// config.NodeLabelArgs.
func NewNodeLabel(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeLabelArgs](args)
	if err != nil {
		return nil, err
	}
	return &NodeLabelPlugin{args: a}, nil
}

// Name returns config.NodeLabelName.
func (*NodeLabelPlugin) Name() string { return config.NodeLabelName }

// nodeNotFound is the legacy score plugins' error for a NodeInfo
// without a node, as upstream words it.
var nodeNotFound = framework.NewStatus(framework.Error, "node not found")

// Score is NodeLabelScore with the plugin's preferences; without a node,
// an error, as upstream.
func (pl *NodeLabelPlugin) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	if node == nil {
		return 0, nodeNotFound
	}
	return NodeLabelScore(pl.args.PresentLabelsPreference, pl.args.AbsentLabelsPreference, node), nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (*NodeLabelPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }

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

// NodePreferAvoidPodsPlugin is the NodePreferAvoidPods plugin; a Policy
// gives it weight 10000 by default.
type NodePreferAvoidPodsPlugin struct{}

var _ framework.ScorePlugin = (*NodePreferAvoidPodsPlugin)(nil)

// NewNodePreferAvoidPods is the NodePreferAvoidPods factory; it takes no
// arguments.
func NewNodePreferAvoidPods(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodePreferAvoidPodsPlugin{}, nil
}

// Name returns config.NodePreferAvoidPodsName.
func (*NodePreferAvoidPodsPlugin) Name() string { return config.NodePreferAvoidPodsName }

// Score is NodePreferAvoidPods; without a node, an error, as upstream.
func (*NodePreferAvoidPodsPlugin) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	if node == nil {
		return 0, nodeNotFound
	}
	return NodePreferAvoidPods(pod, node), nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (*NodePreferAvoidPodsPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }

// EqualPriorityPlugin is the EqualPriority priority: every node scores 1.
type EqualPriorityPlugin struct{}

var _ framework.ScorePlugin = (*EqualPriorityPlugin)(nil)

// NewEqualPriority is the EqualPriority factory; it takes no arguments.
func NewEqualPriority(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &EqualPriorityPlugin{}, nil
}

// Name returns config.EqualPriorityName.
func (*EqualPriorityPlugin) Name() string { return config.EqualPriorityName }

// Score returns 1; without a node, an error, as v1.13's
// EqualPriorityMap.
func (*EqualPriorityPlugin) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	if nodeInfo.Node() == nil {
		return 0, nodeNotFound
	}
	return 1, nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (*EqualPriorityPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }
