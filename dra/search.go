package dra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// errStop and errMaxSize steer the backtracking search: errMaxSize says
// the claim's device limit was hit, so a prioritized list may still try
// an alternative that needs fewer devices.
var (
	errStop    = errors.New("stop allocation")
	errMaxSize = errors.New("allocation max size exceeded")
)

// Allocate finds devices for every claim on the node. It returns one
// AllocationResult per claim, nil when the claims do not fit on the node
// (including when a pool is being updated), and an error only for input
// no node can satisfy, such as a missing class or a CEL runtime error; an
// error wrapping ErrFailedAllocationOnNode concerns only this node.
func (a *Allocator) Allocate(ctx context.Context, node *api.Node) ([]api.AllocationResult, error) {
	out, _, err := a.run(ctx, node, 0, true)
	return out, err
}

// Fits reports whether Allocate would find devices for every claim on
// node, with the same errors, without building the results: after the
// first nodes it allocates nothing for a node whose pools are its own
// slices (no slice of the cluster is shared by node selector or
// allNodes). A positive timeout bounds the search as a context deadline
// would (the error wraps context.DeadlineExceeded), checked as the
// search goes, without the timer a context needs.
func (a *Allocator) Fits(ctx context.Context, node *api.Node, timeout time.Duration) (bool, error) {
	_, ok, err := a.run(ctx, node, timeout, false)
	return ok, err
}

// run is Allocate (build) or Fits.
func (a *Allocator) run(ctx context.Context, node *api.Node, timeout time.Duration, build bool) ([]api.AllocationResult, bool, error) {
	pools, err := a.gatherPools(node)
	if err != nil {
		return nil, false, fmt.Errorf("gather pool information: %w", err)
	}
	if len(a.claims) == 0 {
		return []api.AllocationResult{}, true, nil
	}
	if len(pools) == 0 && ctx.Err() == nil {
		if err, needs := a.withoutDevices(); err != nil || needs {
			return nil, false, err
		}
	}
	keep := !build && a.keep && len(pools) > 0 && pools[0].stable
	if keep && ctx.Err() == nil {
		if ok, found := a.keptVerdict(pools); found {
			return nil, ok, nil
		}
	}
	s := a.newSearch(ctx, node, pools, build)
	defer a.searches.Put(s)
	s.timeout = timeout
	for ci, claim := range a.claims {
		minClaim := 0
		for ri := range a.reqs[ci] {
			e := &a.reqs[ci][ri]
			minReq := math.MaxInt
			for si := range e.subs {
				r := &e.subs[si]
				if r.err != nil {
					return nil, false, r.err
				}
				d := &s.data[ci][ri][si]
				*d = reqData{r: r, all: d.all[:0]}
				if r.mode == api.DeviceAllocationModeAll {
					if err := s.allDevices(claim, r, d); err != nil {
						return nil, false, err
					}
					d.n = len(d.all)
				} else {
					if r.count > math.MaxInt {
						return nil, false, fmt.Errorf("claim %s, request %s: exact count %d is too large", kobj(claim), r.name, r.count)
					}
					d.n = int(r.count)
				}
				minReq = min(minReq, d.n)
			}
			if len(e.subs) == 0 {
				minReq = 0
			}
			if minReq > api.AllocationResultsMaxSize-minClaim {
				return nil, false, fmt.Errorf("claim %s, request %s: adding %d devices exceeds the claim limit of %d, with %d already accounted for",
					kobj(claim), e.name, minReq, api.AllocationResultsMaxSize, minClaim)
			}
			minClaim += minReq
		}
		if err := a.consErr[ci]; err != nil {
			return nil, false, err
		}
		for i := range a.cons[ci] {
			s.cons[ci][i] = constraint{spec: &a.cons[ci][i], seen: s.cons[ci][i].seen[:0]}
		}
		s.results[ci] = slices.Grow(s.results[ci][:0], minClaim)
	}

	done, err := s.allocateOne(pos{}, false, loc{})
	if errors.Is(err, errStop) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !done {
		for _, p := range pools {
			if p.invalid {
				return nil, false, fmt.Errorf("invalid resource pools were encountered%w", ErrFailedAllocationOnNode)
			}
		}
		if keep {
			a.keepVerdict(pools, false)
		}
		return nil, false, nil
	}
	if !build {
		for ci, claim := range a.claims {
			if err := s.nodeSelectorErr(s.results[ci]); err != nil {
				return nil, false, fmt.Errorf("create NodeSelector for claim %s: %w", claim.Name, err)
			}
		}
		if keep {
			a.keepVerdict(pools, true)
		}
		return nil, true, nil
	}
	out, err := s.build()
	return out, err == nil, err
}

