package nodedeclaredfeatures

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const nodeDeclaredFeaturesStateKey framework.StateKey = "PreFilter" + config.NodeDeclaredFeaturesName

// PreFilter stores the features the pod requires, or returns Skip.
func (pl *NodeDeclaredFeatures) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	req := featureState(predicates.RequiredFeatureMask(pod))
	if req == 0 {
		return nil, skipStatus
	}
	state.Write(nodeDeclaredFeaturesStateKey, req)
	return nil, nil
}

// PreFilterExtensions returns nil.
func (pl *NodeDeclaredFeatures) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node unless it declares every required feature.
func (pl *NodeDeclaredFeatures) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	d, ok := state.Read(nodeDeclaredFeaturesStateKey)
	if !ok {
		return framework.AsStatus(fmt.Errorf("error reading %q from cycle-state: not found", nodeDeclaredFeaturesStateKey))
	}
	req, ok := d.(featureState)
	if !ok {
		return framework.AsStatus(fmt.Errorf("invalid PreFilter state, got type %T, expected %T", d, featureState(0)))
	}
	if predicates.FeatureMask(req)&^predicates.DeclaredFeatureMask(nodeInfo.Node()) != 0 {
		return rejected
	}
	return nil
}

// featureState is the PreFilter state: the features the pod requires.
type featureState predicates.FeatureMask

// Clone returns s: the state is never modified after PreFilter.
func (s featureState) Clone() framework.StateData { return s }

var (
	rejected   = framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonNodeDeclaredFeatures)
	skipStatus = framework.NewStatus(framework.Skip)
)
