package predicates

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Reasons of the PodTopologySpread filter, as upstream's.
const (
	// ErrReasonConstraintsNotMatch is the reason when placing the pod on
	// the node would exceed a constraint's maxSkew.
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	// ErrReasonNodeLabelNotMatch is the reason when the node lacks a
	// constraint's topology key.
	ErrReasonNodeLabelNotMatch = ErrReasonConstraintsNotMatch + " (missing required label)"
)

var (
	spreadSkewStatus  = framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch)
	spreadLabelStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch)
)

// criticalPaths keeps two domains with few matching pods, as upstream's
// criticalPaths: [0] always has the minimum count; [1] has a count no
// smaller. Updated incrementally by AddPod and RemovePod.
type criticalPaths [2]struct {
	value string
	count int
}

func newCriticalPaths() criticalPaths {
	return criticalPaths{{count: math.MaxInt32}, {count: math.MaxInt32}}
}

// update records that the domain value now has count pods, exactly as
// upstream's criticalPaths.update.
func (p *criticalPaths) update(value string, count int) {
	i := -1
	switch value {
	case p[0].value:
		i = 0
	case p[1].value:
		i = 1
	}
	if i >= 0 {
		p[i].count = count
		if p[0].count > p[1].count {
			p[0], p[1] = p[1], p[0]
		}
		return
	}
	switch {
	case count < p[0].count:
		p[1] = p[0]
		p[0].value, p[0].count = value, count
	case count < p[1].count:
		p[1].value, p[1].count = value, count
	}
}

const spreadFilterStateKey framework.StateKey = "PreFilter" + config.PodTopologySpreadName

// spreadFilterState is what PreFilter computes: the pod's hard
// constraints, the number of matching pods per domain of each (every
// eligible domain has an entry, possibly 0) and its critical paths.
type spreadFilterState struct {
	constraints []affinity.SpreadConstraint
	counts      []map[string]int
	paths       []criticalPaths
	// selfMatch[i] is whether the incoming pod matches constraint i.
	selfMatch []bool
	// required is the pod's compiled required node affinity.
	required affinity.RequiredNodeAffinity
}

// Clone copies the counts, which AddPod and RemovePod change.
func (s *spreadFilterState) Clone() framework.StateData {
	c := *s
	c.counts = make([]map[string]int, len(s.counts))
	for i, m := range s.counts {
		c.counts[i] = maps.Clone(m)
	}
	c.paths = append([]criticalPaths(nil), s.paths...)
	return &c
}

// minCount is the global minimum of constraint i: the smallest count over
// the eligible domains, or 0 when there are fewer than minDomains.
func (s *spreadFilterState) minCount(i int) int {
	if len(s.counts[i]) < int(s.constraints[i].MinDomains) {
		return 0
	}
	return s.paths[i][0].count
}

// PodTopologySpreadPlugin is the filter half of PodTopologySpread: it
// refuses nodes where the pod would break a DoNotSchedule constraint.
type PodTopologySpreadPlugin struct {
	defaults []api.TopologySpreadConstraint
	handle   framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*PodTopologySpreadPlugin)(nil)
	_ framework.PreFilterExtensions = (*PodTopologySpreadPlugin)(nil)
	_ framework.FilterPlugin        = (*PodTopologySpreadPlugin)(nil)
)

// NewPodTopologySpread is the factory of PodTopologySpread's filter half.
// args is nil, a config.PodTopologySpreadArgs or a pointer to one; it is
// defaulted (System) and validated. The workload objects of the default
// constraints are read from the handle's snapshot.
func NewPodTopologySpread(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.PodTopologySpreadArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &PodTopologySpreadPlugin{defaults: a.DefaultConstraints, handle: h}
	if a.DefaultingType == config.SystemDefaulting {
		pl.defaults = config.SystemDefaultConstraints()
	}
	return pl, nil
}

// Name returns config.PodTopologySpreadName.
func (*PodTopologySpreadPlugin) Name() string { return config.PodTopologySpreadName }

func (pl *PodTopologySpreadPlugin) objects() *cluster.Objects {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return nil
	}
	return pl.handle.Snapshot().Objects()
}

// PreFilter returns Skip when the pod has no DoNotSchedule constraints
// (its own or defaulted). Otherwise it counts, once, the pods matching
// each constraint in every eligible domain: nodes with all the
// constraints' topology keys that the constraint's node inclusion
// policies admit.
func (pl *PodTopologySpreadPlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	cs, err := cluster.SpreadConstraints(pod, pl.defaults, pl.objects(), api.DoNotSchedule)
	if err != nil {
		return nil, framework.AsStatus(fmt.Errorf("get constraints from pod: %w", err))
	}
	if len(cs) == 0 {
		return nil, skipStatus
	}
	state.Write(spreadFilterStateKey, newSpreadFilterState(pod, cs, nodes))
	return nil, nil
}

