package legacy

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// NodeCondition runs one of the node pressure predicates as a
// filter plugin.
type NodeCondition struct {
	name  string
	check func(*api.Pod, *api.Node) *framework.Status
}

var _ framework.FilterPlugin = (*NodeCondition)(nil)

// NewCheckNodeMemoryPressure is the CheckNodeMemoryPressure factory; it
// takes no arguments.
func NewCheckNodeMemoryPressure(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeCondition{name: config.CheckNodeMemoryPressureName, check: predicates.CheckNodeMemoryPressure}, nil
}

// NewCheckNodeDiskPressure is the CheckNodeDiskPressure factory; it takes
// no arguments.
func NewCheckNodeDiskPressure(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeCondition{name: config.CheckNodeDiskPressureName, check: predicates.CheckNodeDiskPressure}, nil
}

// NewCheckNodePIDPressure is the CheckNodePIDPressure factory; it takes
// no arguments.
func NewCheckNodePIDPressure(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeCondition{name: config.CheckNodePIDPressureName, check: predicates.CheckNodePIDPressure}, nil
}

// Name returns the predicate's name.
func (pl *NodeCondition) Name() string { return pl.name }

// Filter runs the predicate on the node.
func (pl *NodeCondition) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	return pl.check(pod, nodeInfo.Node())
}
