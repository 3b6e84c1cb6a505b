package priorities

import (
	"math"
)

// SpreadTopologyWeight is the weight PodTopologySpread gives the counts of
// a constraint whose topology has size domains (for kubernetes.io/hostname,
// the number of scored nodes): log(size+2), so that the counts of small
// topologies are not watered down by big ones.
func SpreadTopologyWeight(size int) float64 { return math.Log(float64(size + 2)) }

// SpreadScoreForCount is the contribution of a domain with count matching
// pods to a node's raw score: count·weight + maxSkew−1 (the maxSkew term
// makes the score more tolerant of skew).
func SpreadScoreForCount(count int64, maxSkew int32, weight float64) float64 {
	return float64(count)*weight + float64(maxSkew-1)
}
