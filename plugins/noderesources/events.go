package noderesources

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/resource"
)

var _ framework.QueueingHinter = (*Fit)(nil)

// EventsToRegister returns NodeAdd, NodeUpdate, AssignedPodDelete and
// AssignedPodUpdate: a new node or a node with more allocatable has
// room, and a pod that leaves or shrinks frees some. DeviceClassAdd and
// DeviceClassUpdate follow upstream's DRAExtendedResource registration:
// a class that maps an extended resource the pod requests hands it to
// DynamicResources.
func (pl *Fit) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate | framework.AssignedPodDelete | framework.AssignedPodUpdate |
		framework.DeviceClassAdd | framework.DeviceClassUpdate
}

// QueueingHint is upstream's isSchedulableAfterDeviceClassEvent for the
// class events; the other events queue.
func (pl *Fit) QueueingHint(pod *api.Pod, ev framework.Event) framework.QueueingHint {
	if ev.Kind != framework.DeviceClassAdd && ev.Kind != framework.DeviceClassUpdate {
		return framework.Queue
	}
	return isSchedulableAfterDeviceClassEvent(pod, ev.Old, ev.New)
}

// isSchedulableAfterDeviceClassEvent queues the pod when the class maps
// an extended resource it requests: by spec.extendedResourceName when
// that changed (or the class is new), or by the class's implicit name
// when it is new (a class's name never changes).
func isSchedulableAfterDeviceClassEvent(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	old, okOld := oldObj.(*api.DeviceClass)
	cur, okNew := newObj.(*api.DeviceClass)
	if (oldObj != nil && !okOld) || !okNew || cur == nil {
		return framework.Queue
	}
	reqs := resource.PodRequests(pod, resource.PodResourcesOptions{})
	if old != nil {
		if deref(old.Spec.ExtendedResourceName) == deref(cur.Spec.ExtendedResourceName) {
			return framework.QueueSkip
		}
	} else if _, ok := reqs[api.ResourceName(api.ResourceDeviceClassPrefix+cur.Name)]; ok {
		return framework.Queue
	}
	if n := cur.Spec.ExtendedResourceName; n != nil {
		if _, ok := reqs[api.ResourceName(*n)]; ok {
			return framework.Queue
		}
	}
	return framework.QueueSkip
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
