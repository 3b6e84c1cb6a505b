package predicates

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/qos"
)

// The optional filters of plugins and predicates kube-scheduler removed,
// with their last upstream semantics: registered, not in the default
// profile (a Policy file or a profile enables them).

// Reasons of the legacy filters, as upstream worded them.
const (
	// ErrReasonNodeLabelPresenceViolated is NodeLabel's reason (v1.21).
	ErrReasonNodeLabelPresenceViolated = "node(s) didn't have the requested labels"
	// ErrReasonNodeUnderMemoryPressure is CheckNodeMemoryPressure's reason.
	ErrReasonNodeUnderMemoryPressure = "node(s) had memory pressure"
	// ErrReasonNodeUnderDiskPressure is CheckNodeDiskPressure's reason.
	ErrReasonNodeUnderDiskPressure = "node(s) had disk pressure"
	// ErrReasonNodeUnderPIDPressure is CheckNodePIDPressure's reason.
	ErrReasonNodeUnderPIDPressure = "node(s) had pid pressure"
)

// NodeLabel is the NodeLabel filter (v1.21) as a plain function: nil when
// the node has every label of present and none of absent, otherwise
// UnschedulableAndUnresolvable with ErrReasonNodeLabelPresenceViolated;
// without a node, an error, as upstream.
func NodeLabel(present, absent []string, node *api.Node) *framework.Status {
	if node == nil {
		return nodeNotFoundStatus
	}
	for _, l := range present {
		if _, ok := node.Labels[l]; !ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelPresenceViolated)
		}
	}
	for _, l := range absent {
		if _, ok := node.Labels[l]; ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelPresenceViolated)
		}
	}
	return nil
}

// conditionTrue reports whether the node's condition t is True; when
// the node lists t more than once the last entry counts, as v1.13's
// NodeInfo.SetNode kept the last.
func conditionTrue(node *api.Node, t api.NodeConditionType) bool {
	status := api.ConditionStatus("")
	for _, c := range node.Status.Conditions {
		if c.Type == t {
			status = c.Status
		}
	}
	return status == api.ConditionTrue
}

// Node conditions do not change when preemption removes pods: v1.13's
// preemption skipped nodes failing the pressure predicates, which the
// framework says with UnschedulableAndUnresolvable.
var (
	memoryPressureStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeUnderMemoryPressure)
	diskPressureStatus   = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeUnderDiskPressure)
	pidPressureStatus    = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeUnderPIDPressure)
	nodeNotFoundStatus   = framework.NewStatus(framework.Error, "node not found")
)

// CheckNodeMemoryPressure is the CheckNodeMemoryPressure predicate (last
// in v1.13) as a plain function: a BestEffort pod does not fit a node
// whose MemoryPressure condition is True (UnschedulableAndUnresolvable,
// ErrReasonNodeUnderMemoryPressure); other pods fit. The QoS class is
// v1.37's (qos.Of).
func CheckNodeMemoryPressure(pod *api.Pod, node *api.Node) *framework.Status {
	if node == nil {
		return nodeNotFoundStatus
	}
	if qos.Of(pod) != api.PodQOSBestEffort || !conditionTrue(node, api.NodeMemoryPressure) {
		return nil
	}
	return memoryPressureStatus
}

// CheckNodeDiskPressure is the CheckNodeDiskPressure predicate: no pod
// fits a node whose DiskPressure condition is True
// (UnschedulableAndUnresolvable, ErrReasonNodeUnderDiskPressure).
func CheckNodeDiskPressure(_ *api.Pod, node *api.Node) *framework.Status {
	if node == nil {
		return nodeNotFoundStatus
	}
	if !conditionTrue(node, api.NodeDiskPressure) {
		return nil
	}
	return diskPressureStatus
}

// CheckNodePIDPressure is the CheckNodePIDPressure predicate: no pod fits
// a node whose PIDPressure condition is True
// (UnschedulableAndUnresolvable, ErrReasonNodeUnderPIDPressure).
func CheckNodePIDPressure(_ *api.Pod, node *api.Node) *framework.Status {
	if node == nil {
		return nodeNotFoundStatus
	}
	if !conditionTrue(node, api.NodePIDPressure) {
		return nil
	}
	return pidPressureStatus
}
