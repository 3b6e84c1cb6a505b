package legacy

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// NodePreferAvoidPods is the NodePreferAvoidPods plugin; a Policy
// gives it weight 10000 by default.
type NodePreferAvoidPods struct{}

var _ framework.ScorePlugin = (*NodePreferAvoidPods)(nil)

// NewNodePreferAvoidPods is the NodePreferAvoidPods factory; it takes no
// arguments.
func NewNodePreferAvoidPods(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodePreferAvoidPods{}, nil
}

// Name returns config.NodePreferAvoidPodsName.
func (pl *NodePreferAvoidPods) Name() string { return config.NodePreferAvoidPodsName }

// Score is NodePreferAvoidPods; without a node, an error, as upstream.
func (pl *NodePreferAvoidPods) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	if node == nil {
		return 0, nodeNotFound
	}
	return priorities.NodePreferAvoidPods(pod, node), nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (pl *NodePreferAvoidPods) ScoreExtensions() framework.ScoreExtensions { return nil }
