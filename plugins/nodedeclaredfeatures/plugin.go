package nodedeclaredfeatures

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.NodeDeclaredFeaturesName

// NodeDeclaredFeatures is the NodeDeclaredFeatures plugin (GA and
// on in v1.37): PreFilter infers the features the pod requires of its
// node and returns Skip when there are none; Filter rejects nodes that do
// not declare them all in status.declaredFeatures,
// UnschedulableAndUnresolvable with ErrReasonNodeDeclaredFeatures.
type NodeDeclaredFeatures struct{}

var (
	_ framework.PreFilterPlugin = (*NodeDeclaredFeatures)(nil)
	_ framework.FilterPlugin    = (*NodeDeclaredFeatures)(nil)
)

// New is the NodeDeclaredFeatures plugin factory; it
// takes no arguments.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeDeclaredFeatures{}, nil
}

// Name returns Name.
func (pl *NodeDeclaredFeatures) Name() string { return Name }

var _ framework.EnqueueExtensions = (*NodeDeclaredFeatures)(nil)

// EventsToRegister returns NodeAdd and NodeUpdate. A new node or an
// update of a node's status may declare the features the pod requires.
func (pl *NodeDeclaredFeatures) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