// newSearch returns a search for node from the allocator's pool, its
// buffers kept from earlier searches and emptied.
func (a *Allocator) newSearch(ctx context.Context, node *api.Node, pools []*pool, build bool) *search {
	s, _ := a.searches.Get().(*search)
	if s == nil {
		s = &search{a: a}
		s.data = make([][][]reqData, len(a.claims))
		s.results = make([][]devResult, len(a.claims))
		s.cons = make([][]constraint, len(a.claims))
		for ci := range a.claims {
			s.data[ci] = make([][]reqData, len(a.reqs[ci]))
			for ri := range a.reqs[ci] {
				s.data[ci][ri] = make([]reqData, len(a.reqs[ci][ri].subs))
			}
			s.cons[ci] = make([]constraint, len(a.cons[ci]))
		}
	}
	s.ctx, s.node, s.pools, s.building, s.timeout, s.deadline, s.steps = ctx, node, pools, build, 0, time.Time{}, 0
	s.allocating = s.allocating[:0]
	clear(s.capacity)
	clear(s.consumed)
	return s
}

// withoutDevices is Allocate on a node without pools, without allocating:
// the first error the full search would report (the claims' own errors,
// the device limit, empty constraints) and whether some request needs a
// device, which then cannot be had. A context error is left to the search.
func (a *Allocator) withoutDevices() (error, bool) {
	needs := false
	for ci, claim := range a.claims {
		minClaim := 0
		for ri := range a.reqs[ci] {
			e := &a.reqs[ci][ri]
			minReq := math.MaxInt
			zeroOK := false // some alternative is satisfied by no device
			for si := range e.subs {
				r := &e.subs[si]
				if r.err != nil {
					return r.err, false
				}
				n := 0 // an All request without devices takes none, and fails
				if r.mode != api.DeviceAllocationModeAll {
					if r.count > math.MaxInt {
						return fmt.Errorf("claim %s, request %s: exact count %d is too large", kobj(claim), r.name, r.count), false
					}
					n = int(r.count)
					zeroOK = zeroOK || n <= 0
				}
				minReq = min(minReq, n)
			}
			if len(e.subs) == 0 {
				minReq, zeroOK = 0, true
			}
			if minReq > api.AllocationResultsMaxSize-minClaim {
				return fmt.Errorf("claim %s, request %s: adding %d devices exceeds the claim limit of %d, with %d already accounted for",
					kobj(claim), e.name, minReq, api.AllocationResultsMaxSize, minClaim), false
			}
			needs = needs || !zeroOK
			minClaim += minReq
		}
		if err := a.consErr[ci]; err != nil {
			return err, false
		}
	}
	return nil, needs
}

// reqData is a request's state during one Allocate.
type reqData struct {
	r        *request
	n        int         // devices to allocate
	all      []candidate // for All: the devices, fixed up front
	selected int         // for the first subrequest: the one chosen
}

type candidate struct {
	id    DeviceID
	dev   *api.Device
	slice *sliceInfo
	gidx  int // global device index
	pool  *pool
	// use is what allocated claims hold of the device.
	use deviceUse
}

type devResult struct {
	c        candidate
	r        *request
	shareID  *string
	consumed map[api.QualifiedName]quantity.Quantity
}

// pos is the device being searched for: claim, request, subrequest, and
// the device's index within the request.
type pos struct{ claim, req, sub, dev int }

// loc is a device's place in the node's pools.
type loc struct{ pool, slice, dev int }

