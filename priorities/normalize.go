package priorities

import "github.com/schedkit/schedkit/framework"

// DefaultNormalizeScore scales scores in place so the highest becomes
// maxPriority (score*maxPriority/highest, integer division), and with
// reverse subtracts each from maxPriority. When every score is 0 they stay
// 0, or all become maxPriority with reverse. It is upstream's
// helper.DefaultNormalizeScore and always returns nil.
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores framework.NodeScoreList) *framework.Status {
	var maxCount int64
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		score := maxPriority * scores[i].Score / maxCount
		if reverse {
			score = maxPriority - score
		}
		scores[i].Score = score
	}
	return nil
}

// DefaultNormalizeByMax is DefaultNormalizeScore for some of a cycle's
// scores, given highest, the highest of 0 and every node's raw score: it
// makes of each score what DefaultNormalizeScore makes of it over all
// the nodes. Plugins that normalise with DefaultNormalizeScore use it to
// implement framework.MaxNormalizer.
func DefaultNormalizeByMax(maxPriority int64, reverse bool, scores []int64, highest int64) {
	if highest == 0 {
		if reverse {
			for i := range scores {
				scores[i] = maxPriority
			}
		}
		return
	}
	for i, sc := range scores {
		sc = maxPriority * sc / highest
		if reverse {
			sc = maxPriority - sc
		}
		scores[i] = sc
	}
}
