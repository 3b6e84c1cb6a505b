package predicates

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// ErrReasonNodePorts is NodePorts' reason, as upstream's
// nodeports.ErrReason.
const ErrReasonNodePorts = "node(s) didn't have free ports for the requested pod ports"

var nodePortsStatus = framework.NewStatus(framework.Unschedulable, ErrReasonNodePorts)

// PodHostPorts returns the host ports pod binds: those of its containers
// and sidecar init containers with hostPort > 0, with an empty IP meaning
// 0.0.0.0 and an empty protocol TCP (upstream's GetHostPorts).
func PodHostPorts(pod *api.Pod) []cluster.HostPort {
	if !hasHostPort(pod) {
		return nil
	}
	return cluster.NewPodInfo(pod).HostPorts
}

// hasHostPort is a cheap test that lets pods without host ports skip
// building a PodInfo.
func hasHostPort(pod *api.Pod) bool {
	for _, cs := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			for _, p := range cs[i].Ports {
				if p.HostPort > 0 {
					return true
				}
			}
		}
	}
	return false
}

// NodePortsFit reports whether none of the pod's host ports is in use on
// the node.
func NodePortsFit(pod *api.Pod, nodeInfo *cluster.NodeInfo) bool {
	return !nodeInfo.UsedPorts.ConflictsWith(PodHostPorts(pod))
}

// NodePorts is the NodePorts filter as a plain function: nil if the pod's
// host ports are free on the node, else Unschedulable with
// ErrReasonNodePorts.
func NodePorts(pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if NodePortsFit(pod, nodeInfo) {
		return nil
	}
	return nodePortsStatus
}

const nodePortsStateKey framework.StateKey = "PreFilter" + config.NodePortsName

// nodePortsState is the pod's host ports.
type nodePortsState []cluster.HostPort

// Clone returns s: the state is never modified after PreFilter.
func (s nodePortsState) Clone() framework.StateData { return s }

// NodePortsPlugin is the NodePorts plugin: PreFilter collects the pod's
// host ports (and skips the plugin when there are none), Filter rejects
// nodes where one is in use.
type NodePortsPlugin struct{}

var (
	_ framework.PreFilterPlugin = (*NodePortsPlugin)(nil)
	_ framework.FilterPlugin    = (*NodePortsPlugin)(nil)
)

// NewNodePorts is the NodePorts plugin factory. NodePorts takes no
// arguments; args is ignored, as upstream ignores it.
func NewNodePorts(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodePortsPlugin{}, nil
}

// Name returns config.NodePortsName.
func (*NodePortsPlugin) Name() string { return config.NodePortsName }

var skipStatus = framework.NewStatus(framework.Skip)

// PreFilter stores the pod's host ports, or returns Skip when it binds
// none.
func (*NodePortsPlugin) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	ports := PodHostPorts(pod)
	if len(ports) == 0 {
		return nil, skipStatus
	}
	state.Write(nodePortsStateKey, nodePortsState(ports))
	return nil, nil
}

// PreFilterExtensions returns nil.
func (*NodePortsPlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects the node if one of the pod's host ports is in use there.
func (*NodePortsPlugin) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
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

var _ framework.FastPathPlugin = (*NodePortsPlugin)(nil)

// FastPath offers FilterNodes (framework.FastPathPlugin).
func (pl *NodePortsPlugin) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes}
}

// FilterNodes is Filter for each node, reading the state once.
func (*NodePortsPlugin) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
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