type search struct {
	a     *Allocator
	ctx   context.Context
	node  *api.Node
	pools []*pool
	// building: the results are built (Allocate), so share IDs are
	// made; Fits leaves them out.
	building bool
	// timeout, when positive, ends the search as a context deadline
	// would. The clock is read every 64 steps, the first time to set
	// deadline: a search that ends sooner, as most do, never reads
	// it, and one that ends later is bounded 64 steps late.
	timeout  time.Duration
	deadline time.Time
	steps    int
	data     [][][]reqData
	cons     [][]constraint
	results  [][]devResult

	// allocating are the devices being allocated, with their claims,
	// in the order taken: a claim gets at most 32 devices, so a list
	// is read faster than a map is hashed.
	allocating []allocatingDevice
	capacity   map[DeviceID]ConsumedCapacity
	consumed   map[PoolID]counterSets
}

// allDevices lists the devices an All request takes: every selectable
// device of every pool whose static capacity fits. An incomplete or
// invalid pool makes the request fail.
func (s *search) allDevices(claim *api.ResourceClaim, r *request, d *reqData) error {
	for _, p := range s.pools {
		if p.incomplete {
			return fmt.Errorf("claim %s, request %s: asks for all devices, but resource pool %s is currently being updated", kobj(claim), r.name, p.id)
		}
		if p.invalid {
			return fmt.Errorf("claim %s, request %s: asks for all devices, but resource pool %s is currently invalid", kobj(claim), r.name, p.id)
		}
		use := s.a.use.pool(p.id)
		for _, si := range p.targeting {
			for di := range si.s.Spec.Devices {
				c := candidate{id: DeviceID{si.s.Spec.Driver, si.s.Spec.Pool.Name, si.s.Spec.Devices[di].Name},
					dev: &si.s.Spec.Devices[di], slice: si, gidx: si.base + di, pool: p}
				c.use, _ = use.device(c.id.Device)
				ok, err := s.selectable(claim, r, c)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				fits, err := fitsCapacity(nil, r.capacity, c.dev, nil, s.a.features.FractionalCapacityRange)
				if err != nil {
					return fmt.Errorf("claim %s, request %s: checking capacity for device %s: %w", kobj(claim), r.name, c.dev.Name, err)
				}
				if !fits {
					continue
				}
				if d.all == nil {
					d.all = make([]candidate, 0, api.AllocationResultsMaxSize)
				}
				d.all = append(d.all, c)
			}
		}
	}
	return nil
}

