package scheduler

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/framework"
)

// winnerUnder explains w's pod with a fresh scheduler whose default
// profile has score as its Score set on top of the defaults.
func winnerUnder(t *rapid.T, w whatIfWorld, score framework.PluginSet) string {
	s := w.scheduler(t, WithProfiles(framework.ProfileConfig{ExtensionPoints: &framework.ExtensionPoints{Score: score}}))
	defer s.Close()
	ex, err := s.Explain(context.Background(), w.pod)
	if err != nil {
		t.Fatal(err)
	}
	return ex.Node
}

// TestPropertyLeaveOneOutMatchesRescore: each plugin's winner without it
// is the winner of a profile whose Score set disables it, the flip weight
// makes FlipNode win under a profile with that weight, and every weight
// nearer to the plugin's own keeps the winner (a brute-force re-score by
// independent cycles).
func TestPropertyLeaveOneOutMatchesRescore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWhatIfWorld(t)
		s := w.scheduler(t)
		defer s.Close()
		ex, err := s.Explain(context.Background(), w.pod)
		if err != nil {
			t.Fatal(err)
		}
		loo := ex.LeaveOneOut()
		if ex.Node == "" || ex.ScoredForReport {
			if loo != nil {
				t.Fatalf("unscored cycle has leave-one-out %v", loo)
			}
			return
		}
		for _, inf := range loo {
			if got := winnerUnder(t, w, framework.PluginSet{Disabled: []string{inf.Plugin}}); got != inf.Without {
				t.Fatalf("%s left out: winner %s, LeaveOneOut says %s", inf.Plugin, got, inf.Without)
			}
			weight := func(v int64) string {
				return winnerUnder(t, w, framework.PluginSet{Enabled: []framework.PluginRef{{Name: inf.Plugin, Weight: int32(v)}}})
			}
			if inf.FlipWeight == 0 {
				for _, v := range []int64{1, 2, inf.Weight + 1, 100, 10000} {
					if got := weight(v); got != ex.Node {
						t.Fatalf("%s weight %d: winner %s, LeaveOneOut says no weight flips %s", inf.Plugin, v, got, ex.Node)
					}
				}
				continue
			}
			if got := weight(inf.FlipWeight); got != inf.FlipNode {
				t.Fatalf("%s weight %d: winner %s, LeaveOneOut says %s", inf.Plugin, inf.FlipWeight, got, inf.FlipNode)
			}
			d := absDiff(inf.FlipWeight, inf.Weight)
			for v := max(1, inf.Weight-d+1); v < inf.Weight+d && v-inf.Weight < 40; v++ {
				if v == inf.FlipWeight || inf.Weight-v > 40 {
					continue
				}
				// The lower of two weights as near wins: inf.Weight-d is
				// nearer only when it is the flip weight itself.
				if got := weight(v); got != ex.Node {
					t.Fatalf("%s weight %d (nearer than %d): winner %s, not %s", inf.Plugin, v, inf.FlipWeight, got, ex.Node)
				}
			}
		}
	})
}

// TestFlipWeight pins the crossing arithmetic on hand-made totals.
func TestFlipWeight(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rest, score []int64
		cur         int
		w           int64
		want        int64
		at          int
	}{
		// cur leads by 10 on the rest and 5 on the plugin at weight 1:
		// node 1 never catches up as the weight grows; nothing flips.
		{"dominant", []int64{100, 90}, []int64{50, 45}, 0, 1, 0, 0},
		// node 1 scores 10 more on the plugin, cur 30 more elsewhere: at
		// weight 3 they tie and the heap keeps node 0 (the root); at 4
		// node 1 wins.
		{"raise", []int64{130, 100}, []int64{0, 10}, 0, 1, 4, 1},
		// cur wins by its plugin score at weight 5; at 3 they tie and
		// the root keeps cur; at 2 node 1 wins.
		{"lower", []int64{100, 130}, []int64{10, 0}, 0, 5, 2, 1},
	} {
		got, at := flipWeight(tc.rest, tc.score, make([]int64, len(tc.rest)), tc.cur, tc.w)
		if got != tc.want || (got != 0 && at != tc.at) {
			t.Errorf("%s: weight %d node %d, want %d node %d", tc.name, got, at, tc.want, tc.at)
		}
	}
}