func newSpreadFilterState(pod *api.Pod, cs []affinity.SpreadConstraint, nodes []*cluster.NodeInfo) *spreadFilterState {
	s := &spreadFilterState{
		constraints: cs,
		counts:      make([]map[string]int, len(cs)),
		paths:       make([]criticalPaths, len(cs)),
		selfMatch:   make([]bool, len(cs)),
		required:    affinity.GetRequiredNodeAffinity(pod),
	}
	// order[i] lists constraint i's domains as first seen, so that the
	// critical paths do not depend on map order.
	order := make([][]string, len(cs))
	for i := range cs {
		size := 0
		if cs[i].TopologyKey == affinity.LabelHostname {
			size = len(nodes)
		}
		s.counts[i] = make(map[string]int, size)
		s.selfMatch[i] = cs[i].Selector.Matches(pod.Labels)
	}
	for _, ni := range nodes {
		node := ni.Node()
		if node == nil || !cluster.HasSpreadKeys(node, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if !cluster.SpreadNodeIncluded(c, pod, node, &s.required) {
				continue
			}
			v := node.Labels[c.TopologyKey]
			n, seen := s.counts[i][v]
			if !seen {
				order[i] = append(order[i], v)
			}
			s.counts[i][v] = n + cluster.CountSpreadPods(ni.Pods, c.Selector, pod.Namespace)
		}
	}
	for i := range cs {
		s.paths[i] = newCriticalPaths()
		for _, v := range order[i] {
			s.paths[i].update(v, s.counts[i][v])
		}
	}
	return s
}

// PreFilterExtensions returns the plugin: AddPod and RemovePod keep the
// counts up to date.
func (pl *PodTopologySpreadPlugin) PreFilterExtensions() framework.PreFilterExtensions { return pl }

var errNoSpreadState = errors.New("not found")

func readSpreadFilterState(state *framework.CycleState) (*spreadFilterState, error) {
	d, ok := state.Read(spreadFilterStateKey)
	if !ok {
		return nil, fmt.Errorf("reading %q from cycleState: %w", spreadFilterStateKey, errNoSpreadState)
	}
	s, ok := d.(*spreadFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v convert to podtopologyspread.preFilterState error", d)
	}
	return s, nil
}

// AddPod counts podToAdd on nodeInfo as if it ran there.
func (pl *PodTopologySpreadPlugin) AddPod(_ context.Context, state *framework.CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.update(podToAdd.Pod, podToSchedule, nodeInfo.Node(), 1)
	return nil
}

// RemovePod uncounts podToRemove from nodeInfo.
func (pl *PodTopologySpreadPlugin) RemovePod(_ context.Context, state *framework.CycleState, podToSchedule *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.update(podToRemove.Pod, podToSchedule, nodeInfo.Node(), -1)
	return nil
}

// update adds delta to the counts of the node's domains for every
// constraint the pod matches and the node is included in, as upstream's
// updateWithPod (which, unlike PreFilter, neither skips terminating pods
// nor treats an empty selector as matching none).
func (s *spreadFilterState) update(p, incoming *api.Pod, node *api.Node, delta int) {
	if s == nil || p.Namespace != incoming.Namespace || node == nil || !cluster.HasSpreadKeys(node, s.constraints) {
		return
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		if !c.Selector.Matches(p.Labels) || !cluster.SpreadNodeIncluded(c, incoming, node, &s.required) {
			continue
		}
		v := node.Labels[c.TopologyKey]
		s.counts[i][v] += delta
		s.paths[i].update(v, s.counts[i][v])
	}
}

// Filter refuses a node that lacks a constraint's topology key
// (UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch) or where the
// pod would make a domain's count exceed the global minimum by more than
// maxSkew (Unschedulable, ErrReasonConstraintsNotMatch), constraint by
// constraint in order. It allocates nothing.
func (pl *PodTopologySpreadPlugin) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	return s.filter(nodeInfo.Node())
}

var errSpreadNoNode = errors.New("node not found")

func (s *spreadFilterState) filter(node *api.Node) *framework.Status {
	if node == nil {
		return framework.AsStatus(errSpreadNoNode)
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		v, ok := node.Labels[c.TopologyKey]
		if !ok {
			return spreadLabelStatus
		}
		self := 0
		if s.selfMatch[i] {
			self = 1
		}
		if s.counts[i][v]+self-s.minCount(i) > int(c.MaxSkew) {
			return spreadSkewStatus
		}
	}
	return nil
}
