package podtopologyspread

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const spreadScoreStateKey framework.StateKey = "PreScore" + config.PodTopologySpreadName

// spreadScored is the raw score of a node PreScore was given and the
// node's position in the view's nodes (-1 if the view does not hold it).
type spreadScored struct {
	score int64
	view  int32
}

// spreadScoreState is what PreScore computes: the pod's ScheduleAnyway
// constraints, the nodes not scored, the weight of each constraint, the
// raw score of each node PreScore was given and, for other nodes, the
// matching pods per domain.
type spreadScoreState struct {
	constraints []affinity.SpreadConstraint
	// ignored are the nodes (by name) lacking some topology key; nil when
	// there are none.
	ignored map[string]struct{}
	weights []float64
	ns      string
	// base is the capacity of the node slice PreScore was given: a slice
	// nodes[a:] of it has capacity base-a, so ScoreNodes finds its
	// nodes' scores without a lookup (and checks the node against the
	// view's, which never change). numView is the view's number of
	// nodes.
	base    int
	view    *cluster.View
	numView int
	// inViewOrder is set when PreScore was given the view's nodes in
	// their order (not necessarily the same slice): the raw score of
	// the view's node p is then table[class of p in cls], cls being the
	// cache's chunks of classes, read only (score_class.go).
	inViewOrder bool
	cls         []*classChunk
	table       []int64
	// Otherwise scored[q] is the raw score of PreScore's node q, and
	// byView[p], built on Score's first call, the index in scored of the
	// view's node p, -1 if PreScore was not given it.
	scored     []spreadScored
	byViewOnce sync.Once
	byView     []int32
	// For a node PreScore was not given, constraint i (not
	// kubernetes.io/hostname) counts tot[i][id] for the node's domain id
	// in topos[i] (spreadScoreID, with noKey[i]) when registered[i] holds
	// that domain (one of a scored node's), else 0; topos, noKey and tot
	// are shared with the plugin's cache, read only. extra[i] are the
	// domains of scored nodes the snapshot's nodes do not have (nil
	// mostly).
	topos      []*cluster.Topology
	noKey      []int32
	tot        [][]int64
	registered [][]bool
	extra      []map[string]struct{}
}

// atView returns the raw score PreScore computed for the view's node p,
// which it was given in view order.
func (s *spreadScoreState) atView(p int) int64 {
	return s.table[s.cls[p>>classBits].v[p&classMask]]
}

// Clone returns s: the state is never modified after PreScore.
func (s *spreadScoreState) Clone() framework.StateData { return s }

func (s *spreadScoreState) isIgnored(name string) bool {
	if len(s.ignored) == 0 {
		return false
	}
	_, ok := s.ignored[name]
	return ok
}

// precomputed returns the raw score PreScore computed for ni, if it was
// given ni.
func (s *spreadScoreState) precomputed(ni *cluster.NodeInfo) (int64, bool) {
	hint := -1
	return s.lookup(&hint, ni)
}

// lookup is precomputed for ni, trying first the view's node after
// position *hint (a chunk of nodes is mostly consecutive nodes of the
// view, in its order), then the view's index of node names; it sets
// *hint to ni's position in the view when it finds it.
func (s *spreadScoreState) lookup(hint *int, ni *cluster.NodeInfo) (int64, bool) {
	p := *hint + 1
	if p >= s.numView {
		p = 0
	}
	if p < 0 || p >= s.numView || s.view.NodeAt(p) != ni {
		var ok bool
		if p, ok = s.view.Index(ni.Name()); !ok || p >= s.numView || s.view.NodeAt(p) != ni {
			return 0, false
		}
	}
	*hint = p
	if s.inViewOrder {
		return s.atView(p), true
	}
	s.byViewOnce.Do(func() {
		s.byView = make([]int32, s.view.NumNodes())
		for i := range s.byView {
			s.byView[i] = -1
		}
		for q := range s.scored {
			if v := s.scored[q].view; v >= 0 {
				s.byView[v] = int32(q)
			}
		}
	})
	if q := s.byView[p]; q >= 0 {
		return s.scored[q].score, true
	}
	return 0, false
}

