package dra

import (
	"reflect"

	"github.com/schedkit/schedkit/api"
)

// A node's Fits answer depends on what the search reads: the claims'
// requests and constraints, the classes they name, the feature gates,
// the node's pools and what the allocated claims hold of them. When the
// node's pools are the Index's own (every slice is node-local), the
// first three are the allocator's shape and the last is the pools'
// poolUse, which a Tracker replaces whenever a claim changes the pool.
// So a pod whose claims have the shape of an earlier pod's reads that
// pod's answer for every node whose pools' use did not change since:
// the work of a stream of alike pods follows the nodes their placements
// changed, not the cluster's size. Only answers without error are kept
// (error texts name the claim); a search is run again on a miss.

// maxShapes bounds the shapes an Index remembers; the oldest is
// forgotten first.
const maxShapes = 64

// maxVerdicts bounds the answers a node keeps, one per shape; the
// oldest is replaced first.
const maxVerdicts = 32

// shape is the part of an Allocator its Fits answers depend on besides
// the node's pools.
type shape struct {
	id       uint64
	seen     int // allocators of the shape built so far
	claims   []*api.ResourceClaim
	classes  []*api.DeviceClass // per flat request, nil when missing
	features Features
}

// verdict is one Fits answer for a node's pools: ok, for the shape id,
// while the pools' uses are use0 (the first pool's) and rest.
type verdict struct {
	shape uint64
	ok    bool
	use0  *poolUse
	rest  []*poolUse
}

// verdicts are the answers a node keeps, in slots reused oldest
// first, so that keeping an answer allocates nothing once the slots
// exist. The node's first pool's mu guards them.
type verdicts struct {
	v    [maxVerdicts]verdict
	next int
}

// shapeOf returns the id of the allocator's shape, registering it, and
// whether answers for it are kept: from the second allocator of a
// shape on, so that pods alike in nothing cost nothing more. It is 0
// when the node's pools are not the Index's own.
func (x *Index) shapeOf(a *Allocator) (uint64, bool) {
	if x.localPools == nil {
		return 0, false
	}
	sh := shape{claims: a.claims, features: a.features, seen: 1}
	for ci := range a.reqs {
		for ri := range a.reqs[ci] {
			for si := range a.reqs[ci][ri].subs {
				sh.classes = append(sh.classes, a.reqs[ci][ri].subs[si].class)
			}
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for i := len(x.shapes) - 1; i >= 0; i-- {
		if x.shapes[i].same(&sh) {
			x.shapes[i].seen++
			return x.shapes[i].id, true
		}
	}
	x.lastShape++
	sh.id = x.lastShape
	if len(x.shapes) == maxShapes {
		x.shapes = append(x.shapes[:0], x.shapes[1:]...)
	}
	x.shapes = append(x.shapes, sh)
	return sh.id, false
}

// same reports whether the two shapes search alike.
func (s *shape) same(o *shape) bool {
	if len(s.claims) != len(o.claims) || s.features != o.features || len(s.classes) != len(o.classes) {
		return false
	}
	for i, c := range s.classes {
		if c != o.classes[i] {
			return false
		}
	}
	for i, c := range s.claims {
		d := o.claims[i]
		if c == d {
			continue
		}
		if !reflect.DeepEqual(c.Spec.Devices.Requests, d.Spec.Devices.Requests) ||
			!reflect.DeepEqual(c.Spec.Devices.Constraints, d.Spec.Devices.Constraints) {
			return false
		}
	}
	return true
}

// keptVerdict returns the node's kept answer for the allocator's shape
// and the pools' uses now, if any.
func (a *Allocator) keptVerdict(pools []*pool) (ok, found bool) {
	p0 := pools[0]
	use0 := a.use.pool(p0.id)
	p0.mu.Lock()
	defer p0.mu.Unlock()
	vs := p0.verdicts
	if vs == nil {
		return false, false
	}
	for i := range vs.v {
		v := &vs.v[i]
		if v.shape != a.shape {
			continue
		}
		if v.use0 != use0 {
			return false, false
		}
		for i, p := range pools[1:] {
			if a.use.pool(p.id) != v.rest[i] {
				return false, false
			}
		}
		return v.ok, true
	}
	return false, false
}

// keepVerdict stores the node's answer for the allocator's shape,
// replacing an older one for the shape, else the oldest.
func (a *Allocator) keepVerdict(pools []*pool, ok bool) {
	p0 := pools[0]
	p0.mu.Lock()
	defer p0.mu.Unlock()
	if p0.verdicts == nil {
		p0.verdicts = &verdicts{}
	}
	vs := p0.verdicts
	slot := -1
	for i := range vs.v {
		if vs.v[i].shape == a.shape {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = vs.next
		vs.next = (vs.next + 1) % maxVerdicts
	}
	v := &vs.v[slot]
	v.shape, v.ok, v.use0 = a.shape, ok, a.use.pool(p0.id)
	v.rest = v.rest[:0]
	for _, p := range pools[1:] {
		v.rest = append(v.rest, a.use.pool(p.id))
	}
}
