package nodename

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.NodeNameName

// NodeName is the NodeName plugin: PreFilter narrows the nodes to
// the one the pod names, Filter rejects every other node.
type NodeName struct{}

var (
	_ framework.PreFilterPlugin = (*NodeName)(nil)
	_ framework.FilterPlugin    = (*NodeName)(nil)
)

// New is the NodeName plugin factory. NodeName takes no
// arguments; args is ignored, as upstream ignores it.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeName{}, nil
}

// Name returns Name.
func (pl *NodeName) Name() string { return Name }

var _ framework.FastPathPlugin = (*NodeName)(nil)

var _ framework.EnqueueExtensions = (*NodeName)(nil)

// EventsToRegister returns NodeAdd. Only a new node can carry the name
// the pod asks for.
func (pl *NodeName) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd
}
