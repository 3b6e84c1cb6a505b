package priorities

import (
	"testing"

	"github.com/schedkit/schedkit/framework"
)

// BenchmarkNormalizeScore normalizes 5000 node scores.
func BenchmarkNormalizeScore(b *testing.B) {
	scores := make(framework.NodeScoreList, 5000)
	b.ReportAllocs()
	for b.Loop() {
		for i := range scores {
			scores[i].Score = int64(i % 7)
		}
		DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
	}
}
