package dynamicresources

import (
	"encoding/json"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

var _ framework.QueueingHinter = (*DynamicResources)(nil)

// EventsToRegister returns upstream's registration: a new node or a
// node's new labels or allocatable (topology, node-local devices); any
// change to a ResourceClaim, since allocations live in claims; the pod's
// own generated claims appearing in its status; a DeviceClass or a
// ResourceSlice created or changed. The claim and pod events have
// queueing hints (QueueingHint).
func (pl *DynamicResources) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate |
		framework.ResourceClaimAdd | framework.ResourceClaimUpdate | framework.ResourceClaimDelete |
		framework.PodGeneratedResourceClaim |
		framework.DeviceClassAdd | framework.DeviceClassUpdate |
		framework.ResourceSliceAdd | framework.ResourceSliceUpdate
}

// QueueingHint is upstream's isSchedulableAfterClaimChange for the claim
// events and isSchedulableAfterTargetPodUpdate for the pod's own update;
// every other registered event queues, as upstream registers them
// without hints. An object of an unexpected type queues (upstream queues
// on a hint's error).
func (pl *DynamicResources) QueueingHint(pod *api.Pod, ev framework.Event) framework.QueueingHint {
	switch ev.Kind {
	case framework.ResourceClaimAdd, framework.ResourceClaimUpdate, framework.ResourceClaimDelete:
		return pl.isSchedulableAfterClaimChange(pod, ev.Old, ev.New)
	case framework.PodGeneratedResourceClaim:
		return pl.isSchedulableAfterTargetPodUpdate(ev.New)
	}
	return framework.Queue
}

// TakeEvents returns the claim changes PostFilter made since the last
// call (a deallocation, or the deletion of a stale extended resource
// claim), which upstream's API server would report as claim events, and
// forgets them. The scheduler passes them to its queue after the cycle.
func (pl *DynamicResources) TakeEvents() []framework.Event {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	evs := pl.events
	pl.events = nil
	return evs
}

// isSchedulableAfterClaimChange decides on a claim added (old nil),
// updated or deleted (new nil). A deleted claim helps only if it was
// allocated. A deallocated claim may have freed devices for any pod
// whose claims all exist. Otherwise only a claim of the pod matters: a
// new one, or one whose status changed (a finalizer added does not).
func (pl *DynamicResources) isSchedulableAfterClaimChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	old, okOld := asClaim(oldObj)
	cur, okNew := asClaim(newObj)
	if !okOld || !okNew {
		return framework.Queue
	}
	if cur == nil {
		if old == nil || old.Status.Allocation != nil {
			return framework.Queue
		}
		return framework.QueueSkip
	}
	claims, err := pl.podClaims(pl.objects(), pod)
	if err != nil {
		// The pod still misses a claim: no claim event helps until
		// its own appears (PodGeneratedResourceClaim or an add).
		return framework.QueueSkip
	}
	if old != nil && old.Status.Allocation != nil && cur.Status.Allocation == nil {
		return framework.Queue
	}
	uses := false
	for _, c := range claims {
		if sameClaim(c, cur) {
			uses = true
		}
	}
	switch {
	case !uses:
		return framework.QueueSkip
	case old == nil:
		return framework.Queue
	case sameStatus(&old.Status, &cur.Status):
		return framework.QueueSkip
	}
	return framework.Queue
}

// isSchedulableAfterTargetPodUpdate queues the pod once every claim of
// the updated pod exists.
func (pl *DynamicResources) isSchedulableAfterTargetPodUpdate(newObj any) framework.QueueingHint {
	p, ok := newObj.(*api.Pod)
	if !ok || p == nil {
		return framework.Queue
	}
	if _, err := pl.podClaims(pl.objects(), p); err != nil {
		return framework.QueueSkip
	}
	return framework.Queue
}

// asClaim reads an event object: ok is false for another type.
func asClaim(obj any) (*api.ResourceClaim, bool) {
	if obj == nil {
		return nil, true
	}
	c, ok := obj.(*api.ResourceClaim)
	return c, ok
}

// sameClaim compares UIDs, as upstream does; claims read from files may
// have none, and are then compared by namespace and name.
func sameClaim(a, b *api.ResourceClaim) bool {
	if a.UID != "" && b.UID != "" {
		return a.UID == b.UID
	}
	return namespaceOf(a) == namespaceOf(b) && a.Name == b.Name
}

// sameStatus is upstream's Semantic.DeepEqual on claim statuses: the
// JSON forms compare nil and empty lists alike.
func sameStatus(a, b *api.ResourceClaimStatus) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
