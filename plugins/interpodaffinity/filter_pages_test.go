package interpodaffinity

import (
	"testing"

	"pgregory.net/rapid"
)

// TestDomainCountsShare checks the paged counts against plain slices:
// copies that share pages, each then written, read as if each had been
// copied whole.
func TestDomainCountsShare(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3*countPage+7).Draw(t, "n")
		flat := make([]int64, n)
		for i := range flat {
			flat[i] = int64(rapid.IntRange(-2, 2).Draw(t, "v"))
		}
		counts := []domainCounts{pagedCounts(append([]int64(nil), flat...))}
		model := [][]int64{flat}
		for range rapid.IntRange(0, 40).Draw(t, "steps") {
			c := rapid.IntRange(0, len(counts)-1).Draw(t, "which")
			if rapid.Bool().Draw(t, "share") {
				counts = append(counts, counts[c].share())
				model = append(model, append([]int64(nil), model[c]...))
				continue
			}
			id := int32(rapid.IntRange(0, n-1).Draw(t, "id"))
			x := int64(rapid.IntRange(-3, 3).Draw(t, "x"))
			if old := counts[c].add(id, x); old != model[c][id] {
				t.Fatalf("add(%d): count before %d, want %d", id, old, model[c][id])
			}
			model[c][id] += x
		}
		for c := range counts {
			seen := 0
			counts[c].each(func(id int32, v int64) {
				seen++
				if v != model[c][id] {
					t.Fatalf("copy %d id %d: %d, want %d", c, id, v, model[c][id])
				}
			})
			for id, v := range model[c] {
				if got := counts[c].get(int32(id)); got != v {
					t.Fatalf("copy %d get(%d) = %d, want %d", c, id, got, v)
				}
				if v != 0 {
					seen--
				}
			}
			if seen != 0 {
				t.Fatalf("copy %d: each visited %d ids too many", c, seen)
			}
		}
	})
}
