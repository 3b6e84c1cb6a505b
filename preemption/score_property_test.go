package preemption

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestScoreOfVictimsMatchesPods: a dry run scores a node from the
// victims it holds (scoreOfVictims); the score is the one scoreOf reads
// from their pods, for victims of mixed priorities, with and without
// start times, from PodInfos built by NewPodInfo and as literals.
func TestScoreOfVictimsMatchesPods(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 6).Draw(t, "victims")
		vs := make([]victim, n)
		pods := make([]*api.Pod, n)
		for i := range n {
			p := &api.Pod{}
			p.Name = "p"
			if rapid.Bool().Draw(t, "hasPriority") {
				pr := rapid.Int32Range(-3, 3).Draw(t, "priority")
				p.Spec.Priority = &pr
			}
			if rapid.Bool().Draw(t, "hasStart") {
				st := api.NewTime(base.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "start")) * time.Second))
				p.Status.StartTime = &st
			}
			pi := &cluster.PodInfo{Pod: p}
			if rapid.Bool().Draw(t, "built") {
				pi = cluster.NewPodInfo(p)
			}
			pods[i], vs[i] = p, newVictim(pi, i)
		}
		violations := rapid.IntRange(0, n).Draw(t, "violations")
		if got, want := scoreOfVictims(vs, violations), scoreOf(pods, violations); got != want {
			t.Fatalf("scoreOfVictims = %v, scoreOf = %v", got, want)
		}
	})
}
