package framework

import "strings"

// ClusterEvent is a set of cluster changes, as a bit mask. The scheduling
// queue moves a parked (unschedulable) pod back to the active queue when
// an event happens that one of the plugins that rejected it registered
// for.
type ClusterEvent uint32

// Cluster events; a coarser version of kube-scheduler's
// (resource, action type) pairs.
const (
	// NodeAdd is a node joining the cluster.
	NodeAdd ClusterEvent = 1 << iota
	// NodeUpdate is any change to a node (labels, taints, allocatable,
	// spec.unschedulable).
	NodeUpdate
	// NodeDelete is a node leaving.
	NodeDelete
	// AssignedPodAdd is a pod bound or assumed to a node.
	AssignedPodAdd
	// AssignedPodUpdate is a change to a bound pod.
	AssignedPodUpdate
	// AssignedPodDelete is a bound pod going away.
	AssignedPodDelete

	// AllEvents is every event: what a plugin that does not implement
	// EnqueueExtensions is assumed to register for, as in kube-scheduler.
	AllEvents = NodeAdd | NodeUpdate | NodeDelete | AssignedPodAdd | AssignedPodUpdate | AssignedPodDelete
)

var eventNames = []string{"NodeAdd", "NodeUpdate", "NodeDelete", "AssignedPodAdd", "AssignedPodUpdate", "AssignedPodDelete"}

// String lists the events joined by "|".
func (e ClusterEvent) String() string {
	var parts []string
	for i, n := range eventNames {
		if e&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// EnqueueExtensions is implemented by plugins that say which cluster
// events may make a pod they rejected schedulable.
type EnqueueExtensions interface {
	Plugin
	// EventsToRegister returns the events.
	EventsToRegister() ClusterEvent
}
