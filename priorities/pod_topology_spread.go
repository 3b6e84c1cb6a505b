package priorities

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// SpreadTopologyWeight is the weight PodTopologySpread gives the counts of
// a constraint whose topology has size domains (for kubernetes.io/hostname,
// the number of scored nodes): log(size+2), so that the counts of small
// topologies are not watered down by big ones.
func SpreadTopologyWeight(size int) float64 { return math.Log(float64(size + 2)) }

// SpreadScoreForCount is the contribution of a domain with count matching
// pods to a node's raw score: count·weight + maxSkew−1 (the maxSkew term
// makes the score more tolerant of skew).
func SpreadScoreForCount(count int64, maxSkew int32, weight float64) float64 {
	return float64(count)*weight + float64(maxSkew-1)
}

const spreadScoreStateKey framework.StateKey = "PreScore" + config.PodTopologySpreadName

// spreadScoreState is what PreScore computes: the pod's ScheduleAnyway
// constraints, the nodes not scored, the matching pods per domain and the
// weight of each constraint.
type spreadScoreState struct {
	constraints []affinity.SpreadConstraint
	// ignored are the nodes (by name) lacking some topology key; nil when
	// there are none.
	ignored map[string]struct{}
	// counts[i] maps each domain of a scored node to its matching pods;
	// nil for kubernetes.io/hostname, counted per node.
	counts []map[string]int64
	// nodeCounts[i], for a kubernetes.io/hostname constraint, holds the
	// matching pods of each scored node, at the node's index in view
	// (-1 for nodes not counted), counted once in PreScore (upstream
	// counts them in Score) so that Score's cost does not grow with the
	// node's pods; nil for the other constraints.
	nodeCounts [][]int32
	view       *cluster.View
	weights    []float64
	ns         string
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

// PodTopologySpreadPlugin is the score half of PodTopologySpread: it
// favours nodes whose domains hold fewer pods matching the pod's
// ScheduleAnyway constraints (its own, or the system or listed defaults).
type PodTopologySpreadPlugin struct {
	defaults        []api.TopologySpreadConstraint
	systemDefaulted bool
	handle          framework.Handle
}

var (
	_ framework.PreScorePlugin  = (*PodTopologySpreadPlugin)(nil)
	_ framework.ScorePlugin     = (*PodTopologySpreadPlugin)(nil)
	_ framework.ScoreExtensions = (*PodTopologySpreadPlugin)(nil)
)

// NewPodTopologySpread is the factory of PodTopologySpread's score half;
// see predicates.NewPodTopologySpread.
func NewPodTopologySpread(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.PodTopologySpreadArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &PodTopologySpreadPlugin{defaults: a.DefaultConstraints, handle: h}
	if a.DefaultingType == config.SystemDefaulting {
		pl.defaults, pl.systemDefaulted = config.SystemDefaultConstraints(), true
	}
	return pl, nil
}

// Name returns config.PodTopologySpreadName.
func (*PodTopologySpreadPlugin) Name() string { return config.PodTopologySpreadName }

var errSpreadNoSnapshot = errors.New("getting all nodes: no snapshot")

// PreScore returns Skip when the snapshot has no nodes or the pod has no
// ScheduleAnyway constraints. Otherwise it finds the domains of the
// scored nodes (nodes lacking a topology key are not scored, unless the
// constraints are the system defaults: then a node without a zone is
// still spread by hostname) and counts, over every node of the snapshot
// that the node inclusion policies admit, the matching pods in each; for
// kubernetes.io/hostname constraints it counts the matching pods of each
// scored node.
func (pl *PodTopologySpreadPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *framework.Status {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return framework.AsStatus(errSpreadNoSnapshot)
	}
	view := pl.handle.Snapshot().View()
	if view.NumNodes() == 0 {
		return skipStatus
	}
	cs, err := cluster.SpreadConstraints(pod, pl.defaults, view.Objects(), api.ScheduleAnyway)
	if err != nil {
		return framework.AsStatus(fmt.Errorf("calculating preScoreState: %w", err))
	}
	if len(cs) == 0 {
		return skipStatus
	}
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	s := &spreadScoreState{constraints: cs, counts: make([]map[string]int64, len(cs)), nodeCounts: make([][]int32, len(cs)),
		view: view, weights: make([]float64, len(cs)), ns: pod.Namespace}
	for i := range cs {
		if cs[i].TopologyKey != affinity.LabelHostname {
			s.counts[i] = map[string]int64{}
			continue
		}
		s.nodeCounts[i] = make([]int32, view.NumNodes())
		for j := range s.nodeCounts[i] {
			s.nodeCounts[i][j] = -1
		}
	}
	for _, ni := range nodes {
		node := ni.Node()
		if requireAll && !cluster.HasSpreadKeys(node, cs) {
			if s.ignored == nil {
				s.ignored = map[string]struct{}{}
			}
			s.ignored[node.Name] = struct{}{}
			continue
		}
		for i := range cs {
			if s.counts[i] != nil {
				s.counts[i][node.Labels[cs[i].TopologyKey]] += 0
			} else if j, ok := view.Index(node.Name); ok {
				s.nodeCounts[i][j] = int32(cluster.CountSpreadPods(ni.Pods, cs[i].Selector, pod.Namespace))
			}
		}
	}
	for i := range cs {
		size := len(s.counts[i])
		if s.counts[i] == nil {
			size = len(nodes) - len(s.ignored)
		}
		s.weights[i] = SpreadTopologyWeight(size)
	}
	required := affinity.GetRequiredNodeAffinity(pod)
	for _, ni := range view.Nodes() {
		node := ni.Node()
		if requireAll && !cluster.HasSpreadKeys(node, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if s.counts[i] == nil || !cluster.SpreadNodeIncluded(c, pod, node, &required) {
				continue
			}
			v := node.Labels[c.TopologyKey]
			if n, ok := s.counts[i][v]; ok {
				s.counts[i][v] = n + int64(cluster.CountSpreadPods(ni.Pods, c.Selector, pod.Namespace))
			}
		}
	}
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
// kubernetes.io/hostname, the node's own matching pods, as PreScore
// counted them for the nodes it was given, or counted here for another
// node) with the constraint's weight, summed and rounded; 0 for a node
// not scored. It allocates nothing and, for the nodes given to PreScore,
// its cost does not depend on the pods of the node or of the cluster.
func (pl *PodTopologySpreadPlugin) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	s, err := readSpreadScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	node := nodeInfo.Node()
	if s.isIgnored(node.Name) {
		return 0, nil
	}
	var score float64
	for i := range s.constraints {
		c := &s.constraints[i]
		v, ok := node.Labels[c.TopologyKey]
		if !ok {
			continue
		}
		var n int64
		if s.counts[i] == nil {
			n = -1
			if j, ok := s.view.Index(node.Name); ok {
				n = int64(s.nodeCounts[i][j])
			}
			if n < 0 {
				n = int64(cluster.CountSpreadPods(nodeInfo.Pods, c.Selector, s.ns))
			}
		} else {
			n = s.counts[i][v]
		}
		score += SpreadScoreForCount(n, c.MaxSkew, s.weights[i])
	}
	return int64(math.Round(score)), nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *PodTopologySpreadPlugin) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore reverses and scales the raw scores as upstream: with
// the lowest and highest raw scores of the scored nodes, a node scores
// MaxNodeScore·(max+min−raw)/max (integer division), every node
// MaxNodeScore when max is 0, and nodes not scored 0.
func (pl *PodTopologySpreadPlugin) NormalizeScore(_ context.Context, state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
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
