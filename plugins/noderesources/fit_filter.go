package noderesources

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// fitStateKey is where NodeResourcesFit's PreFilter keeps its state.
const fitStateKey framework.StateKey = "PreFilter" + config.NodeResourcesFitName

// fitState is the pod's request, computed once per cycle.
type fitState struct {
	req     cluster.Resource
	checked []cluster.Scalar
}

// Clone returns s: the state is never modified after PreFilter.
func (s *fitState) Clone() framework.StateData { return s }

// PreFilter computes the pod's request and stores it in the cycle state.
// It never returns Skip: even a pod that requests nothing needs room for
// one more pod, as upstream.
func (pl *Fit) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	s := &fitState{req: predicates.PodFitRequest(pod)}
	s.checked = pl.ignore.Filter(s.req.Scalars)
	state.Write(fitStateKey, s)
	return nil, nil
}

// PreFilterExtensions returns nil: the state does not depend on other
// pods.
func (pl *Fit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks the pod's request against the node's allocatable
// resources minus what its pods request. It allocates nothing unless a
// scalar resource is short.
func (pl *Fit) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	d, ok := state.Read(fitStateKey)
	if !ok {
		return fitStateMissing
	}
	s, ok := d.(*fitState)
	if !ok {
		return framework.AsStatus(fmt.Errorf("%+v convert to NodeResourcesFit.preFilterState error", d))
	}
	return predicates.FitStatus(&s.req, s.checked, nodeInfo)
}

var fitStateMissing = framework.AsStatus(fmt.Errorf("error reading %q from cycleState: not found", fitStateKey))

// FilterNodes is Filter for each node, reading the state once.
func (pl *Fit) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	d, ok := state.Read(fitStateKey)
	if !ok {
		fill(statuses, fitStateMissing)
		return
	}
	s, ok := d.(*fitState)
	if !ok {
		fill(statuses, framework.AsStatus(fmt.Errorf("%+v convert to NodeResourcesFit.preFilterState error", d)))
		return
	}
	predicates.FitStatuses(&s.req, s.checked, nodes, statuses)
}

// fill sets every status to st.
func fill(statuses []*framework.Status, st *framework.Status) {
	for i := range statuses {
		statuses[i] = st
	}
}
