package nodeports

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.NodePortsName

// NodePorts is the NodePorts plugin: PreFilter collects the pod's
// host ports (and skips the plugin when there are none), Filter rejects
// nodes where one is in use.
type NodePorts struct{}

var (
	_ framework.PreFilterPlugin = (*NodePorts)(nil)
	_ framework.FilterPlugin    = (*NodePorts)(nil)
)

// New is the NodePorts plugin factory. NodePorts takes no
// arguments; args is ignored, as upstream ignores it.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodePorts{}, nil
}

// Name returns Name.
func (pl *NodePorts) Name() string { return Name }

var _ framework.FastPathPlugin = (*NodePorts)(nil)

var _ framework.EnqueueExtensions = (*NodePorts)(nil)

// EventsToRegister returns NodeAdd and AssignedPodDelete. A new node has
// every port free, and a deleted pod frees the ports it held.
func (pl *NodePorts) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.AssignedPodDelete
}
