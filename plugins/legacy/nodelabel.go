package legacy

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// NodeLabel is the NodeLabel plugin, removed upstream in v1.21: Filter
// requires or forbids the args' labels on the node, and Score rates the
// preferred labels.
type NodeLabel struct {
	args *config.NodeLabelArgs
}

var (
	_ framework.FilterPlugin = (*NodeLabel)(nil)
	_ framework.ScorePlugin  = (*NodeLabel)(nil)
)

// NewNodeLabel is the NodeLabel filter factory; args are
// config.NodeLabelArgs (see config.ArgsFrom).
func NewNodeLabel(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeLabelArgs](args)
	if err != nil {
		return nil, err
	}
	return &NodeLabel{args: a}, nil
}

// Name returns config.NodeLabelName.
func (pl *NodeLabel) Name() string { return config.NodeLabelName }

// Filter is NodeLabel with the plugin's present and absent labels.
func (pl *NodeLabel) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return predicates.NodeLabel(pl.args.PresentLabels, pl.args.AbsentLabels, nodeInfo.Node())
}
