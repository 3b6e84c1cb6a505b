package priorities

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

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

// NormalizeMinMaxScores makes of raw scores what NormalizeMinMax makes
// of the same scores in a NodeScoreList.
func TestNormalizeMinMaxScoresAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := rapid.SliceOfN(rapid.Int64Range(-1<<40, 1<<40), 1, 64).Draw(t, "scores")
		l := make(framework.NodeScoreList, len(raw))
		for i, sc := range raw {
			l[i] = framework.NodeScore{Name: fmt.Sprint(i), Score: sc}
		}
		NormalizeMinMax(l)
		row := slices.Clone(raw)
		NormalizeMinMaxScores(row)
		for i := range row {
			if row[i] != l[i].Score {
				t.Fatalf("score %d of %v: NormalizeMinMaxScores %d, NormalizeMinMax %d", i, raw, row[i], l[i].Score)
			}
		}
	})
}
