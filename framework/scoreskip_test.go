package framework_test

import (
	"context"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// skipper is a Score plugin without PreScore whose Score is 0 for pods
// without the label "scored".
type skipper struct{ asked int }

func (s *skipper) Name() string { return "Skipper" }
func (s *skipper) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ *cluster.NodeInfo) (int64, *framework.Status) {
	if pod.Labels["scored"] == "" {
		return 0, nil
	}
	return 7, nil
}
func (s *skipper) ScoreExtensions() framework.ScoreExtensions { return nil }
func (s *skipper) SkipScore(_ *framework.CycleState, pod *api.Pod) bool {
	s.asked++
	return pod.Labels["scored"] == ""
}

// TestScoreSkipper: a ScoreSkipper is not listed at PreScore, is asked
// once per cycle where PreScore plugins run, and its Score is left out
// of the cycle when it says so, in the state as a PreScore Skip is.
func TestScoreSkipper(t *testing.T) {
	sk := &skipper{}
	p, err := newProfile(&testPlugin{name: "Other"}, sk)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ListPlugins()["PreScore"]; slices.Contains(got, "Skipper") {
		t.Fatalf("PreScore lists %v, want no Skipper", got)
	}
	if got := p.ListPlugins()["Score"]; !slices.Contains(got, "Skipper") {
		t.Fatalf("Score lists %v, want Skipper", got)
	}
	nodes := nodeInfos("a", "b")
	for _, tc := range []struct {
		labels map[string]string
		skip   bool
		score  int64
	}{{nil, true, 0}, {map[string]string{"scored": "yes"}, false, 7}} {
		sk.asked = 0
		state := framework.NewCycleState()
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Labels: tc.labels}}
		if st := p.RunPreScorePlugins(context.Background(), state, pod, nodes); !st.IsSuccess() {
			t.Fatal(st)
		}
		if sk.asked != 1 {
			t.Errorf("SkipScore asked %d times, want once", sk.asked)
		}
		if _, skipped := state.SkipScorePlugins["Skipper"]; skipped != tc.skip {
			t.Errorf("labels %v: skipped %v, want %v", tc.labels, skipped, tc.skip)
		}
		scores, st := p.RunScorePlugins(context.Background(), state, pod, nodes)
		if !st.IsSuccess() {
			t.Fatal(st)
		}
		found := false
		for _, ps := range scores[0].RawScores {
			if ps.Name == "Skipper" {
				found = true
				if ps.Score != tc.score {
					t.Errorf("labels %v: score %d, want %d", tc.labels, ps.Score, tc.score)
				}
			}
		}
		if found == tc.skip {
			t.Errorf("labels %v: Skipper scored %v, want %v", tc.labels, found, !tc.skip)
		}
	}
}
