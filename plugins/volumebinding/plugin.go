package volumebinding

import (
	"sync"

	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// Name is the plugin's name in a profile.
const Name = config.VolumeBindingName

// VolumeBinding is the VolumeBinding plugin. PreFilter resolves the
// pod's claims and Filter checks that each node can bind or provision
// them. Score rates a node by the capacity its matched volumes would
// use, with the configured shape.
type VolumeBinding struct {
	h      framework.Handle
	scorer priorities.VolumeCapacityScorer
	// groups pools Score's per-node groupings (*classGroups).
	groups sync.Pool
}

var (
	_ framework.PreFilterPlugin   = (*VolumeBinding)(nil)
	_ framework.FilterPlugin      = (*VolumeBinding)(nil)
	_ framework.PreScorePlugin    = (*VolumeBinding)(nil)
	_ framework.ScorePlugin       = (*VolumeBinding)(nil)
	_ framework.FastPathPlugin    = (*VolumeBinding)(nil)
	_ framework.EnqueueExtensions = (*VolumeBinding)(nil)
)

// New is the VolumeBinding factory. args is nil, a
// config.VolumeBindingArgs or a pointer to one. It is defaulted and
// validated. Claims, volumes and classes are read from h's snapshot.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.VolumeBindingArgsFrom(args)
	if err != nil {
		return nil, err
	}
	return &VolumeBinding{h: h, scorer: priorities.NewVolumeCapacityScorer(a.Shape)}, nil
}

// Name returns Name.
func (pl *VolumeBinding) Name() string { return Name }

// EventsToRegister returns NodeAdd and NodeUpdate. A new node or a
// node's new labels may match a volume's node affinity.
func (pl *VolumeBinding) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
