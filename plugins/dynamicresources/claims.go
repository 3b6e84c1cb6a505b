package dynamicresources

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
)

// claimTracker follows the claims as the plugin sees them (the
// snapshot's, with the assumed ones in place of theirs) claim by claim,
// so that a pod's PreFilter costs what changed since the last pod, not
// the number of claims.
//
// It holds two things derived from those claims: the devices their
// allocations hold (a dra.Tracker, whose InUse a pod's allocator reads)
// and the extended resource claims by the UID of their controller. The
// store it follows is o: when the snapshot's store is another, sync
// applies the claims that differ (cluster.ChangedObjects), dropping
// their assumed versions. Every change of the assumed state goes
// through track. It is guarded by the plugin's mu.
type claimTracker struct {
	o       *cluster.Objects
	synced  bool
	devices *dra.Tracker
	// ext are the claims annotated as extended resource claims, by the
	// UID of each of their controllers.
	ext map[string]map[claimKey]*api.ResourceClaim
}

// syncLocked brings the tracker to store o with the assumed claims.
func (pl *DynamicResources) syncLocked(o *cluster.Objects) {
	t := &pl.tracked
	if t.synced && t.o == o {
		return
	}
	if !t.synced {
		t.devices, t.ext, t.synced = dra.NewTracker(), map[string]map[claimKey]*api.ResourceClaim{}, true
		for c := range cluster.AllObjects[api.ResourceClaim](o) {
			k := claimKey{namespaceOf(c), c.Name}
			if _, ok := pl.assumed[k]; !ok {
				pl.track(k, c)
			}
		}
		for k, c := range pl.assumed {
			pl.track(k, c)
		}
		t.o = o
		return
	}
	for old, c := range cluster.ChangedObjects[api.ResourceClaim](t.o, o) {
		obj := c
		if obj == nil {
			obj = old
		}
		k := claimKey{namespaceOf(obj), obj.Name}
		// The store's claim changed after it was assumed: the newer
		// object replaces the assumed one, as upstream's assume cache
		// takes the informer's newer object and drops it on delete. A
		// claim deleted and made again under its name is such a
		// change, so it is never read as the assumed one.
		delete(pl.assumed, k)
		pl.track(k, c)
	}
	t.o = o
}

// track makes c (nil: none) the claim named k.
func (pl *DynamicResources) track(k claimKey, c *api.ResourceClaim) {
	t := &pl.tracked
	dk := dra.ClaimKey{Namespace: k.namespace, Name: k.name}
	old := t.devices.Claim(dk)
	if old == c {
		return
	}
	for _, uid := range extOwners(old) {
		delete(t.ext[uid], k)
		if len(t.ext[uid]) == 0 {
			delete(t.ext, uid)
		}
	}
	for _, uid := range extOwners(c) {
		m := t.ext[uid]
		if m == nil {
			m = map[claimKey]*api.ResourceClaim{}
			t.ext[uid] = m
		}
		m[k] = c
	}
	t.devices.Set(dk, c)
}

// extOwners returns the UIDs of the controllers of an extended resource
// claim; none for any other claim.
func extOwners(c *api.ResourceClaim) []string {
	if c == nil || c.Annotations[api.ExtendedResourceClaimAnnotation] != "true" {
		return nil
	}
	var out []string
	for _, or := range c.OwnerReferences {
		if or.Controller != nil && *or.Controller {
			out = append(out, or.UID)
		}
	}
	return out
}

// setAssumed records c (nil: deleted) as the assumed claim k, after
// bringing the tracker to the snapshot's store.
func (pl *DynamicResources) setAssumed(k claimKey, c *api.ResourceClaim) {
	o := pl.objects()
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.syncLocked(o)
	pl.assumed[k] = c
	pl.track(k, c)
}

// dropAssumed forgets the assumed claims ks: the store's claims count
// again.
func (pl *DynamicResources) dropAssumed(ks ...claimKey) {
	o := pl.objects()
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.syncLocked(o)
	for _, k := range ks {
		if _, ok := pl.assumed[k]; !ok {
			continue
		}
		delete(pl.assumed, k)
		c, _ := cluster.GetObject[api.ResourceClaim](pl.tracked.o, k.namespace, k.name)
		pl.track(k, c)
	}
}

// inUse returns what the allocated claims of store o and the assumed
// state hold.
func (pl *DynamicResources) inUse(o *cluster.Objects) *dra.InUse {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.syncLocked(o)
	return pl.tracked.devices.InUse()
}

// findExtendedClaim returns the claim annotated as the extended resource
// claim whose controller is pod, if any; of several, the first by
// namespace and name.
func (pl *DynamicResources) findExtendedClaim(o *cluster.Objects, pod *api.Pod) *api.ResourceClaim {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.syncLocked(o)
	var found *api.ResourceClaim
	for _, c := range pl.tracked.ext[pod.UID] {
		for _, or := range c.OwnerReferences {
			if or.Name == pod.Name && or.Controller != nil && *or.Controller && or.UID == pod.UID {
				if found == nil || namespaceOf(c)+"/"+c.Name < namespaceOf(found)+"/"+found.Name {
					found = c
				}
			}
		}
	}
	return found
}
