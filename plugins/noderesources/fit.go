package noderesources

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/priorities"
)

// Names of the two plugins in a profile.
const (
	FitName                = config.NodeResourcesFitName
	BalancedAllocationName = config.NodeResourcesBalancedAllocationName
)

// Fit is the NodeResourcesFit plugin. PreFilter computes the pod's
// request and Filter checks it against each node's free allocatable
// resources. Score rates nodes with the configured strategy over the
// configured resources.
type Fit struct {
	h        framework.Handle
	ignore   predicates.IgnoreSet
	strategy config.ScoringStrategyType
	scorer   priorities.AllocationScorer
	shape    priorities.FunctionShape
	dra      *draScoring
}

var (
	_ framework.PreFilterPlugin   = (*Fit)(nil)
	_ framework.FilterPlugin      = (*Fit)(nil)
	_ framework.PreScorePlugin    = (*Fit)(nil)
	_ framework.ScorePlugin       = (*Fit)(nil)
	_ framework.FastPathPlugin    = (*Fit)(nil)
	_ framework.EnqueueExtensions = (*Fit)(nil)
)

// NewFit is the NodeResourcesFit factory. args is nil, a
// config.NodeResourcesFitArgs or a pointer to one. It is defaulted and
// validated (see config.ArgsFrom), then its scoring strategy is checked.
func NewFit(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeResourcesFitArgs](args)
	if err != nil {
		return nil, err
	}
	pl, err := newFit(a.IgnoredResources, a.IgnoredResourceGroups, a.ScoringStrategy)
	if err != nil {
		return nil, err
	}
	pl.h = h
	pl.dra = newDRAScoring(h, pl.scorer.Resources())
	return pl, nil
}

// newFit builds the plugin from arguments already defaulted and
// validated.
func newFit(ignoredResources, ignoredGroups []string, s *config.ScoringStrategy) (*Fit, error) {
	if s == nil {
		return nil, fmt.Errorf("scoring strategy not specified")
	}
	pl := &Fit{
		ignore:   predicates.NewIgnoreSet(ignoredResources, ignoredGroups),
		strategy: s.Type,
		scorer:   priorities.NewFitScorer(s.Resources),
	}
	switch s.Type {
	case config.LeastAllocated, config.MostAllocated:
	case config.RequestedToCapacityRatio:
		pl.shape = priorities.ScaleShape(s.RequestedToCapacityRatio.Shape)
	default:
		return nil, fmt.Errorf("scoring strategy %s is not supported", s.Type)
	}
	return pl, nil
}

// Name returns FitName.
func (pl *Fit) Name() string { return FitName }

// FastPath offers FilterNodes, ScoreNodes and ScoresAnyNodes.
// ScoresAnyNodes holds because PreScore computes the pod's requests and
// Score reads the node alone.
func (pl *Fit) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true, NodeLocalFilter: true}
}

// ScoredResources returns the resources the scoring strategy scores.
func (pl *Fit) ScoredResources() []api.ResourceName { return pl.scorer.Resources() }
