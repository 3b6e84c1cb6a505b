package nodeunschedulable

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.NodeUnschedulableName

// NodeUnschedulable is the NodeUnschedulable plugin.
type NodeUnschedulable struct{}

var _ framework.FilterPlugin = (*NodeUnschedulable)(nil)

// New is the NodeUnschedulable factory. It takes no
// arguments; args is ignored.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeUnschedulable{}, nil
}

// Name returns Name.
func (pl *NodeUnschedulable) Name() string { return Name }

var _ framework.FastPathPlugin = (*NodeUnschedulable)(nil)

var _ framework.EnqueueExtensions = (*NodeUnschedulable)(nil)

// EventsToRegister returns NodeAdd and NodeUpdate. A new node may be
// schedulable, and an update may uncordon a node or change its taints.
func (pl *NodeUnschedulable) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
