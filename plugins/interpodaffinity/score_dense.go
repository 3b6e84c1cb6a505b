package interpodaffinity

import (
	"github.com/schedkit/schedkit/cluster"
)

// denseScore is one topology key's domain scores over the view's
// numbered domains (cluster.Topology): the summed weight by domain id.
type denseScore struct {
	topo *cluster.Topology
	w    []int64
}

// newDenseScores indexes s's scores by the view's domain ids; nil when a
// scored value is no domain of the view, and score then reads the maps.
func newDenseScores(s *interPodAffinityScoreState, view *cluster.View) []denseScore {
	out := make([]denseScore, len(s.scores))
	for i := range s.scores {
		t := view.Topology(s.scores[i].key)
		out[i] = denseScore{topo: t, w: make([]int64, t.NumIDs())}
		for v, n := range s.scores[i].values {
			id, ok := t.Lookup(v)
			if !ok {
				return nil
			}
			out[i].w[id] = n
		}
	}
	return out
}

// sameTopologies reports whether d was built over view's topologies.
func sameTopologies(d []denseScore, view *cluster.View) bool {
	for i := range d {
		if view.Topology(d[i].topo.Key()) != d[i].topo {
			return false
		}
	}
	return true
}

// scoreNode is score for a NodeInfo, by the dense scores when there are.
func (s *interPodAffinityScoreState) scoreNode(ni *cluster.NodeInfo) int64 {
	if s.dense == nil || ni.Node() == nil {
		return s.score(ni.Node())
	}
	var sum int64
	for i := range s.dense {
		d := &s.dense[i]
		if id := d.topo.ID(ni); id >= 0 {
			sum += d.w[id]
		}
	}
	return sum
}
