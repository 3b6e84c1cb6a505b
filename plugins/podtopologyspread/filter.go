package podtopologyspread

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

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

// criticalPaths keeps two domains (by id) with few matching pods, as
// upstream's criticalPaths: [0] always has the minimum count; [1] has a
// count no smaller. Updated incrementally by AddPod and RemovePod.
type criticalPaths [2]struct {
	id    int32
	count int
}

func newCriticalPaths() criticalPaths {
	return criticalPaths{{id: -1, count: math.MaxInt32}, {id: -1, count: math.MaxInt32}}
}

// update records that domain id now has count pods, exactly as
// upstream's criticalPaths.update does for the domain's value.
func (p *criticalPaths) update(id int32, count int) {
	i := -1
	switch id {
	case p[0].id:
		i = 0
	case p[1].id:
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
		p[0].id, p[0].count = id, count
	case count < p[1].count:
		p[1].id, p[1].count = id, count
	}
}

const spreadFilterStateKey framework.StateKey = "PreFilter" + config.PodTopologySpreadName

// spreadStateDomains is one constraint's counts in a state, by domain id
// of the state's Topology of its key: what the plugin's cache counted
// (shared with the cache and other states, read only) and what AddPod and
// RemovePod changed.
type spreadStateDomains struct {
	// refs[d] is not 0 when domain d was eligible at PreFilter; read
	// only.
	refs []int32
	// counts[d] is domain d's matching pods: the cache's until the
	// state changes them (see spreadFilterState.owned).
	counts []int
	// n is the number of eligible domains, those upstream's map holds.
	n int
	// extra numbers the domains AddPod or RemovePod met that the
	// Topology does not (ids from len(refs) on), revived the domains
	// they made eligible that PreFilter did not count; nil unless the
	// state owns its counts.
	extra   map[string]int32
	revived map[int32]struct{}
}

// lookup returns the domain id of ni's node, which has the key, given its
// id in the Topology t of d's key: that id, or for a value t does not
// number (cluster.UnindexedDomain) extra's, -1 if extra has none.
func (d *spreadStateDomains) lookup(t *cluster.Topology, ni *cluster.NodeInfo, id int32) int32 {
	if id >= 0 {
		return id
	}
	if id, ok := d.extra[ni.Node().Labels[t.Key()]]; ok {
		return id
	}
	return -1
}

// spreadFilterState is what PreFilter computes: the pod's hard
// constraints, the Topology numbering the domains of each one's key, the
// number of matching pods per domain of each (every eligible domain is
// counted, possibly 0) and its critical paths.
type spreadFilterState struct {
	constraints []affinity.SpreadConstraint
	// selfMatch[i] is whether the incoming pod matches constraint i.
	selfMatch []bool
	// required is the pod's compiled required node affinity.
	required affinity.RequiredNodeAffinity
	// view is the snapshot's view at PreFilter (nil without a snapshot).
	view *cluster.View
	// topos[i] numbers the domains of constraint i's key: the view's
	// Topology (cluster.View.Topology), or, when PreFilter's nodes are
	// not all the view's, one numbering them (cluster.NewTopology).
	// Read only.
	topos []*cluster.Topology
	// domains[i] are constraint i's domains and counts.
	domains []spreadStateDomains
	paths   []criticalPaths
	// owned is whether the counts (and extra, revived) are the state's
	// own; until then they are shared and copied before a change.
	owned bool
}

// Clone copies what AddPod and RemovePod change, unless it is still
// shared (then the clone shares it too, and copies it before a change).
func (s *spreadFilterState) Clone() framework.StateData {
	c := *s
	c.domains = slices.Clone(s.domains)
	if s.owned {
		for i := range c.domains {
			d := &c.domains[i]
			d.counts, d.extra, d.revived = slices.Clone(d.counts), maps.Clone(d.extra), maps.Clone(d.revived)
		}
	}
	c.paths = slices.Clone(s.paths)
	return &c
}

// own gives the state counts of its own before it changes them.
func (s *spreadFilterState) own() {
	if s.owned {
		return
	}
	for i := range s.domains {
		s.domains[i].counts = slices.Clone(s.domains[i].counts)
	}
	s.owned = true
}

// minCount is the global minimum of constraint i: the smallest count over
// the eligible domains, or 0 when there are fewer than minDomains.
func (s *spreadFilterState) minCount(i int) int {
	if s.domains[i].n < int(s.constraints[i].MinDomains) {
		return 0
	}
	return s.paths[i][0].count
}

// countsByValue returns the count of each eligible domain by label value,
// as upstream's maps hold them (for tests).
func (s *spreadFilterState) countsByValue() []map[string]int {
	out := make([]map[string]int, len(s.domains))
	for i := range s.domains {
		d := &s.domains[i]
		out[i] = map[string]int{}
		for id := range int32(len(d.refs)) {
			if _, ok := d.revived[id]; ok || d.refs[id] > 0 {
				out[i][s.topos[i].Value(id)] = d.counts[id]
			}
		}
		for v, id := range d.extra {
			out[i][v] = d.counts[id]
		}
	}
	return out
}

func (pl *PodTopologySpread) objects() *cluster.Objects {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return nil
	}
	return pl.handle.Snapshot().Objects()
}

