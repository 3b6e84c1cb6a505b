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
// affinity.
type filterState struct {
	required affinity.RequiredNodeAffinity
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
	state.Write(filterStateKey, &filterState{required: affinity.GetRequiredNodeAffinity(pod)})
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
	if ok, _ := s.required.Match(node); !ok {
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
		if ok, _ := s.required.Match(node); !ok {
			statuses[i] = nodeAffinityStatus
		}
	}
}

var (
	nodeAffinityStatus     = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonNodeAffinity)
	enforcedAffinityStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonEnforcedNodeAffinity)
	affinityConflictStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonAffinityConflict)
)
