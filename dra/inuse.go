package dra

import (
	"hash/maphash"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// InUse is an immutable picture of what the allocated claims hold, per
// pool and device: the devices held outright, the shares of devices
// that allow multiple allocations and the capacity those shares
// consume. It is AllocatedState in the form a Tracker keeps across
// pods. A Tracker's InUse shares the pools a change did not touch with
// the one before it, so that publishing a change costs the pools it
// touched. Safe for concurrent use.
type InUse struct {
	shards [inUseShards]map[PoolID]*poolUse
	seed   maphash.Seed
}

// inUseShards is how many maps an InUse spreads its pools over; a
// change copies the shards it touches.
const inUseShards = 64

// poolUse is what the allocated claims hold in one pool, by device name.
type poolUse struct {
	devices map[string]deviceUse
}

// deviceUse is what the allocated claims hold of one device.
type deviceUse struct {
	// held counts the results holding the device outright.
	held int
	// shares counts the results with a share ID.
	shares int
	// capShares counts the shares with consumed capacity, summed in
	// capacity.
	capShares int
	capacity  ConsumedCapacity
}

func (d deviceUse) zero() bool { return d.held == 0 && d.shares == 0 && d.capShares == 0 }

// NewInUse returns what the claims' allocations hold, as
// NewAllocatedState counts them.
func NewInUse(claims []*api.ResourceClaim) *InUse {
	t := NewTracker()
	for i, c := range claims {
		t.set(trackKey(i), c)
	}
	return t.InUse()
}

// inUseFromState converts a plain AllocatedState.
func inUseFromState(s *AllocatedState) *InUse {
	t := NewTracker()
	if s == nil {
		return t.InUse()
	}
	for id := range s.Devices {
		t.change(id, func(d *deviceUse) { d.held++ })
	}
	for sid := range s.SharedDevices {
		t.change(sid.DeviceID, func(d *deviceUse) { d.shares++ })
	}
	for id, cc := range s.Capacity {
		t.change(id, func(d *deviceUse) {
			d.capShares++
			d.capacity = addCapacity(d.capacity, cc, 1)
		})
	}
	return t.InUse()
}

func (u *InUse) pool(id PoolID) *poolUse {
	if u == nil {
		return nil
	}
	return u.shards[shardOf(u.seed, id)][id]
}

func shardOf(seed maphash.Seed, id PoolID) int {
	return int(maphash.Comparable(seed, id) % inUseShards)
}

func (p *poolUse) device(name string) (deviceUse, bool) {
	if p == nil {
		return deviceUse{}, false
	}
	d, ok := p.devices[name]
	return d, ok
}

// Held reports whether an allocated claim holds the device outright.
func (u *InUse) Held(id DeviceID) bool {
	d, _ := u.pool(PoolID{id.Driver, id.Pool}).device(id.Device)
	return d.held > 0
}

// State returns the picture as an AllocatedState; share IDs are not
// kept, so each device with shares gets one share named "".
func (u *InUse) State() *AllocatedState {
	s := &AllocatedState{Devices: map[DeviceID]struct{}{}, SharedDevices: map[SharedDeviceID]struct{}{}, Capacity: map[DeviceID]ConsumedCapacity{}}
	if u == nil {
		return s
	}
	for _, shard := range u.shards {
		for pid, p := range shard {
			for name, d := range p.devices {
				id := DeviceID{pid.Driver, pid.Pool, name}
				if d.held > 0 {
					s.Devices[id] = struct{}{}
				}
				if d.shares > 0 {
					s.SharedDevices[SharedDeviceID{DeviceID: id}] = struct{}{}
				}
				if d.capShares > 0 {
					s.Capacity[id] = d.capacity
				}
			}
		}
	}
	return s
}

// Tracker keeps what the allocated claims hold as claims change one by
// one: Set replaces a claim's allocation, and InUse publishes the
// result. The work of a change follows the devices of the claim, never
// the number of claims. A Tracker is not safe for concurrent use; the
// InUse it publishes is.
type Tracker struct {
	claims map[trackKey]*api.ResourceClaim
	cur    *InUse
	// published: cur has been handed out and is copied before the next
	// change; ownShard and ownPool say which shards and pools the
	// unpublished cur owns.
	published bool
	ownShard  [inUseShards]bool
	ownPool   map[PoolID]bool
}

// trackKey names a claim in a Tracker.
type trackKey any

// ClaimKey names a claim: its namespace and name.
type ClaimKey struct {
	// Namespace of the claim.
	Namespace string
	// Name of the claim.
	Name string
}

// NewTracker returns a Tracker of no claims.
func NewTracker() *Tracker {
	t := &Tracker{claims: map[trackKey]*api.ResourceClaim{}, cur: &InUse{seed: maphash.MakeSeed()}, ownPool: map[PoolID]bool{}}
	for i := range t.cur.shards {
		t.ownShard[i] = true
	}
	return t
}

// Set makes claim (nil: none) the claim named k: the devices of the
// claim it replaces are released and those of claim's allocation are
// held.
func (t *Tracker) Set(k ClaimKey, claim *api.ResourceClaim) { t.set(k, claim) }

// Claim returns the claim named k, as last Set.
func (t *Tracker) Claim(k ClaimKey) *api.ResourceClaim { return t.claims[k] }

func (t *Tracker) set(k trackKey, claim *api.ResourceClaim) {
	old := t.claims[k]
	if old == claim {
		return
	}
	if claim == nil {
		delete(t.claims, k)
	} else {
		t.claims[k] = claim
	}
	t.apply(old, -1)
	t.apply(claim, 1)
}

// InUse returns what the claims hold now. It is not changed by later
// calls to Set.
func (t *Tracker) InUse() *InUse {
	t.published = true
	return t.cur
}

// apply adds (sign 1) or removes (-1) the devices of a claim's
// allocation, counting as NewAllocatedState does: admin access results
// do not count, a result with a share ID is a share, any other result
// holds its device.
func (t *Tracker) apply(claim *api.ResourceClaim, sign int) {
	if claim == nil || claim.Status.Allocation == nil {
		return
	}
	for _, r := range claim.Status.Allocation.Devices.Results {
		if r.AdminAccess != nil && *r.AdminAccess {
			continue
		}
		id := DeviceID{r.Driver, r.Pool, r.Device}
		switch {
		case r.ShareID == nil:
			t.change(id, func(d *deviceUse) { d.held += sign })
		case r.ConsumedCapacity != nil:
			t.change(id, func(d *deviceUse) {
				d.shares += sign
				d.capShares += sign
				d.capacity = addCapacity(d.capacity, r.ConsumedCapacity, sign)
				if d.capShares == 0 {
					d.capacity = nil
				}
			})
		default:
			t.change(id, func(d *deviceUse) { d.shares += sign })
		}
	}
}

// change applies f to the device's use in the unpublished picture,
// copying the picture, the shard and the pool first as needed.
func (t *Tracker) change(id DeviceID, f func(*deviceUse)) {
	if t.published {
		cp := *t.cur
		t.cur = &cp
		t.published = false
		t.ownShard = [inUseShards]bool{}
		clear(t.ownPool)
	}
	pid := PoolID{id.Driver, id.Pool}
	si := shardOf(t.cur.seed, pid)
	shard := t.cur.shards[si]
	if !t.ownShard[si] || shard == nil {
		next := make(map[PoolID]*poolUse, len(shard)+1)
		for k, v := range shard {
			next[k] = v
		}
		shard = next
		t.cur.shards[si] = shard
		t.ownShard[si] = true
	}
	p := shard[pid]
	if !t.ownPool[pid] || p == nil {
		next := &poolUse{devices: make(map[string]deviceUse, 1)}
		if p != nil {
			for k, v := range p.devices {
				next.devices[k] = v
			}
		}
		p = next
		shard[pid] = p
		t.ownPool[pid] = true
	}
	d := p.devices[id.Device]
	f(&d)
	switch {
	case !d.zero():
		p.devices[id.Device] = d
	default:
		delete(p.devices, id.Device)
		if len(p.devices) == 0 {
			delete(shard, pid)
			delete(t.ownPool, pid)
		}
	}
}

// addCapacity returns a new sum: c plus (sign 1) or minus (-1) add.
func addCapacity(c ConsumedCapacity, add map[api.QualifiedName]quantity.Quantity, sign int) ConsumedCapacity {
	out := make(ConsumedCapacity, len(c)+len(add))
	for k, v := range c {
		out[k] = v
	}
	for name, q := range add {
		sum := out[name]
		if sign > 0 {
			sum.Add(q)
		} else {
			sum.Sub(q)
		}
		out[name] = sum
	}
	return out
}
