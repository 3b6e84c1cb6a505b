package dra

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
)

// pool is a resource pool as one node sees it.
type pool struct {
	id           PoolID
	incomplete   bool
	invalid      bool
	reason       string
	targeting    []*sliceInfo // device slices reachable from the node, by name
	notTargeting []*sliceInfo // the pool's other device slices, when they were needed
	counterSets  map[string]*api.CounterSet
	// stable: the pool is the Index's own (a node's local pools), read
	// by every pod, so it keeps what the allocated claims hold of its
	// devices for the InUse it was read from.
	stable bool
	held   atomic.Pointer[poolHeld]
	// verdicts are the Fits answers kept for the node whose first
	// pool this stable pool is (see verdict), made on first use under
	// mu.
	mu       sync.Mutex
	verdicts *verdicts
}

// poolHeld is what the allocated claims of one InUse's pool hold of
// each device of the pool's slices, in slice and device order.
type poolHeld struct {
	use  *poolUse
	devs [][]deviceUse
}

// poolUses is a pool's devices' use as a search reads it: from the
// pool's poolHeld when it has one, else from the pool's poolUse.
type poolUses struct {
	held *poolHeld
	use  *poolUse
}

// uses returns the pool's devices' use in u. A stable pool keeps it per
// version of the pool's use: a pod whose allocated claims changed
// nothing in the pool reads it without looking devices up.
func (p *pool) uses(u *InUse) poolUses {
	pu := u.pool(p.id)
	if !p.stable || pu == nil {
		return poolUses{use: pu}
	}
	if h := p.held.Load(); h != nil && h.use == pu {
		return poolUses{held: h}
	}
	h := &poolHeld{use: pu, devs: make([][]deviceUse, len(p.targeting))}
	for i, si := range p.targeting {
		h.devs[i] = make([]deviceUse, len(si.s.Spec.Devices))
		for di := range si.s.Spec.Devices {
			h.devs[i][di], _ = pu.device(si.s.Spec.Devices[di].Name)
		}
	}
	p.held.Store(h)
	return poolUses{held: h}
}

// of returns the use of device di of the pool's slice sli, named name.
func (u poolUses) of(sli, di int, name string) deviceUse {
	if u.held != nil {
		return u.held.devs[sli][di]
	}
	d, _ := u.use.device(name)
	return d
}

// relevant reports whether the slice has devices for the node.
func (si *sliceInfo) relevant(node *api.Node) (bool, error) {
	s := si.s
	nodeName, allNodes := deref(s.Spec.NodeName), deref(s.Spec.AllNodes)
	switch {
	case nodeName != "" || allNodes || s.Spec.NodeSelector != nil:
		m, err := nodeMatches(node, nodeName, allNodes, si.nodeSel, si.nodeSelErr, s.Spec.NodeSelector)
		if err != nil {
			return false, fmt.Errorf("failed to perform node selection for slice %s: %w", s.Name, err)
		}
		return m, nil
	case deref(s.Spec.PerDeviceNodeSelection):
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			m, err := nodeMatches(node, deref(d.NodeName), deref(d.AllNodes), si.devSel[i], si.devSelErr[i], d.NodeSelector)
			if err != nil {
				return false, fmt.Errorf("failed to perform node selection for device %s in slice %s: %w", d.Name, s.Name, err)
			}
			if m {
				return true, nil
			}
		}
	}
	return false, nil
}

