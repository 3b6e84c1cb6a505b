package predicates

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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
