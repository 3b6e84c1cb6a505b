package scheduler

import (
	"math"
	"slices"
)

// PluginInfluence is what one Score plugin did to a pod's winner: the
// node that wins without its scores, and the nearest weight that makes
// another node win. Explanation.LeaveOneOut computes it.
type PluginInfluence struct {
	// Plugin is the Score plugin's name; Weight its weight in the
	// profile.
	Plugin string `json:"plugin"`
	Weight int64  `json:"weight"`
	// Without is the node that wins with the plugin's scores left out
	// of every total. It differs from the winner when the plugin
	// decided it.
	Without string `json:"without"`
	// FlipWeight is the integer weight nearest to Weight (the lower of
	// two as near) under which another node, FlipNode, wins; weights
	// run from 1 to math.MaxInt32, as a profile takes them. It is 0 and
	// FlipNode "" when no weight changes the winner.
	FlipWeight int64  `json:"flipWeight,omitempty"`
	FlipNode   string `json:"flipNode,omitempty"`
}

// LeaveOneOut answers, for a pod the cycle placed after scoring, which
// Score plugin decided the winner: for each plugin in the profile's
// order, the winner with its scores left out, and the smallest change of
// its weight that would make another node win. The totals are the
// explanation's own (normalisation is per plugin, so leaving one out or
// reweighting it leaves the others' scores as they are), the nodes those
// the cycle scored, in its order, and ties are broken as
// TieBreakUpstream breaks them. It is nil when the cycle did not score:
// the pod is not placed, or one node was feasible.
func (ex *Explanation) LeaveOneOut() []PluginInfluence {
	if ex.Node == "" || ex.ScoredForReport {
		return nil
	}
	var nodes []*NodeExplanation
	cur := -1
	for i := range ex.Nodes {
		if n := &ex.Nodes[i]; n.Feasible && len(n.Scores) > 0 {
			if n.Name == ex.Node {
				cur = len(nodes)
			}
			nodes = append(nodes, n)
		}
	}
	if cur < 0 || len(nodes) < 2 {
		return nil
	}
	out := make([]PluginInfluence, 0, len(nodes[0].Scores))
	rest := make([]int64, len(nodes))
	score := make([]int64, len(nodes))
	totals := make([]int64, len(nodes))
	for j, ps := range nodes[0].Scores {
		for i, n := range nodes {
			rest[i], score[i] = n.Total-n.Scores[j].Weighted, n.Scores[j].Normalized
		}
		inf := PluginInfluence{Plugin: ps.Plugin, Weight: ps.Weight, Without: nodes[heapRootOf(rest)].Name}
		if w, at := flipWeight(rest, score, totals, cur, ps.Weight); w > 0 {
			inf.FlipWeight, inf.FlipNode = w, nodes[at].Name
		}
		out = append(out, inf)
	}
	return out
}

// flipWeight is the weight nearest w, in [1, math.MaxInt32], under which
// node cur no longer wins when node i's total is rest[i]+weight*score[i],
// and the node that wins then; 0 when none. Another node can win only
// where its line meets or passes cur's: the candidates are the integers
// around each crossing, tried nearest first. totals is scratch.
func flipWeight(rest, score, totals []int64, cur int, w int64) (int64, int) {
	var cands []int64
	add := func(c int64) {
		if c >= 1 && c <= math.MaxInt32 && c != w {
			cands = append(cands, c)
		}
	}
	for i := range rest {
		d := score[i] - score[cur]
		if d == 0 {
			continue
		}
		// The lines cross at (rest[cur]-rest[i])/d.
		num := rest[cur] - rest[i]
		f := floorDiv(num, d)
		add(f)
		add(f + 1)
		add(f - 1)
		if f < 1 {
			add(1)
		}
		if f > math.MaxInt32 {
			add(math.MaxInt32)
		}
	}
	slices.SortFunc(cands, func(a, b int64) int {
		da, db := absDiff(a, w), absDiff(b, w)
		if da != db {
			return int(sign(da - db))
		}
		return int(sign(a - b))
	})
	cands = slices.Compact(cands)
	for _, c := range cands {
		top := rest[cur] + c*score[cur]
		contested := false
		for i := range rest {
			totals[i] = rest[i] + c*score[i]
			if i != cur && totals[i] >= top {
				contested = true
			}
		}
		if !contested {
			continue
		}
		if at := heapRootOf(totals); at != cur {
			return c, at
		}
	}
	return 0, 0
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

func sign(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