// at returns the raw score PreScore computed for ni if ni is the node it
// was given at position q.
func (s *spreadScoreState) at(q int, ni *cluster.NodeInfo) (int64, bool) {
	if s.inViewOrder {
		if q < 0 || q >= s.numView || s.view.NodeAt(q) != ni {
			return 0, false
		}
		return s.atView(q), true
	}
	if q < 0 || q >= len(s.scored) {
		return 0, false
	}
	e := s.scored[q]
	if e.view < 0 || s.view.NodeAt(int(e.view)) != ni {
		return 0, false
	}
	return e.score, true
}

// score is Score for ni, from its labels and pods.
func (s *spreadScoreState) score(ni *cluster.NodeInfo) int64 {
	node := ni.Node()
	if s.isIgnored(node.Name) {
		return 0
	}
	var score float64
	for i := range s.constraints {
		c := &s.constraints[i]
		if _, ok := node.Labels[c.TopologyKey]; !ok {
			continue
		}
		var n int64
		if c.TopologyKey == affinity.LabelHostname {
			n = int64(cluster.CountSpreadPods(ni.Pods, c.Selector, s.ns))
		} else if id := spreadScoreID(s.topos[i], s.noKey[i], ni); id >= 0 && s.registered[i][id] {
			n = s.tot[i][id]
		}
		score += priorities.SpreadScoreForCount(n, c.MaxSkew, s.weights[i])
	}
	return roundScore(score)
}

// roundScore rounds a raw score as upstream does.
func roundScore(score float64) int64 { return int64(math.Round(score)) }

var errSpreadNoSnapshot = errors.New("getting all nodes: no snapshot")

// PreScore returns Skip when the snapshot has no nodes or the pod has no
// ScheduleAnyway constraints. Otherwise it finds the domains of the
// scored nodes (nodes lacking a topology key are not scored, unless the
// constraints are the system defaults: then a node without a zone is
// still spread by hostname) and counts, over every node of the snapshot
// that the node inclusion policies admit, the matching pods in each; for
// kubernetes.io/hostname constraints it counts the matching pods of each
// scored node; then it computes each given node's raw score. The counts
// are kept across cycles (see score_cache.go): a cycle
// recounts only the nodes that changed since the last cycle with the same
// constraints.
func (pl *PodTopologySpread) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *framework.Status {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return framework.AsStatus(errSpreadNoSnapshot)
	}
	view := pl.handle.Snapshot().View()
	if view.NumNodes() == 0 {
		return skipStatus
	}
	cs, err := spreadConstraints(pod, pl.defaults, view.Objects(), api.ScheduleAnyway)
	if err != nil {
		return framework.AsStatus(fmt.Errorf("calculating preScoreState: %w", err))
	}
	if len(cs) == 0 {
		return skipStatus
	}
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	k := len(cs)
	s := &spreadScoreState{constraints: cs, weights: make([]float64, k), ns: pod.Namespace,
		tot: make([][]int64, k), registered: make([][]bool, k)}
	pl.cache.scores(s, pod, view, nodes, requireAll)
	state.Write(spreadScoreStateKey, s)
	return nil
}

func readSpreadScoreState(state *framework.CycleState) (*spreadScoreState, error) {
	d, ok := state.Read(spreadScoreStateKey)
	if !ok {
		return nil, fmt.Errorf("error reading %q from cycleState: not found", spreadScoreStateKey)
	}
	s, ok := d.(*spreadScoreState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to podtopologyspread.preScoreState error", d)
	}
	return s, nil
}

// Score is the node's raw score: for each constraint whose key the node
// has, SpreadScoreForCount of its domain's count (for
// kubernetes.io/hostname, the node's own matching pods) with the
// constraint's weight, summed and rounded; 0 for a node not scored. For
// the nodes given to PreScore it reads the raw score PreScore computed
// (finding it through the view's index of node names), so that its cost
// does not depend on the pods of the node or of the cluster; its first
// call in a cycle allocates that index's inverse.
func (pl *PodTopologySpread) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	s, err := readSpreadScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	if score, ok := s.precomputed(nodeInfo); ok {
		return score, nil
	}
	return s.score(nodeInfo), nil
}

