package framework

import (
	"strings"

	"github.com/schedkit/schedkit/api"
)

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
	// ResourceClaimAdd is a ResourceClaim created, such as the claim
	// DynamicResources makes for a pod's extended resources.
	ResourceClaimAdd
	// ResourceClaimUpdate is a change to a ResourceClaim: an allocation
	// written by Reserve, or removed by the resourceclaim controller once
	// no pod is reserved any more.
	ResourceClaimUpdate
	// ResourceClaimDelete is a ResourceClaim going away.
	ResourceClaimDelete
	// ResourceSliceAdd is a ResourceSlice published.
	ResourceSliceAdd
	// ResourceSliceUpdate is a change to a ResourceSlice.
	ResourceSliceUpdate
	// DeviceClassAdd is a DeviceClass created.
	DeviceClassAdd
	// DeviceClassUpdate is a change to a DeviceClass.
	DeviceClassUpdate
	// PodGeneratedResourceClaim is a change to the
	// status.resourceClaimStatuses of the pod being requeued
	// (kube-scheduler's UpdatePodGeneratedResourceClaim of the target
	// pod).
	PodGeneratedResourceClaim

	// AllEvents is every event: what a plugin that does not implement
	// EnqueueExtensions is assumed to register for, as in kube-scheduler.
	AllEvents = NodeAdd | NodeUpdate | NodeDelete | AssignedPodAdd | AssignedPodUpdate | AssignedPodDelete |
		ResourceClaimAdd | ResourceClaimUpdate | ResourceClaimDelete | ResourceSliceAdd | ResourceSliceUpdate |
		DeviceClassAdd | DeviceClassUpdate | PodGeneratedResourceClaim
)

var eventNames = []string{"NodeAdd", "NodeUpdate", "NodeDelete", "AssignedPodAdd", "AssignedPodUpdate", "AssignedPodDelete",
	"ResourceClaimAdd", "ResourceClaimUpdate", "ResourceClaimDelete", "ResourceSliceAdd", "ResourceSliceUpdate",
	"DeviceClassAdd", "DeviceClassUpdate", "PodGeneratedResourceClaim"}

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

// Event is one cluster change and the object it is about, as
// kube-scheduler's event handlers pass it to queueing hints. Old is nil
// for an add and New for a delete. Both are nil when the change is known
// only by its kind; every hint then queues.
type Event struct {
	// Kind is one ClusterEvent bit.
	Kind ClusterEvent
	// Old and New are the object before and after, such as
	// *api.ResourceClaim for the claim events.
	Old, New any
}

// QueueingHint is a plugin's verdict on whether an event may make a pod
// it rejected schedulable (kube-scheduler's fwk.QueueingHint).
type QueueingHint int

const (
	// QueueSkip: the event does not help the pod; it stays parked
	// unless another plugin that rejected it says Queue.
	QueueSkip QueueingHint = iota
	// Queue: the pod goes back to the active queue.
	Queue
)

// String returns "Queue" or "QueueSkip".
func (h QueueingHint) String() string {
	if h == Queue {
		return "Queue"
	}
	return "QueueSkip"
}

// QueueingHinter is implemented by plugins that look at an event's
// objects before a pod they rejected is requeued, as kube-scheduler's
// QueueingHintFn. The queue asks only about events the plugin
// registered, and only when the event carries an object. A plugin
// without hints queues on every event it registered.
type QueueingHinter interface {
	EnqueueExtensions
	// QueueingHint says whether ev may make pod schedulable.
	QueueingHint(pod *api.Pod, ev Event) QueueingHint
}
