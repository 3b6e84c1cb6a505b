package tainttoleration

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.TaintTolerationName

// TaintToleration is the TaintToleration plugin. Filter rejects a node
// with a NoSchedule or NoExecute taint the pod does not tolerate. Score
// prefers nodes with fewer PreferNoSchedule taints the pod does not
// tolerate.
type TaintToleration struct{}

var (
	_ framework.FilterPlugin      = (*TaintToleration)(nil)
	_ framework.PreScorePlugin    = (*TaintToleration)(nil)
	_ framework.ScorePlugin       = (*TaintToleration)(nil)
	_ framework.ScoreExtensions   = (*TaintToleration)(nil)
	_ framework.FastPathPlugin    = (*TaintToleration)(nil)
	_ framework.EnqueueExtensions = (*TaintToleration)(nil)
)

// New is the TaintToleration factory. TaintToleration takes no
// arguments; args is ignored.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &TaintToleration{}, nil
}

// Name returns Name.
func (pl *TaintToleration) Name() string { return Name }

// FastPath offers FilterNodes, ScoreNodes, NormalizeByMax and
// ScoresAnyNodes. ScoresAnyNodes holds because PreScore reads the pod's
// tolerations alone and Score the node's taints.
func (pl *TaintToleration) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true, NormalizeByMax: pl.NormalizeByMax, NodeLocalFilter: true}
}

// EventsToRegister returns NodeAdd and NodeUpdate. A new node may lack
// the taint, and an update may remove it.
func (pl *TaintToleration) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}
