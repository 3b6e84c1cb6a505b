package podtopologyspread

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.PodTopologySpreadName

// PodTopologySpread is the PodTopologySpread plugin. Filter refuses
// nodes where the pod would break a DoNotSchedule constraint. Score
// favours nodes whose domains hold fewer pods matching the pod's
// ScheduleAnyway constraints: its own, or the system or listed defaults.
type PodTopologySpread struct {
	defaults        []api.TopologySpreadConstraint
	systemDefaulted bool
	handle          framework.Handle

	// cache holds both halves' counts of the last constraint sets (see
	// cache.go).
	cache spreadCache
}

var (
	_ framework.PreFilterPlugin     = (*PodTopologySpread)(nil)
	_ framework.PreFilterExtensions = (*PodTopologySpread)(nil)
	_ framework.FilterPlugin        = (*PodTopologySpread)(nil)
	_ framework.PreScorePlugin      = (*PodTopologySpread)(nil)
	_ framework.ScorePlugin         = (*PodTopologySpread)(nil)
	_ framework.ScoreExtensions     = (*PodTopologySpread)(nil)
	_ framework.FastPathPlugin      = (*PodTopologySpread)(nil)
	_ framework.EnqueueExtensions   = (*PodTopologySpread)(nil)
)

// New is the PodTopologySpread factory. args is nil, a
// config.PodTopologySpreadArgs or a pointer to one. It is defaulted
// (System) and validated. The workload objects of the default
// constraints are read from the handle's snapshot.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.PodTopologySpreadArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &PodTopologySpread{defaults: a.DefaultConstraints, handle: h}
	if a.DefaultingType == config.SystemDefaulting {
		pl.defaults, pl.systemDefaulted = config.SystemDefaultConstraints(), true
	}
	return pl, nil
}

// Name returns Name.
func (pl *PodTopologySpread) Name() string { return Name }

// FastPath offers FilterNodes, ScoreNodes, NormalizeNodes and
// ScoresIfAllFit. NormalizeScore is not by max, it reads the lowest
// score too. PreScore
// depends on the set of nodes Filter passed (the weights count the
// scored nodes' domains), not on their order, and it reads nothing
// from the cycle state: given every node filtered, it computes what it
// computes after Filter when all of them pass, so ScoresIfAllFit holds.
func (pl *PodTopologySpread) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoreNodes: pl.ScoreNodes, NormalizeNodes: pl.NormalizeNodes, ScoresIfAllFit: true}
}

// EventsToRegister returns the three node events and the three
// assigned-pod events. A node that comes, changes labels or goes changes
// the domains, and a pod that comes, changes labels or goes changes the
// counts.
func (pl *PodTopologySpread) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate | framework.NodeDelete | framework.AssignedPodAdd | framework.AssignedPodUpdate | framework.AssignedPodDelete
}
