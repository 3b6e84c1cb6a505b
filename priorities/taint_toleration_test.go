package priorities

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

func nodeWithTaints(name string, ts []api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Taints: ts}}
}

func podWithTolerations(name string, tols []api.Toleration) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{Tolerations: tols}}
}

// Pins upstream helper/normalize_score_test.go TestDefaultNormalizeScore.
func TestDefaultNormalizeScore(t *testing.T) {
	tests := []struct {
		reverse        bool
		scores, expect []int64
	}{
		{false, []int64{1, 2, 3, 4}, []int64{25, 50, 75, 100}},
		{true, []int64{1, 2, 3, 4}, []int64{75, 50, 25, 0}},
		{false, []int64{1000, 10, 20, 30}, []int64{100, 1, 2, 3}},
		{true, []int64{1000, 10, 20, 30}, []int64{0, 99, 98, 97}},
		{false, []int64{1, 1, 1, 1}, []int64{100, 100, 100, 100}},
		{false, []int64{1000, 1, 1, 1}, []int64{100, 0, 0, 0}},
		{true, []int64{0, 1, 1, 1}, []int64{100, 0, 0, 0}},
		{false, []int64{0, 0, 0, 0}, []int64{0, 0, 0, 0}},
		{true, []int64{0, 0, 0, 0}, []int64{100, 100, 100, 100}},
	}
	for i, tc := range tests {
		var scores, want framework.NodeScoreList
		for j := range tc.scores {
			scores = append(scores, framework.NodeScore{Score: tc.scores[j]})
			want = append(want, framework.NodeScore{Score: tc.expect[j]})
		}
		if st := DefaultNormalizeScore(framework.MaxNodeScore, tc.reverse, scores); st != nil {
			t.Fatal(st)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkScores(t, scores, want) })
	}
}

func ExampleDefaultNormalizeScore() {
	scores := framework.NodeScoreList{{Name: "a", Score: 0}, {Name: "b", Score: 1}, {Name: "c", Score: 3}}
	DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
	fmt.Println(scores)
	// Output: [{a 100} {b 67} {c 0}]
}

func ExampleTaintToleration() {
	node := nodeWithTaints("n1", []api.Taint{
		{Key: "spot", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "old-kernel", Effect: api.TaintEffectPreferNoSchedule},
	})
	pod := podWithTolerations("web", []api.Toleration{{Key: "spot", Operator: api.TolerationOpExists}})
	fmt.Println(TaintToleration(pod, node))
	// Output: 1
}
