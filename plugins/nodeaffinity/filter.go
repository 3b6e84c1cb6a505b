package nodeaffinity

import (
	"context"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const filterStateKey framework.StateKey = "PreFilter" + config.NodeAffinityName

// filterState is the pod's compiled nodeSelector and required
// affinity. When they read one node label key only, topo is the view's
// Topology of the key and verdict the result of Match by its domain id
// (noKey for a node without the key): a node's check is then two slice
// reads, not a look-up in its labels.
type filterState struct {
	required affinity.RequiredNodeAffinity
	topo     *cluster.Topology
	verdict  []bool
	noKey    bool
}

// maxVerdicts bounds the domains PreFilter decides ahead: a key with a
// value per node (a hostname) is cheaper to match node by node.
const maxVerdicts = 256

// byDomain decides s.required once per domain of the view's Topology of
// the one key it reads, if it reads one.
func (s *filterState) byDomain(view *cluster.View) {
	key, ok := s.required.SingleLabelKey()
	if !ok || view == nil {
		return
	}
	t := view.Topology(key)
	if t.NumIDs() > maxVerdicts {
		return
	}
	labels := map[string]string{key: ""}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Labels: labels}}
	s.verdict = make([]bool, t.NumIDs())
	for id := range s.verdict {
		if t.Size(int32(id)) == 0 {
			continue
		}
		labels[key] = t.Value(int32(id))
		s.verdict[id], _ = s.required.Match(node)
	}
	s.noKey, _ = s.required.Match(&api.Node{})
	s.topo = t
}

// match is s.required.Match for ni's node, by domain when it can be.
func (s *filterState) match(ni *cluster.NodeInfo) bool {
	node := ni.Node()
	if s.topo != nil && node != nil {
		switch id := s.topo.ID(ni); {
		case id >= 0:
			return s.verdict[id]
		case id == cluster.NoDomain:
			return s.noKey
		}
	}
	ok, _ := s.required.Match(node)
	return ok
}

// Clone returns s: the state is never modified after PreFilter.
func (s *filterState) Clone() framework.StateData { return s }

// PreFilter returns Skip when neither the pod (nodeSelector, required
// node affinity) nor the plugin (added affinity) constrains nodes.
// Otherwise it stores the compiled constraints and returns the nodes the
// pod's matchFields allow, or UnschedulableAndUnresolvable with
// ErrReasonAffinityConflict when they allow none.
func (pl *NodeAffinity) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	a := pod.Spec.Affinity
	noNodeAffinity := a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil
	if noNodeAffinity && pl.addedRequired == nil && pod.Spec.NodeSelector == nil {
		return nil, skipStatus
	}
	s := &filterState{required: affinity.GetRequiredNodeAffinity(pod)}
	if pl.handle != nil && pl.handle.Snapshot() != nil {
		s.byDomain(pl.handle.Snapshot().View())
	}
	state.Write(filterStateKey, s)
	names, all := predicates.RequiredNodeNames(pod)
	switch {
	case all:
		return nil, nil
	case len(names) == 0:
		return nil, affinityConflictStatus
	default:
		return &framework.PreFilterResult{NodeNames: names}, nil
	}
}

// PreFilterExtensions returns nil.
func (pl *NodeAffinity) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects a node that does not match the added affinity
// (ErrReasonEnforcedNodeAffinity) or the pod's constraints
// (ErrReasonNodeAffinity). Without PreFilter state it compiles the pod's
// constraints itself, as upstream.
func (pl *NodeAffinity) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if pl.addedRequired != nil {
		if ok, _ := pl.addedRequired.Match(node); !ok {
			return enforcedAffinityStatus
		}
	}
	var s *filterState
	if d, ok := state.Read(filterStateKey); ok {
		s, _ = d.(*filterState)
	}
	if s == nil {
		s = &filterState{required: affinity.GetRequiredNodeAffinity(pod)}
	}
	if !s.match(nodeInfo) {
		return nodeAffinityStatus
	}
	return nil
}

// FilterNodes is Filter for each node, reading the state (or compiling
// the pod's constraints) once.
func (pl *NodeAffinity) FilterNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	var s *filterState
	for i, ni := range nodes {
		node := ni.Node()
		if pl.addedRequired != nil {
			if ok, _ := pl.addedRequired.Match(node); !ok {
				statuses[i] = enforcedAffinityStatus
				continue
			}
		}
		if s == nil {
			if d, ok := state.Read(filterStateKey); ok {
				s, _ = d.(*filterState)
			}
			if s == nil {
				s = &filterState{required: affinity.GetRequiredNodeAffinity(pod)}
			}
		}
		if !s.match(ni) {
			statuses[i] = nodeAffinityStatus
		}
	}
}

var (
	nodeAffinityStatus     = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonNodeAffinity)
	enforcedAffinityStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonEnforcedNodeAffinity)
	affinityConflictStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonAffinityConflict)
)
