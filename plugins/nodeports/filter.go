package nodeports

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

const nodePortsStateKey framework.StateKey = "PreFilter" + config.NodePortsName

// nodePortsState is the pod's host ports.
type nodePortsState []cluster.HostPort

// Clone returns s: the state is never modified after PreFilter.
func (s nodePortsState) Clone() framework.StateData { return s }

var skipStatus = framework.NewStatus(framework.Skip)

// PreFilter stores the pod's host ports, or returns Skip when it binds
// none.
func (pl *NodePorts) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	ports := predicates.PodHostPorts(pod)
	if len(ports) == 0 {
		return nil, skipStatus
	}
	state.Write(nodePortsStateKey, nodePortsState(ports))
	return nil, nil
}

// PreFilterExtensions returns nil.
func (pl *NodePorts) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if one of the pod's host ports is in use there.
func (pl *NodePorts) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	d, ok := state.Read(nodePortsStateKey)
	if !ok {
		return nodePortsStateMissing
	}
	ports, ok := d.(nodePortsState)
	if !ok {
		return framework.AsStatus(fmt.Errorf("%+v  convert to nodeports.preFilterState error", d))
	}
	if nodeInfo.UsedPorts.ConflictsWith(ports) {
		return nodePortsStatus
	}
	return nil
}

var nodePortsStateMissing = framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", nodePortsStateKey))

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodePorts) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, NodeLocalFilter: true}
}

// FilterNodes is Filter for each node, reading the state once.
func (pl *NodePorts) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	d, ok := state.Read(nodePortsStateKey)
	if !ok {
		fill(statuses, nodePortsStateMissing)
		return
	}
	ports, ok := d.(nodePortsState)
	if !ok {
		fill(statuses, framework.AsStatus(fmt.Errorf("%+v  convert to nodeports.preFilterState error", d)))
		return
	}
	for i, ni := range nodes {
		if ni.UsedPorts.ConflictsWith(ports) {
			statuses[i] = nodePortsStatus
		}
	}
}

var nodePortsStatus = framework.NewStatus(framework.Unschedulable, predicates.ErrReasonNodePorts)

// fill sets every status to st.
func fill(statuses []*framework.Status, st *framework.Status) {
	for i := range statuses {
		statuses[i] = st
	}
}
