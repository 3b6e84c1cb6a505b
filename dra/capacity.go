package dra

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// errNotRepresentable: a capacity request, or what it rounds up to, does
// not fit the range arithmetic. It aborts the allocation.
var errNotRepresentable = errors.New("capacity request cannot be represented in the device's range arithmetic")

// errNegativeCapacity: a resolved consumed capacity is negative.
var errNegativeCapacity = errors.New("capacity value is negative")

// sortedCapacityNames returns the device's capacity names in order, so
// that the first error reported does not depend on map order.
func sortedCapacityNames(c map[api.QualifiedName]api.DeviceCapacity) []api.QualifiedName {
	names := make([]api.QualifiedName, 0, len(c))
	for n := range c {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// fitsCapacity reports whether the request can take its share of the
// device's capacities on top of what allocated claims (current) and the
// claims being allocated (allocating) consume. A request naming a
// capacity the device lacks does not fit; a request that cannot be
// represented is an error.
func fitsCapacity(current ConsumedCapacity, req *api.CapacityRequirements, dev *api.Device, allocating ConsumedCapacity, frac bool) (bool, error) {
	if req != nil {
		for name := range req.Requests {
			if _, ok := dev.Capacity[name]; !ok {
				return false, nil
			}
		}
	}
	if len(dev.Capacity) == 0 {
		return true, nil
	}
	if (req == nil || len(req.Requests) == 0) && current == nil && allocating == nil && noPolicies(dev.Capacity) {
		// Each capacity is consumed whole, on nothing else: it fits.
		return true, nil
	}
	names := sortedCapacityNames(dev.Capacity)
	consumed := make([]quantity.Quantity, len(names))
	for i, name := range names {
		q, err := consumedOf(req, name, dev.Capacity[name], frac)
		if err != nil {
			return false, fmt.Errorf("capacity %q: %w", name, err)
		}
		if q.Sign() < 0 {
			return false, fmt.Errorf("capacity %q: %w", name, errNegativeCapacity)
		}
		consumed[i] = q
	}
	for i, name := range names {
		c := dev.Capacity[name]
		if violatesPolicy(consumed[i], c.RequestPolicy, frac) {
			return false, nil
		}
		sum := consumed[i]
		if cur, ok := current[name]; ok {
			sum = cur
			sum.Add(consumed[i])
		}
		if al, ok := allocating[name]; ok {
			sum.Add(al)
		}
		if sum.Cmp(c.Value) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// noPolicies reports whether no capacity has a request policy or a
// negative value (which the full check reports as an error).
func noPolicies(c map[api.QualifiedName]api.DeviceCapacity) bool {
	for _, v := range c {
		if v.RequestPolicy != nil || v.Value.Sign() < 0 {
			return false
		}
	}
	return true
}

func consumedOf(req *api.CapacityRequirements, name api.QualifiedName, c api.DeviceCapacity, frac bool) (quantity.Quantity, error) {
	var rq *quantity.Quantity
	if req != nil {
		if q, ok := req.Requests[name]; ok {
			rq = &q
		}
	}
	return calculateConsumed(rq, c, frac)
}

// consumedFromRequest is what one allocation of a multi-allocation device
// consumes of each of its capacities.
func consumedFromRequest(req *api.CapacityRequirements, caps map[api.QualifiedName]api.DeviceCapacity, frac bool) (map[api.QualifiedName]quantity.Quantity, error) {
	out := make(map[api.QualifiedName]quantity.Quantity, len(caps))
	for _, name := range sortedCapacityNames(caps) {
		q, err := consumedOf(req, name, caps[name], frac)
		if err != nil {
			return nil, fmt.Errorf("capacity %q: %w", name, err)
		}
		out[name] = q
	}
	return out, nil
}

// calculateConsumed resolves a request for one capacity: nothing
// requested takes the policy's default or the whole capacity; a request
// is rounded up to the range's next step or the next valid value.
func calculateConsumed(req *quantity.Quantity, c api.DeviceCapacity, frac bool) (quantity.Quantity, error) {
	if req == nil {
		if c.RequestPolicy != nil && c.RequestPolicy.Default != nil {
			return *c.RequestPolicy.Default, nil
		}
		return c.Value, nil
	}
	p := c.RequestPolicy
	if p == nil {
		return *req, nil
	}
	switch {
	case p.ValidRange != nil && p.ValidRange.Min != nil:
		return roundUpRange(*req, p.ValidRange, frac)
	case p.ValidValues != nil:
		for _, v := range p.ValidValues {
			if req.Cmp(v) <= 0 {
				return v, nil
			}
		}
	}
	return *req, nil
}

// roundUpRange rounds req up to Min, then to Min plus a multiple of Step,
// in milli units when frac (DRAFractionalCapacityRange) is on and every
// bound is exact in milli units, else in whole units.
func roundUpRange(req quantity.Quantity, r *api.CapacityRequestPolicyRange, frac bool) (quantity.Quantity, error) {
	if req.Cmp(*r.Min) < 0 {
		return *r.Min, nil
	}
	if r.Step == nil {
		return req, nil
	}
	format := r.Step.Format
	if useMilli(r, frac) {
		reqMilli, ok := exactMilli(req)
		if !ok {
			return quantity.Quantity{}, fmt.Errorf("%w: request %s is not a representable milli value", errNotRepresentable, req.String())
		}
		step, lo := r.Step.MilliValue(), r.Min.MilliValue()
		n := ceilDiv(reqMilli-lo, step)
		if n > (math.MaxInt64-lo)/step {
			return quantity.Quantity{}, fmt.Errorf("%w: rounding request %s up to the next step passes the milli-value range", errNotRepresentable, req.String())
		}
		v := lo + step*n
		if v%1000 == 0 {
			return quantity.NewQuantity(v/1000, format), nil
		}
		return quantity.NewMilliQuantity(v, format), nil
	}
	if req.CmpInt64(math.MaxInt64) > 0 {
		return quantity.Quantity{}, fmt.Errorf("%w: request %s exceeds MaxInt64", errNotRepresentable, req.String())
	}
	step, lo := r.Step.Value(), r.Min.Value()
	if step <= 0 {
		return quantity.Quantity{}, fmt.Errorf("%w: step %s is not positive", errNotRepresentable, r.Step.String())
	}
	n := ceilDiv(req.Value()-lo, step)
	if lo >= 0 && n > (math.MaxInt64-lo)/step {
		return quantity.Quantity{}, fmt.Errorf("%w: rounding request %s up to the next step passes MaxInt64", errNotRepresentable, req.String())
	}
	return quantity.NewQuantity(lo+step*n, format), nil
}

// ceilDiv is a/b rounded toward +inf for a >= 0, as upstream's
// "quotient plus one if there is a remainder" (toward zero for a < 0).
func ceilDiv(a, b int64) int64 {
	n := a / b
	if a%b != 0 {
		n++
	}
	return n
}

// useMilli: milli arithmetic applies when DRAFractionalCapacityRange
// (frac) is on, every set bound is exact in milli units and the step is
// at least 1m. With the gate off every range is read in whole units.
func useMilli(r *api.CapacityRequestPolicyRange, frac bool) bool {
	if !frac {
		return false
	}
	for i, q := range []*quantity.Quantity{r.Min, r.Max, r.Step} {
		if q == nil {
			continue
		}
		m, ok := exactMilli(*q)
		if !ok {
			return false
		}
		if i == 2 && m < 1 {
			return false
		}
	}
	return true
}

// exactMilli returns q in milli units if that loses nothing.
func exactMilli(q quantity.Quantity) (int64, bool) {
	m := q.MilliValue()
	if q.Cmp(quantity.NewMilliQuantity(m, q.Format)) != 0 {
		return 0, false
	}
	return m, true
}

// violatesPolicy reports whether a resolved amount breaks the capacity's
// request policy: the default always passes, then the range (max and
// step) or the valid values.
func violatesPolicy(v quantity.Quantity, p *api.CapacityRequestPolicy, frac bool) bool {
	if p == nil {
		return false
	}
	if p.Default != nil && v.Cmp(*p.Default) == 0 {
		return false
	}
	switch {
	case p.ValidRange != nil:
		r := p.ValidRange
		if r.Max != nil && v.Cmp(*r.Max) > 0 {
			return true
		}
		if r.Step != nil {
			var req, step, lo int64
			if useMilli(r, frac) {
				m, ok := exactMilli(v)
				if !ok {
					return true
				}
				req, step = m, r.Step.MilliValue()
				if r.Min != nil {
					lo = r.Min.MilliValue()
				}
			} else {
				req, step = v.Value(), r.Step.Value()
				if r.Min != nil {
					lo = r.Min.Value()
				}
			}
			if step != 0 && (req-lo)%step != 0 {
				return true
			}
		}
	case len(p.ValidValues) > 0:
		return !slices.ContainsFunc(p.ValidValues, func(x quantity.Quantity) bool { return v.Cmp(x) == 0 })
	}
	return false
}

// insertCapacity adds one share's consumption to the device's sum.
func insertCapacity(m map[DeviceID]ConsumedCapacity, id DeviceID, c map[api.QualifiedName]quantity.Quantity) {
	cur, ok := m[id]
	if !ok {
		cur = make(ConsumedCapacity, len(c))
		m[id] = cur
	}
	for name, q := range c {
		if v, ok := cur[name]; ok {
			v.Add(q)
			cur[name] = v
		} else {
			cur[name] = q
		}
	}
}

// removeCapacity subtracts a share's consumption; the device's entry goes
// when every amount is zero.
func removeCapacity(m map[DeviceID]ConsumedCapacity, id DeviceID, c map[api.QualifiedName]quantity.Quantity) {
	cur, ok := m[id]
	if !ok {
		return
	}
	for name, q := range c {
		if v, ok := cur[name]; ok {
			v.Sub(q)
			cur[name] = v
		}
	}
	for _, v := range cur {
		if !v.IsZero() {
			return
		}
	}
	delete(m, id)
}

// reserveCounters adds the device's counter consumption to what the
// claims being allocated consume from its pool and reports whether every
// counter of the pool still covers it; if not, nothing is reserved.
func (s *search) reserveCounters(c candidate) bool {
	avail := s.a.availableCounters(c.pool)
	if s.consumed == nil {
		s.consumed = map[PoolID]counterSets{}
	}
	used := s.consumed[c.pool.id]
	if used == nil {
		used = counterSets{}
		s.consumed[c.pool.id] = used
	}
	for _, dc := range c.dev.ConsumesCounters {
		set := used[dc.CounterSet]
		if set == nil {
			set = map[string]api.Counter{}
			used[dc.CounterSet] = set
		}
		for name, ctr := range dc.Counters {
			v := set[name]
			v.Value.Add(ctr.Value)
			set[name] = v
		}
	}
	for setName, counters := range avail {
		for name, ctr := range counters {
			if ctr.Value.Cmp(used[setName][name].Value) < 0 {
				s.releaseCounters(c)
				return false
			}
		}
	}
	return true
}

func (s *search) releaseCounters(c candidate) {
	used := s.consumed[c.pool.id]
	for _, dc := range c.dev.ConsumesCounters {
		set := used[dc.CounterSet]
		for name, ctr := range dc.Counters {
			v := set[name]
			v.Value.Sub(ctr.Value)
			set[name] = v
		}
	}
}

// availableCounters is the pool's counters less what the devices of
// allocated claims consume, computed once per pool for the Allocator.
func (a *Allocator) availableCounters(p *pool) counterSets {
	a.mu.Lock()
	defer a.mu.Unlock()
	if cs, ok := a.counters[p.id]; ok {
		return cs
	}
	cs := make(counterSets, len(p.counterSets))
	for name, set := range p.counterSets {
		m := make(map[string]api.Counter, len(set.Counters))
		for n, c := range set.Counters {
			m[n] = c
		}
		cs[name] = m
	}
	use := a.use.pool(p.id)
	for _, group := range [2][]*sliceInfo{p.targeting, p.notTargeting} {
		for _, si := range group {
			for i := range si.s.Spec.Devices {
				d := &si.s.Spec.Devices[i]
				if _, held := use.device(d.Name); !held {
					continue
				}
				for _, dc := range d.ConsumesCounters {
					set := cs[dc.CounterSet]
					for n, c := range dc.Counters {
						cur, ok := set[n]
						if !ok {
							continue
						}
						cur.Value.Sub(c.Value)
						set[n] = cur
					}
				}
			}
		}
	}
	a.counters[p.id] = cs
	return cs
}
