package priorities

import (
	"math"

	"github.com/schedkit/schedkit/framework"
)

// DefaultNormalizeScore scales scores in place so the highest becomes
// maxPriority (score*maxPriority/highest, integer division), and with
// reverse subtracts each from maxPriority. When every score is 0 they stay
// 0, or all become maxPriority with reverse. It is upstream's
// helper.DefaultNormalizeScore and always returns nil.
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores framework.NodeScoreList) *framework.Status {
	var highest int64
	for i := range scores {
		highest = max(highest, scores[i].Score)
	}
	for i := range scores {
		scores[i].Score = normalizeByMax(maxPriority, reverse, scores[i].Score, highest)
	}
	return nil
}

// DefaultNormalizeByMax is DefaultNormalizeScore for some of a cycle's
// scores, given highest, the highest of 0 and every node's raw score: it
// makes of each score what DefaultNormalizeScore makes of it over all
// the nodes. Plugins that normalise with DefaultNormalizeScore use it to
// offer framework.FastPath.NormalizeByMax.
func DefaultNormalizeByMax(maxPriority int64, reverse bool, scores []int64, highest int64) {
	for i, sc := range scores {
		scores[i] = normalizeByMax(maxPriority, reverse, sc, highest)
	}
}

// normalizeByMax is what DefaultNormalizeScore makes of score when the
// highest of 0 and every score is highest.
func normalizeByMax(maxPriority int64, reverse bool, score, highest int64) int64 {
	switch {
	case highest == 0 && reverse:
		return maxPriority
	case highest == 0:
		return score // every score is 0 or less: left as it is
	case reverse:
		return maxPriority - maxPriority*score/highest
	}
	return maxPriority * score / highest
}

// NormalizeMinMax is InterPodAffinity's normalisation as a plain
// function: each score becomes
// int64(100 * (float64(score-lowest) / float64(highest-lowest))), or 0
// when highest equals lowest.
func NormalizeMinMax(scores framework.NodeScoreList) {
	lowest, highest := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range scores {
		lowest = min(lowest, scores[i].Score)
		highest = max(highest, scores[i].Score)
	}
	for i := range scores {
		scores[i].Score = minMaxScaled(scores[i].Score, lowest, highest-lowest)
	}
}

// NormalizeMinMaxScores is NormalizeMinMax over raw scores alone, in
// place: the scores it makes are NormalizeMinMax's for the same list.
// Plugins that normalise with NormalizeMinMax use it to offer
// framework.FastPath.NormalizeNodes, which needs no node names.
func NormalizeMinMaxScores(scores []int64) {
	lowest, highest := int64(math.MaxInt64), int64(math.MinInt64)
	for _, sc := range scores {
		lowest = min(lowest, sc)
		highest = max(highest, sc)
	}
	for i, sc := range scores {
		scores[i] = minMaxScaled(sc, lowest, highest-lowest)
	}
}

// minMaxScaled is what NormalizeMinMax makes of score given the lowest
// score and the spread diff of the highest over it.
func minMaxScaled(score, lowest, diff int64) int64 {
	f := float64(0)
	if diff > 0 {
		f = float64(framework.MaxNodeScore) * (float64(score-lowest) / float64(diff))
	}
	return int64(f)
}
