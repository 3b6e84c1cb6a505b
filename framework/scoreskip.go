package framework

import (
	"context"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// addScoreSkippers puts every Score plugin that is a ScoreSkipper and
// not a PreScore plugin after the PreScore plugins, where the cycle
// asks it; ListPlugins does not list it there.
func (p *Profile) addScoreSkippers() {
	p.listedPreScore = len(p.preScore)
	for _, pl := range p.score {
		sk, ok := pl.(ScoreSkipper)
		if !ok || slices.ContainsFunc(p.preScore, func(ps PreScorePlugin) bool { return ps.Name() == pl.Name() }) {
			continue
		}
		p.preScore = append(p.preScore, scoreSkip{sk})
	}
}

// scoreSkip runs a ScoreSkipper's SkipScore as a PreScore.
type scoreSkip struct{ ScoreSkipper }

// PreScore returns Skip when SkipScore says so.
func (s scoreSkip) PreScore(_ context.Context, state *CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *Status {
	if s.SkipScore(state, pod) {
		return NewStatus(Skip)
	}
	return nil
}
