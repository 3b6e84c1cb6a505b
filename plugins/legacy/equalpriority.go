package legacy

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// EqualPriority is the EqualPriority priority: every node scores 1.
type EqualPriority struct{}

var _ framework.ScorePlugin = (*EqualPriority)(nil)

// NewEqualPriority is the EqualPriority factory; it takes no arguments.
func NewEqualPriority(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &EqualPriority{}, nil
}

// Name returns config.EqualPriorityName.
func (pl *EqualPriority) Name() string { return config.EqualPriorityName }

// Score returns 1; without a node, an error, as v1.13's
// EqualPriorityMap.
func (pl *EqualPriority) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	if nodeInfo.Node() == nil {
		return 0, nodeNotFound
	}
	return 1, nil
}

// ScoreExtensions returns nil: scores are not normalized.
func (pl *EqualPriority) ScoreExtensions() framework.ScoreExtensions { return nil }
