package preemption

import (
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

// TestNthByName: the selection finds the candidate a sort by node name
// puts k-th.
func TestNthByName(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		names := rapid.SliceOfNDistinct(rapid.IntRange(0, 1000), n, n, func(i int) int { return i }).Draw(t, "names")
		cands := make([]Candidate, n)
		for i, v := range names {
			cands[i].Node = fmt.Sprintf("node-%d", v)
		}
		tied := make([]int, 0, n)
		for i := range n {
			if i == 0 || rapid.IntRange(0, 3).Draw(t, "keep") > 0 {
				tied = append(tied, i)
			}
		}
		sorted := append([]int(nil), tied...)
		sort.Slice(sorted, func(a, b int) bool { return cands[sorted[a]].Node < cands[sorted[b]].Node })
		k := rapid.IntRange(0, len(tied)-1).Draw(t, "k")
		if got := nthByName(cands, tied, k); got != sorted[k] {
			t.Fatalf("k=%d: %s, want %s", k, cands[got].Node, cands[sorted[k]].Node)
		}
	})
}