// allocateOne searches for the device at p and, recursively, every device
// after it: the first complete solution wins. Devices of one request are
// tried in pool, slice, device order from start, so each combination is
// tried once.
func (s *search) allocateOne(p pos, inSub bool, start loc) (bool, error) {
	if err := s.ctx.Err(); err != nil {
		return false, fmt.Errorf("filter operation aborted: %w", context.Cause(s.ctx))
	}
	if s.timeout > 0 {
		if s.steps++; s.steps%64 == 0 && s.pastDeadline() {
			return false, fmt.Errorf("filter operation aborted: %w", context.DeadlineExceeded)
		}
	}
	if p.claim >= len(s.a.claims) {
		return true, nil
	}
	claim := s.a.claims[p.claim]
	if p.req >= len(s.data[p.claim]) {
		ok, err := s.allocateOne(pos{claim: p.claim + 1}, false, loc{})
		if errors.Is(err, errMaxSize) {
			return false, nil
		}
		return ok, err
	}
	subs := s.data[p.claim][p.req]
	if len(subs) == 0 {
		return s.allocateOne(pos{claim: p.claim, req: p.req + 1}, false, loc{})
	}
	d := &subs[p.sub]
	if !inSub && d.r.parent != "" {
		allExceeded := true
		for si := range subs {
			p.sub = si
			ok, err := s.allocateOne(p, true, loc{})
			if errors.Is(err, errMaxSize) {
				continue
			}
			allExceeded = false
			if err != nil {
				return false, err
			}
			if ok {
				subs[0].selected = si
				return true, nil
			}
		}
		if allExceeded {
			return false, errMaxSize
		}
		return false, nil
	}
	r := d.r
	all := r.mode == api.DeviceAllocationModeAll
	if all && len(d.all) == 0 {
		return false, nil
	}
	if p.dev >= d.n {
		return s.allocateOne(pos{claim: p.claim, req: p.req + 1}, false, loc{})
	}
	if d.n-p.dev > api.AllocationResultsMaxSize-len(s.results[p.claim]) {
		return false, errMaxSize
	}
	next := pos{claim: p.claim, req: p.req, sub: p.sub, dev: p.dev + 1}
	if all {
		ok, undo, err := s.allocateDevice(p, d, d.all[p.dev], true)
		if err != nil || !ok {
			return false, err
		}
		done, err := s.allocateOne(next, inSub, loc{})
		if err != nil || !done {
			s.undo(p, d.all[p.dev], undo)
			return false, err
		}
		return true, nil
	}
	for pi := start.pool; pi < len(s.pools); pi++ {
		pl := s.pools[pi]
		if pl.incomplete || pl.invalid {
			continue
		}
		uses := pl.uses(s.a.use)
		sliceStart := 0
		if pi == start.pool {
			sliceStart = start.slice
		}
		for sli := sliceStart; sli < len(pl.targeting); sli++ {
			si := pl.targeting[sli]
			devStart := 0
			if pi == start.pool && sli == start.slice {
				devStart = start.dev
			}
			for di := devStart; di < len(si.s.Spec.Devices); di++ {
				c := candidate{id: DeviceID{pl.id.Driver, pl.id.Pool, si.s.Spec.Devices[di].Name},
					dev: &si.s.Spec.Devices[di], slice: si, gidx: si.base + di, pool: pl}
				c.use = uses.of(sli, di, c.id.Device)
				if r.admin && s.allocatingFor(c.id, p.claim) {
					continue
				}
				if !r.admin && s.inUse(c) {
					continue
				}
				ok, err := s.selectable(claim, r, c)
				if err != nil {
					return false, err
				}
				if !ok {
					continue
				}
				fits, err := s.fits(r, c)
				if err != nil {
					return false, fmt.Errorf("claim %s, request %s: checking capacity for device %s: %w", kobj(claim), r.name, c.id, err)
				}
				if !fits {
					continue
				}
				ok, undo, err := s.allocateDevice(p, d, c, false)
				if err != nil {
					return false, err
				}
				if !ok {
					continue
				}
				done, err := s.allocateOne(next, inSub, loc{pi, sli, di + 1})
				if err == nil && done {
					return true, nil
				}
				s.undo(p, c, undo)
				if err != nil {
					return false, err
				}
			}
		}
	}
	return false, nil
}

// pastDeadline reports whether the search ran out of time, starting
// the clock on its first call.
func (s *search) pastDeadline() bool {
	now := time.Now()
	if s.deadline.IsZero() {
		s.deadline = now.Add(s.timeout)
		return false
	}
	return now.After(s.deadline)
}

// selectable checks the class's and the request's selectors and, for a
// slice with per-device node selection, the device's nodes. Selector
// results are kept per device in the Index, for every request with the
// same selectors: they do not depend on the node or the pod. The
// per-device node check is done every time.
func (s *search) selectable(claim *api.ResourceClaim, r *request, c candidate) (bool, error) {
	var v uint32
	if r.matched != nil {
		v = r.matched.v[c.gidx].Load()
	}
	if v == 0 {
		ok, err := s.selectorsMatch(claim, r, c)
		if err != nil {
			return false, err
		}
		v = 1
		if ok {
			v = 2
		}
		if r.matched != nil {
			r.matched.v[c.gidx].Store(v)
		}
	}
	if v == 1 {
		return false, nil
	}
	si := c.slice
	if deref(si.s.Spec.PerDeviceNodeSelection) {
		di := c.gidx - si.base
		m, err := nodeMatches(s.node, deref(c.dev.NodeName), deref(c.dev.AllNodes), si.devSel[di], si.devSelErr[di], c.dev.NodeSelector)
		if err != nil {
			return false, err
		}
		return m, nil
	}
	return true, nil
}