// gatherPools collects the pools with devices reachable from the node:
// only the newest generation of each pool counts, an incomplete pool is
// kept (marked) so that All requests fail, a pool with duplicate device
// names or broken counter references is marked invalid. Pools are sorted
// by driver and pool name, pools with binding conditions last.
func (a *Index) gatherPools(node *api.Node) ([]*pool, error) {
	if a.localPools != nil {
		return a.localPools[node.Name], nil
	}
	local := a.slicesOnNode[node.Name]
	if len(local) == 0 && len(a.slicesShared) == 0 {
		return nil, nil
	}
	var byID map[PoolID][]*sliceInfo
	var order []PoolID
	add := func(si *sliceInfo) {
		if byID == nil {
			byID = map[PoolID][]*sliceInfo{}
		}
		cur, ok := byID[si.pool]
		switch {
		case !ok:
			order = append(order, si.pool)
			byID[si.pool] = []*sliceInfo{si}
		case si.s.Spec.Pool.Generation < cur[0].s.Spec.Pool.Generation:
		case si.s.Spec.Pool.Generation > cur[0].s.Spec.Pool.Generation:
			byID[si.pool] = []*sliceInfo{si}
		default:
			byID[si.pool] = append(cur, si)
		}
	}
	for _, group := range [2][]*sliceInfo{local, a.slicesShared} {
		for _, si := range group {
			if si.compat {
				continue
			}
			ok, err := si.relevant(node)
			if err != nil {
				return nil, err
			}
			if ok {
				add(si)
			}
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	out := make([]*pool, 0, len(order))
	var withBinding []*pool
	for _, id := range order {
		sl := byID[id]
		want := sl[0].s.Spec.Pool.ResourceSliceCount
		var p *pool
		if int64(len(sl)) == want {
			p = buildPool(id, sl, nil)
		} else {
			obsolete, all := a.slicesInPool(id, sl[0].s.Spec.Pool.Generation)
			if obsolete {
				continue
			}
			if int64(len(all)) != want {
				out = append(out, &pool{id: id, incomplete: true})
				continue
			}
			p = buildPool(id, sl, all)
		}
		if p.hasBindingConditions() {
			withBinding = append(withBinding, p)
			continue
		}
		out = append(out, p)
	}
	sortPools(out)
	sortPools(withBinding)
	return append(out, withBinding...), nil
}

func sortPools(ps []*pool) {
	slices.SortFunc(ps, func(a, b *pool) int {
		if c := cmp.Compare(a.id.Driver, b.id.Driver); c != 0 {
			return c
		}
		return cmp.Compare(a.id.Pool, b.id.Pool)
	})
}

// slicesInPool returns the pool's slices of the generation (compatibility
// group slices left out), or obsolete if a newer generation exists.
func (a *Index) slicesInPool(id PoolID, gen int64) (bool, []*sliceInfo) {
	var out []*sliceInfo
	for _, si := range a.byPool[id] {
		switch g := si.s.Spec.Pool.Generation; {
		case g == gen:
			out = append(out, si)
		case g > gen:
			return true, nil
		}
	}
	return false, slices.DeleteFunc(out, func(si *sliceInfo) bool { return si.compat })
}

func buildPool(id PoolID, targeting []*sliceInfo, all []*sliceInfo) *pool {
	targeting = slices.Clone(targeting)
	slices.SortFunc(targeting, func(a, b *sliceInfo) int { return cmp.Compare(a.s.Name, b.s.Name) })
	var devs, counterSlices, others []*sliceInfo
	for _, si := range targeting {
		if len(si.s.Spec.SharedCounters) > 0 {
			counterSlices = append(counterSlices, si)
		} else {
			devs = append(devs, si)
		}
	}
	if len(targeting) < len(all) {
		for _, si := range all {
			if slices.ContainsFunc(targeting, func(t *sliceInfo) bool { return t.s.Name == si.s.Name }) {
				continue
			}
			if len(si.s.Spec.SharedCounters) > 0 {
				counterSlices = append(counterSlices, si)
			} else {
				others = append(others, si)
			}
		}
	}
	invalid := func(reason string) *pool { return &pool{id: id, invalid: true, reason: reason} }
	for i, si := range devs {
		if si.dupNames {
			return invalid("duplicate device name")
		}
		for _, other := range devs[:i] {
			if n, dup := sharedName(si.names, other.names); dup {
				return invalid("duplicate device name " + n)
			}
		}
	}
	sets := map[string]*api.CounterSet{}
	for _, si := range counterSlices {
		for i := range si.s.Spec.SharedCounters {
			cs := &si.s.Spec.SharedCounters[i]
			if _, dup := sets[cs.Name]; dup {
				return invalid("duplicate counter set name " + cs.Name)
			}
			sets[cs.Name] = cs
		}
	}
	for _, group := range [2][]*sliceInfo{devs, others} {
		if r := checkConsumption(sets, group); r != "" {
			return invalid(r)
		}
	}
	return &pool{id: id, targeting: devs, notTargeting: others, counterSets: sets}
}

func checkConsumption(sets map[string]*api.CounterSet, group []*sliceInfo) string {
	for _, si := range group {
		for i := range si.s.Spec.Devices {
			for _, c := range si.s.Spec.Devices[i].ConsumesCounters {
				cs, ok := sets[c.CounterSet]
				if !ok {
					return "counter set " + c.CounterSet + " not found"
				}
				for name := range c.Counters {
					if _, ok := cs.Counters[name]; !ok {
						return "counter " + name + " not found in counter set " + cs.Name
					}
				}
			}
		}
	}
	return ""
}

func (p *pool) hasBindingConditions() bool {
	for _, si := range p.targeting {
		for i := range si.s.Spec.Devices {
			if si.s.Spec.Devices[i].BindingConditions != nil {
				return true
			}
		}
	}
	return false
}

// sharedName finds a name in both sorted lists.
func sharedName(a, b []string) (string, bool) {
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] == b[0]:
			return a[0], true
		case a[0] < b[0]:
			a = a[1:]
		default:
			b = b[1:]
		}
	}
	return "", false
}
