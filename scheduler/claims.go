package scheduler

import (
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// releaseClaims is the resourceclaim controller's and the garbage
// collector's answer to pod leaving the cluster (deleted, preempted,
// evicted): every claim of the pod's namespace reserved for it loses
// that reservation, and a claim then reserved for nobody that carries
// the scheduler's finalizer is deallocated, freeing its devices
// (v1.37.2 pkg/controller/resourceclaim, syncClaim). A claim whose
// owners are all the pod (one generated from the pod's template, or the
// scheduler's extended resource claim) is then deleted, as the garbage
// collector deletes the dependents of a deleted owner. It returns the
// claim updates and deletions as events for the scheduling queue; a
// deallocation requeues every pod DynamicResources rejected, as
// upstream's hint does.
//
// An evicted pod's replacement (same name and UID here) starts without
// resourceClaimStatuses, so it waits for a claim no controller makes in
// the simulation, as it would without this deletion.
func (s *Scheduler) releaseClaims(pod *api.Pod) ([]framework.Event, error) {
	if s.snapshot.NumObjects(cluster.KindResourceClaim) == 0 {
		return nil, nil
	}
	o := s.snapshot.Objects()
	var events []framework.Event
	for _, c := range slices.Clone(cluster.ListObjects[api.ResourceClaim](o, pod.Namespace)) {
		kept := slices.DeleteFunc(slices.Clone(c.Status.ReservedFor), func(r api.ResourceClaimConsumerReference) bool {
			return r.APIGroup == "" && r.Resource == "pods" && r.Name == pod.Name && r.UID == pod.UID
		})
		// A claim the finalizer protects while other pods use it
		// stays until they leave.
		owned := ownedOnlyBy(c, pod) && (len(kept) == 0 || !slices.Contains(c.Finalizers, api.ResourceClaimFinalizer))
		if len(kept) == len(c.Status.ReservedFor) {
			if owned {
				if err := s.snapshot.RemoveObject(c); err != nil {
					return nil, err
				}
				events = append(events, framework.Event{Kind: framework.ResourceClaimDelete, Old: c})
			}
			continue
		}
		cp := *c
		cp.Status.ReservedFor = kept
		if len(kept) == 0 {
			cp.Status.ReservedFor = nil
			if slices.Contains(c.Finalizers, api.ResourceClaimFinalizer) {
				cp.Status.Allocation, cp.Status.Devices = nil, nil
				cp.Finalizers = slices.DeleteFunc(slices.Clone(c.Finalizers), func(f string) bool { return f == api.ResourceClaimFinalizer })
			}
		}
		if err := s.snapshot.UpdateObject(&cp); err != nil {
			return nil, err
		}
		events = append(events, framework.Event{Kind: framework.ResourceClaimUpdate, Old: c, New: &cp})
		if owned {
			if err := s.snapshot.RemoveObject(&cp); err != nil {
				return nil, err
			}
			events = append(events, framework.Event{Kind: framework.ResourceClaimDelete, Old: &cp})
		}
	}
	return events, nil
}

// ownedOnlyBy reports whether every owner of the claim is the pod (by
// name and UID), and there is one: the garbage collector deletes such a
// claim once the pod is gone.
func ownedOnlyBy(c *api.ResourceClaim, pod *api.Pod) bool {
	if len(c.OwnerReferences) == 0 {
		return false
	}
	for _, o := range c.OwnerReferences {
		if o.APIVersion != "v1" || o.Kind != "Pod" || o.Name != pod.Name || o.UID != pod.UID {
			return false
		}
	}
	return true
}

// emit moves the parked pods of q, and of the scheduler's own queue when
// q is another, that the events may make schedulable.
func (s *Scheduler) emit(q *queue, events ...framework.Event) {
	for _, ev := range events {
		q.moveOn(ev)
		if q != s.q {
			s.q.moveOn(ev)
		}
	}
}

// eventTaker is a plugin whose extension points change cluster objects
// (DynamicResources' PostFilter deallocating a claim) and keeps the
// changes as events.
type eventTaker interface {
	TakeEvents() []framework.Event
}

// takeEvents returns the events the plugins of prof kept during the last
// cycle.
func takeEvents(prof *framework.Profile) []framework.Event {
	if prof == nil {
		return nil
	}
	pl, ok := prof.Plugin(config.DynamicResourcesName)
	if !ok {
		return nil
	}
	if t, ok := pl.(eventTaker); ok {
		return t.TakeEvents()
	}
	return nil
}

// AddObjects adds objects to the snapshot, as cluster.Snapshot.AddObjects
// does, and requeues the parked pods the new DeviceClasses,
// ResourceSlices and ResourceClaims may help, as kube-scheduler's event
// handlers and queueing hints decide. Other kinds change the snapshot
// without requeueing anyone: their events are not modelled.
func (s *Scheduler) AddObjects(objs ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	if err := s.snapshot.AddObjects(objs...); err != nil {
		return err
	}
	for _, obj := range objs {
		if k, ok := objectEvent(obj, false); ok {
			s.emit(s.q, framework.Event{Kind: k, New: obj})
		}
	}
	return nil
}

// UpdateObject replaces an object of the snapshot, as
// cluster.Snapshot.UpdateObject does, and requeues as AddObjects does
// for a change (a claim's hint sees the object before and after).
func (s *Scheduler) UpdateObject(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	old := s.storedClaim(obj)
	if err := s.snapshot.UpdateObject(obj); err != nil {
		return err
	}
	if k, ok := objectEvent(obj, true); ok {
		s.emit(s.q, framework.Event{Kind: k, Old: old, New: obj})
	}
	return nil
}

// RemoveObject removes an object of the snapshot, as
// cluster.Snapshot.RemoveObject does. Removing a ResourceClaim requeues
// the pods an allocated claim's devices may help; kube-scheduler
// registers no event for a class or slice removed.
func (s *Scheduler) RemoveObject(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	old := s.storedClaim(obj)
	if err := s.snapshot.RemoveObject(obj); err != nil {
		return err
	}
	if _, ok := obj.(*api.ResourceClaim); ok && old != nil {
		s.emit(s.q, framework.Event{Kind: framework.ResourceClaimDelete, Old: old})
	}
	return nil
}

// storedClaim returns the snapshot's claim with obj's namespace and name
// when obj is a claim (the object a claim update or delete hint reads
// as before), else nil.
func (s *Scheduler) storedClaim(obj any) any {
	c, ok := obj.(*api.ResourceClaim)
	if !ok || c == nil {
		return nil
	}
	old, ok := cluster.GetObject[api.ResourceClaim](s.snapshot.Objects(), c.Namespace, c.Name)
	if !ok {
		return nil
	}
	return old
}

// objectEvent is the event of an object added (or updated) for the DRA
// kinds.
func objectEvent(obj any, update bool) (framework.ClusterEvent, bool) {
	pick := func(add, upd framework.ClusterEvent) (framework.ClusterEvent, bool) {
		if update {
			return upd, true
		}
		return add, true
	}
	switch obj.(type) {
	case *api.ResourceClaim:
		return pick(framework.ResourceClaimAdd, framework.ResourceClaimUpdate)
	case *api.ResourceSlice:
		return pick(framework.ResourceSliceAdd, framework.ResourceSliceUpdate)
	case *api.DeviceClass:
		return pick(framework.DeviceClassAdd, framework.DeviceClassUpdate)
	}
	return 0, false
}
