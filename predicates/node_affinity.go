package predicates

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Reasons of the NodeAffinity filter, as upstream's.
const (
	// ErrReasonNodeAffinity is the reason when the node does not satisfy
	// the pod's nodeSelector or required node affinity.
	ErrReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"
	// ErrReasonEnforcedNodeAffinity is the reason when the node does not
	// satisfy the plugin's added affinity.
	ErrReasonEnforcedNodeAffinity = "node(s) didn't match scheduler-enforced node affinity"
	// ErrReasonAffinityConflict is PreFilter's reason when the pod's
	// required terms name no node at all (conflicting metadata.name
	// fields).
	ErrReasonAffinityConflict = "pod affinity terms conflict"
)

// objectNameField is the only field node selector matchFields may use.
const objectNameField = "metadata.name"

var (
	nodeAffinityStatus     = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeAffinity)
	enforcedAffinityStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforcedNodeAffinity)
	affinityConflictStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityConflict)
)

// NodeAffinityMatches reports whether node satisfies pod's nodeSelector and
// required node affinity (terms that fail to compile match nothing).
func NodeAffinityMatches(pod *api.Pod, node *api.Node) bool {
	ok, _ := affinity.GetRequiredNodeAffinity(pod).Match(node)
	return ok
}

// NodeAffinity is the NodeAffinity filter as a plain function, without
// added affinity: nil if the node satisfies the pod's nodeSelector and
// required node affinity, else UnschedulableAndUnresolvable with
// ErrReasonNodeAffinity.
func NodeAffinity(pod *api.Pod, node *api.Node) *framework.Status {
	if NodeAffinityMatches(pod, node) {
		return nil
	}
	return nodeAffinityStatus
}

// RequiredNodeNames returns the node names the pod's required node
// affinity allows through matchFields on metadata.name, as upstream's
// PreFilter computes them: within a term the In requirements on
// metadata.name intersect, terms union. all is true (and names nil) when
// some term does not restrict names, so every node may qualify; an empty,
// non-nil names means the terms conflict and no node qualifies.
func RequiredNodeNames(pod *api.Pod) (names map[string]struct{}, all bool) {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil ||
		len(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) == 0 {
		return nil, true
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		var termNames map[string]struct{}
		for _, r := range term.MatchFields {
			if r.Key != objectNameField || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			s := make(map[string]struct{}, len(r.Values))
			for _, v := range r.Values {
				if termNames == nil {
					s[v] = struct{}{}
				} else if _, ok := termNames[v]; ok {
					s[v] = struct{}{}
				}
			}
			termNames = s
		}
		if termNames == nil {
			return nil, true
		}
		if names == nil {
			names = make(map[string]struct{}, len(termNames))
		}
		for n := range termNames {
			names[n] = struct{}{}
		}
	}
	return names, false
}

const nodeAffinityStateKey framework.StateKey = "PreFilter" + config.NodeAffinityName

// nodeAffinityState is the pod's compiled nodeSelector and required
// affinity.
type nodeAffinityState struct {
	required affinity.RequiredNodeAffinity
}

// Clone returns s: the state is never modified after PreFilter.
func (s *nodeAffinityState) Clone() framework.StateData { return s }

// NodeAffinityPlugin is the filter half of NodeAffinity: PreFilter
// compiles the pod's nodeSelector and required node affinity (and narrows
// the nodes to those its matchFields name), Filter checks each node
// against them and against the plugin's added affinity.
type NodeAffinityPlugin struct {
	added *affinity.NodeSelector
}

var (
	_ framework.PreFilterPlugin = (*NodeAffinityPlugin)(nil)
	_ framework.FilterPlugin    = (*NodeAffinityPlugin)(nil)
)

// NewNodeAffinity is the factory of NodeAffinity's filter half. args is
// nil, a config.NodeAffinityArgs or a pointer to one; it is validated.
func NewNodeAffinity(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.ArgsFrom[config.NodeAffinityArgs](args)
	if err != nil {
		return nil, err
	}
	pl := &NodeAffinityPlugin{}
	if a.AddedAffinity != nil && a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		pl.added, err = affinity.NewNodeSelector(a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return nil, fmt.Errorf("parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: %w", err)
		}
	}
	return pl, nil
}

// Name returns config.NodeAffinityName.
func (*NodeAffinityPlugin) Name() string { return config.NodeAffinityName }

// PreFilter returns Skip when neither the pod (nodeSelector, required
// node affinity) nor the plugin (added affinity) constrains nodes.
// Otherwise it stores the compiled constraints and returns the nodes the
// pod's matchFields allow, or UnschedulableAndUnresolvable with
// ErrReasonAffinityConflict when they allow none.
func (pl *NodeAffinityPlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	a := pod.Spec.Affinity
	noNodeAffinity := a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil
	if noNodeAffinity && pl.added == nil && pod.Spec.NodeSelector == nil {
		return nil, skipStatus
	}
	state.Write(nodeAffinityStateKey, &nodeAffinityState{required: affinity.GetRequiredNodeAffinity(pod)})
	names, all := RequiredNodeNames(pod)
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
func (*NodeAffinityPlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects a node that does not match the added affinity
// (ErrReasonEnforcedNodeAffinity) or the pod's constraints
// (ErrReasonNodeAffinity). Without PreFilter state it compiles the pod's
// constraints itself, as upstream.
func (pl *NodeAffinityPlugin) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if pl.added != nil {
		if ok, _ := pl.added.Match(node); !ok {
			return enforcedAffinityStatus
		}
	}
	var s *nodeAffinityState
	if d, ok := state.Read(nodeAffinityStateKey); ok {
		s, _ = d.(*nodeAffinityState)
	}
	if s == nil {
		s = &nodeAffinityState{required: affinity.GetRequiredNodeAffinity(pod)}
	}
	if ok, _ := s.required.Match(node); !ok {
		return nodeAffinityStatus
	}
	return nil
}

var _ framework.FastPathPlugin = (*NodeAffinityPlugin)(nil)

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodeAffinityPlugin) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes}
}

// FilterNodes is Filter for each node, reading the state (or compiling
// the pod's constraints) once.
func (pl *NodeAffinityPlugin) FilterNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	var s *nodeAffinityState
	for i, ni := range nodes {
		node := ni.Node()
		if pl.added != nil {
			if ok, _ := pl.added.Match(node); !ok {
				statuses[i] = enforcedAffinityStatus
				continue
			}
		}
		if s == nil {
			if d, ok := state.Read(nodeAffinityStateKey); ok {
				s, _ = d.(*nodeAffinityState)
			}
			if s == nil {
				s = &nodeAffinityState{required: affinity.GetRequiredNodeAffinity(pod)}
			}
		}
		if ok, _ := s.required.Match(node); !ok {
			statuses[i] = nodeAffinityStatus
		}
	}
}
