package nodeaffinity

import (
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.NodeAffinityName

// NodeAffinity is the NodeAffinity plugin. PreFilter compiles the pod's
// nodeSelector and required node affinity and narrows the nodes to those
// its matchFields name. Filter checks each node against them and against
// the added required affinity. Score favours nodes that match the pod's
// and the added preferred terms.
type NodeAffinity struct {
	// handle gives the snapshot whose topologies PreFilter reads; nil
	// in tests without one.
	handle         framework.Handle
	addedRequired  *affinity.NodeSelector
	addedPreferred *affinity.PreferredSchedulingTerms
}

var (
	_ framework.PreFilterPlugin   = (*NodeAffinity)(nil)
	_ framework.FilterPlugin      = (*NodeAffinity)(nil)
	_ framework.PreScorePlugin    = (*NodeAffinity)(nil)
	_ framework.ScorePlugin       = (*NodeAffinity)(nil)
	_ framework.ScoreExtensions   = (*NodeAffinity)(nil)
	_ framework.FastPathPlugin    = (*NodeAffinity)(nil)
	_ framework.EnqueueExtensions = (*NodeAffinity)(nil)
)

// New is the NodeAffinity factory. args is nil, a
// config.NodeAffinityArgs or a pointer to one. It is validated, and the
// added affinity is compiled, required terms first.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeAffinityArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &NodeAffinity{handle: h}
	if a.AddedAffinity == nil {
		return pl, nil
	}
	if r := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		pl.addedRequired, err = affinity.NewNodeSelector(r)
		if err != nil {
			return nil, fmt.Errorf("parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: %w", err)
		}
	}
	if p := a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution; len(p) != 0 {
		pl.addedPreferred, err = affinity.NewPreferredSchedulingTerms(p)
		if err != nil {
			return nil, fmt.Errorf("parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: %w", err)
		}
	}
	return pl, nil
}

// Name returns Name.
func (pl *NodeAffinity) Name() string { return Name }

// FastPath offers FilterNodes, ScoreNodes, NormalizeByMax and
// ScoresAnyNodes. ScoresAnyNodes holds because PreScore reads the pod's
// preferred terms alone and Score the node's labels.
func (pl *NodeAffinity) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true, NormalizeByMax: pl.NormalizeByMax, NodeLocalFilter: true}
}

// EventsToRegister returns NodeAdd and NodeUpdate. A new node may match
// the pod's affinity, and an update may change a node's labels.
func (pl *NodeAffinity) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