func (s *search) selectorsMatch(claim *api.ResourceClaim, r *request, c candidate) (bool, error) {
	for i, sel := range r.classSels {
		if sel.err != nil {
			return false, fmt.Errorf("class %s: selector #%d: CEL compile error: %w", r.class.Name, i, sel.err)
		}
		ok, err := s.matches(sel, c)
		if err != nil {
			return false, fmt.Errorf("class %s: selector #%d on device %s: CEL runtime error: %w", r.class.Name, i, c.id, err)
		}
		if !ok {
			return false, nil
		}
	}
	for i, sel := range r.sels {
		if sel.err != nil {
			return false, fmt.Errorf("claim %s: selector #%d: CEL compile error: %w", kobj(claim), i, sel.err)
		}
		ok, err := s.matches(sel, c)
		if err != nil {
			return false, fmt.Errorf("claim %s: selector #%d on device %s: CEL runtime error: %w", kobj(claim), i, c.id, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// matches evaluates a compiled selector on the candidate, through the
// allocator's MatchCache when it has one.
func (s *search) matches(sel compiled, c candidate) (bool, error) {
	mc := s.a.matches
	if mc == nil {
		return sel.sel.Matches(s.ctx, c.id.Driver, c.dev)
	}
	k := matchKey{sel.expr, c.dev}
	if v, ok := mc.get(k); ok {
		return v, nil
	}
	ok, err := sel.sel.Matches(s.ctx, c.id.Driver, c.dev)
	if err == nil {
		mc.put(k, ok)
	}
	return ok, err
}

// allocatingDevice is a device being allocated to a claim.
type allocatingDevice struct {
	id    DeviceID
	claim int
}

func (s *search) allocatingFor(id DeviceID, claim int) bool {
	return slices.Contains(s.allocating, allocatingDevice{id, claim})
}

// beingAllocated reports whether some claim is being allocated the
// device.
func (s *search) beingAllocated(id DeviceID) bool {
	for i := range s.allocating {
		if s.allocating[i].id == id {
			return true
		}
	}
	return false
}

func (s *search) inUse(c candidate) bool {
	if c.use.held > 0 {
		return true
	}
	return s.beingAllocated(c.id)
}

// capacityInUse reports whether a multi-allocation device already has a
// share, allocated or being allocated.
func (s *search) capacityInUse(c candidate) bool {
	if c.use.shares > 0 || c.use.capShares > 0 {
		return true
	}
	_, ok := s.capacity[c.id]
	return ok
}

// fits checks the request's capacity against what the device has left.
func (s *search) fits(r *request, c candidate) (bool, error) {
	if (r.capacity == nil || len(r.capacity.Requests) == 0) && c.use.capacity == nil && c.slice.plainCapacity[c.gidx-c.slice.base] && len(s.capacity) == 0 {
		// fitsCapacity's first answer, known from the index.
		return true, nil
	}
	return fitsCapacity(c.use.capacity, r.capacity, c.dev, s.capacity[c.id], s.a.features.FractionalCapacityRange)
}

// allocateDevice tries one candidate for the device at p: availability,
// counters, taints, constraints, capacity. On success the state holds the
// device and s.undo with the returned state releases it (a state, not a
// closure, so that a search allocates nothing per device).
func (s *search) allocateDevice(p pos, d *reqData, c candidate, must bool) (bool, rollback, error) {
	claim := s.a.claims[p.claim]
	r := d.r
	multi := deref(c.dev.AllowMultipleAllocations)
	if !multi && r.admin && s.allocatingFor(c.id, p.claim) {
		return false, rollback{}, nil
	}
	if !r.admin && s.inUse(c) {
		return false, rollback{}, nil
	}
	skipCounters := multi && s.capacityInUse(c)
	st := rollback{prevResults: len(s.results[p.claim])}
	if !skipCounters && len(c.dev.ConsumesCounters) > 0 {
		if !s.reserveCounters(c) {
			return false, rollback{}, nil
		}
		st.counters = true
	}
	base, sub := r.name, ""
	if r.parent != "" {
		base, sub = r.parent, r.name
	}
	if taintPrevents(c.dev, r.tols) {
		s.rollback(p, c, base, sub, st)
		return false, rollback{}, nil
	}
	for i := range s.cons[p.claim] {
		if !s.cons[p.claim][i].add(base, sub, c) {
			s.rollback(p, c, base, sub, st)
			if must {
				return false, rollback{}, fmt.Errorf("claim %s, request %s: cannot add device %s because a claim constraint would not be satisfied", kobj(claim), r.name, c.id)
			}
			return false, rollback{}, nil
		}
		st.cons++
	}
	if !multi {
		s.allocating = append(s.allocating, allocatingDevice{c.id, p.claim})
		st.marked = true
	}
	var consumed map[api.QualifiedName]quantity.Quantity
	var shareID *string
	ok, err := s.fits(r, c)
	if err != nil {
		s.rollback(p, c, base, sub, st)
		return false, rollback{}, fmt.Errorf("claim %s, request %s: rechecking capacity for device %s: %w", kobj(claim), r.name, c.id, err)
	}
	if !ok {
		s.rollback(p, c, base, sub, st)
		return false, rollback{}, nil
	}
	if multi {
		consumed, err = consumedFromRequest(r.capacity, c.dev.Capacity, s.a.features.FractionalCapacityRange)
		if err != nil {
			s.rollback(p, c, base, sub, st)
			return false, rollback{}, fmt.Errorf("claim %s, request %s: computing consumed capacity for device %s: %w", kobj(claim), r.name, c.id, err)
		}
		if s.building {
			id := s.a.newShareID()
			shareID = &id
		}
		if s.capacity == nil {
			s.capacity = map[DeviceID]ConsumedCapacity{}
		}
		_, st.capExisted = s.capacity[c.id]
		insertCapacity(s.capacity, c.id, consumed)
		st.capInserted = true
		st.consumed = consumed
	}
	res := devResult{c: c, r: r, shareID: shareID}
	if len(consumed) > 0 {
		res.consumed = consumed
	}
	s.results[p.claim] = append(s.results[p.claim], res)
	st.result = true
	return true, st, nil
}

type rollback struct {
	counters, marked, capInserted, capExisted, result bool
	cons, prevResults                                 int
	consumed                                          map[api.QualifiedName]quantity.Quantity
}

// undo releases what allocateDevice took for c at p.
func (s *search) undo(p pos, c candidate, st rollback) {
	r := s.data[p.claim][p.req][p.sub].r
	base, sub := r.name, ""
	if r.parent != "" {
		base, sub = r.parent, r.name
	}
	s.rollback(p, c, base, sub, st)
}

func (s *search) rollback(p pos, c candidate, base, sub string, st rollback) {
	if st.result {
		s.results[p.claim] = s.results[p.claim][:st.prevResults]
	}
	if st.capInserted {
		removeCapacity(s.capacity, c.id, st.consumed)
		if _, ok := s.capacity[c.id]; st.capExisted && !ok {
			s.capacity[c.id] = ConsumedCapacity{}
		}
	}
	if st.marked {
		// Devices are released in the reverse order they were taken.
		for i := len(s.allocating) - 1; i >= 0; i-- {
			if s.allocating[i] == (allocatingDevice{c.id, p.claim}) {
				s.allocating = slices.Delete(s.allocating, i, i+1)
				break
			}
		}
	}
	for i := st.cons - 1; i >= 0; i-- {
		s.cons[p.claim][i].remove(base, sub)
	}
	if st.counters {
		s.releaseCounters(c)
	}
}

// taintPrevents reports whether a NoSchedule or NoExecute taint of the
// device is not tolerated.
func taintPrevents(d *api.Device, tols []api.DeviceToleration) bool {
	for _, t := range d.Taints {
		if t.Effect != api.DeviceTaintEffectNoSchedule && t.Effect != api.DeviceTaintEffectNoExecute {
			continue
		}
		if !slices.ContainsFunc(tols, func(tol api.DeviceToleration) bool { return Tolerates(tol, t) }) {
			return true
		}
	}
	return false
}

// Tolerates reports whether the toleration matches the taint: effect and
// key match when set, and the value with Equal (the default) or any value
// with Exists.
func Tolerates(tol api.DeviceToleration, t api.DeviceTaint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "", api.DeviceTolerationOpEqual:
		return tol.Value == t.Value
	case api.DeviceTolerationOpExists:
		return true
	}
	return false
}
