package priorities

import (
	"github.com/schedkit/schedkit/framework"
)

// SelectorSpreadZoneWeighting is the share of a node's SelectorSpread
// score that comes from its zone when the scored nodes have zones; the
// node itself contributes the rest (1 − 2/3).
const SelectorSpreadZoneWeighting float64 = 2.0 / 3.0

// SelectorSpreadScore is SelectorSpread's normalisation of one node, as
// upstream's float arithmetic computes it: from the node's count of
// matching pods, the highest count of a scored node, and, when hasZone,
// its zone's count and the highest count of a zone,
//
//	node := 100·(maxNode−count)/maxNode   (100 when maxNode is 0)
//	zone := 100·(maxZone−zoneCount)/maxZone   (100 when maxZone is 0)
//	score := node·(1−2/3) + 2/3·zone   (node alone without a zone)
//
// truncated toward zero.
func SelectorSpreadScore(count, maxNode int64, hasZone bool, zoneCount, maxZone int64) int64 {
	maxScore := float64(framework.MaxNodeScore)
	f := maxScore
	if maxNode > 0 {
		f = maxScore * (float64(maxNode-count) / float64(maxNode))
	}
	if hasZone {
		z := maxScore
		if maxZone > 0 {
			z = maxScore * (float64(maxZone-zoneCount) / float64(maxZone))
		}
		f = (f * (1.0 - SelectorSpreadZoneWeighting)) + (SelectorSpreadZoneWeighting * z)
	}
	return int64(f)
}