// ScoreNodes is Score for each node, reading the state once. For nodes
// sliced from the list PreScore was given it reads the raw score PreScore
// computed, so its cost per node depends neither on the node's pods nor
// on its labels; for other nodes PreScore was given (those of an eager
// run, in rotation order) it finds that score by the nodes' positions in
// the view, looking up by name only where a chunk's nodes are not
// consecutive there.
func (pl *PodTopologySpread) ScoreNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	s, err := readSpreadScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	off := s.base - cap(nodes)
	if s.inViewOrder {
		// The view's node p is expected next: nodes sliced from
		// PreScore's start at off, a chunk of another list (in rotation
		// order) runs along the view from its first node's position.
		p := off
		for i, ni := range nodes {
			if p < 0 || p >= s.numView || s.view.NodeAt(p) != ni {
				var ok bool
				if p, ok = s.view.Index(ni.Name()); !ok || p >= s.numView || s.view.NodeAt(p) != ni {
					scores[i], p = s.score(ni), -1
					continue
				}
			}
			scores[i] = s.atView(p)
			p++
		}
		return -1, nil
	}
	// Each node is looked up first the way the node before it was
	// found: by its position in PreScore's list (nodes sliced from it)
	// or along the view (a list of another order, as an eager cycle's
	// chunks).
	hint, viaAt := -1, true
	for i, ni := range nodes {
		if viaAt {
			if score, ok := s.at(off+i, ni); ok {
				scores[i] = score
				continue
			}
		}
		if score, ok := s.lookup(&hint, ni); ok {
			scores[i], viaAt = score, false
			continue
		}
		if !viaAt {
			if score, ok := s.at(off+i, ni); ok {
				scores[i], viaAt = score, true
				continue
			}
		}
		scores[i] = s.score(ni)
	}
	return -1, nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *PodTopologySpread) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore reverses and scales the raw scores as upstream: with
// the lowest and highest raw scores of the scored nodes, a node scores
// MaxNodeScore·(max+min−raw)/max (integer division), every node
// MaxNodeScore when max is 0, and nodes not scored 0.
func (pl *PodTopologySpread) NormalizeScore(_ context.Context, state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	s, err := readSpreadScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	var lo int64 = math.MaxInt64
	var hi int64
	for i := range scores {
		if s.isIgnored(scores[i].Name) {
			scores[i].Score = -1
			continue
		}
		lo, hi = min(lo, scores[i].Score), max(hi, scores[i].Score)
	}
	for i := range scores {
		switch {
		case scores[i].Score == -1:
			scores[i].Score = 0
		case hi == 0:
			scores[i].Score = framework.MaxNodeScore
		default:
			scores[i].Score = framework.MaxNodeScore * (hi + lo - scores[i].Score) / hi
		}
	}
	return nil
}

// NormalizeNodes is NormalizeScore over the raw scores of nodes, in
// place. It reads the nodes' names only when some node is not scored.
func (pl *PodTopologySpread) NormalizeNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, scores []int64) *framework.Status {
	s, err := readSpreadScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	some := len(s.ignored) > 0
	var lo int64 = math.MaxInt64
	var hi int64
	for i, sc := range scores {
		if some && s.isIgnored(nodes[i].Name()) {
			continue
		}
		lo, hi = min(lo, sc), max(hi, sc)
	}
	// Raw scores take few values (one per domain tuple and count): a
	// small memo saves most divisions.
	var memo [8]struct{ raw, norm int64 }
	for i := range memo {
		memo[i].raw = -1
	}
	for i, sc := range scores {
		switch {
		case some && s.isIgnored(nodes[i].Name()):
			scores[i] = 0
		case hi == 0:
			scores[i] = framework.MaxNodeScore
		default:
			m := &memo[sc&7]
			if m.raw != sc {
				m.raw, m.norm = sc, framework.MaxNodeScore*(hi+lo-sc)/hi
			}
			scores[i] = m.norm
		}
	}
	return nil
}