// PreFilter returns Skip when the pod has no DoNotSchedule constraints
// (its own or defaulted). Otherwise it counts the pods matching each
// constraint in every eligible domain: nodes with all the constraints'
// topology keys that the constraint's node inclusion policies admit. The
// counts are kept across cycles (see filter_cache.go): a
// cycle recounts only the nodes that changed since the last cycle with
// the same constraints. Domains are numbered by the view's Topology of
// each key (cluster.View.Topology).
func (pl *PodTopologySpread) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	cs, err := spreadConstraints(pod, pl.defaults, pl.objects(), api.DoNotSchedule)
	if err != nil {
		return nil, framework.AsStatus(fmt.Errorf("get constraints from pod: %w", err))
	}
	if len(cs) == 0 {
		return nil, skipStatus
	}
	s := &spreadFilterState{
		constraints: cs,
		paths:       make([]criticalPaths, len(cs)),
		selfMatch:   make([]bool, len(cs)),
		required:    affinity.GetRequiredNodeAffinity(pod),
	}
	for i := range cs {
		s.selfMatch[i] = cs[i].Selector.Matches(pod.Labels)
	}
	if pl.handle != nil && pl.handle.Snapshot() != nil {
		s.view = pl.handle.Snapshot().View()
	}
	pl.cache.counts(s, pod, nodes)
	state.Write(spreadFilterStateKey, s)
	return nil, nil
}

// PreFilterExtensions returns the plugin: AddPod and RemovePod keep the
// counts up to date.
func (pl *PodTopologySpread) PreFilterExtensions() framework.PreFilterExtensions { return pl }

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
func (pl *PodTopologySpread) AddPod(_ context.Context, state *framework.CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.update(podToAdd.Pod, podToSchedule, nodeInfo, 1)
	return nil
}

// RemovePod uncounts podToRemove from nodeInfo.
func (pl *PodTopologySpread) RemovePod(_ context.Context, state *framework.CycleState, podToSchedule *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.update(podToRemove.Pod, podToSchedule, nodeInfo, -1)
	return nil
}

// update adds delta to the counts of the node's domains for every
// constraint the pod matches and the node is included in, as upstream's
// updateWithPod (which, unlike PreFilter, neither skips terminating pods
// nor treats an empty selector as matching none, and makes the domain
// eligible if it was not).
func (s *spreadFilterState) update(p, incoming *api.Pod, ni *cluster.NodeInfo, delta int) {
	node := ni.Node()
	if s == nil || p.Namespace != incoming.Namespace || node == nil || !hasSpreadKeys(node, s.constraints) {
		return
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		if !c.Selector.Matches(p.Labels) || !spreadNodeIncluded(c, incoming, node, &s.required) {
			continue
		}
		s.own()
		d := &s.domains[i]
		id := d.lookup(s.topos[i], ni, s.topos[i].ID(ni))
		switch {
		case id < 0:
			v := node.Labels[c.TopologyKey]
			id = int32(len(d.counts))
			d.counts = append(d.counts, 0)
			if d.extra == nil {
				d.extra = map[string]int32{}
			}
			d.extra[v] = id
			d.n++
		case int(id) < len(d.refs) && d.refs[id] == 0:
			if _, ok := d.revived[id]; !ok {
				if d.revived == nil {
					d.revived = map[int32]struct{}{}
				}
				d.revived[id] = struct{}{}
				d.n++
			}
		}
		d.counts[id] += delta
		s.paths[i].update(id, d.counts[id])
	}
}

// Filter refuses a node that lacks a constraint's topology key
// (UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch) or where the
// pod would make a domain's count exceed the global minimum by more than
// maxSkew (Unschedulable, ErrReasonConstraintsNotMatch), constraint by
// constraint in order. It allocates nothing.
func (pl *PodTopologySpread) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	s, err := readSpreadFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	return s.filter(nodeInfo)
}

// FilterNodes is Filter for each node, reading the state once. It finds
// a node's domains by its slot in the Topologies of the constraints' keys
// (cluster.Topology.ID), without reading its labels, for any NodeInfo of
// the view of PreFilter.
func (pl *PodTopologySpread) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	s, err := readSpreadFilterState(state)
	if err != nil {
		st := framework.AsStatus(err)
		for i := range nodes {
			statuses[i] = st
		}
		return
	}
	if len(s.constraints) != 1 {
		for i, ni := range nodes {
			statuses[i] = s.filter(ni)
		}
		return
	}
	// One constraint (the usual case): a node of a domain the Topology
	// numbers passes when the domain's count is at most limit.
	limit := int(s.constraints[0].MaxSkew) + s.minCount(0)
	if s.selfMatch[0] {
		limit--
	}
	counts, topo := s.domains[0].counts, s.topos[0]
	for i, ni := range nodes {
		if ni.Node() == nil {
			statuses[i] = s.filter(ni)
			continue
		}
		switch id := topo.ID(ni); {
		case id == cluster.NoDomain:
			statuses[i] = spreadLabelStatus
		case id < 0:
			statuses[i] = s.filter(ni)
		case counts[id] > limit:
			statuses[i] = spreadSkewStatus
		default:
			statuses[i] = nil
		}
	}
}

var errSpreadNoNode = errors.New("node not found")

// filter is Filter for ni.
func (s *spreadFilterState) filter(ni *cluster.NodeInfo) *framework.Status {
	if ni.Node() == nil {
		return framework.AsStatus(errSpreadNoNode)
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		id := s.topos[i].ID(ni)
		if id == cluster.NoDomain {
			return spreadLabelStatus
		}
		id = s.domains[i].lookup(s.topos[i], ni, id)
		n := 0
		if id >= 0 {
			n = s.domains[i].counts[id]
		}
		if s.selfMatch[i] {
			n++
		}
		if n-s.minCount(i) > int(c.MaxSkew) {
			return spreadSkewStatus
		}
	}
	return nil
}
