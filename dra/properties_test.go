package dra_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/quantity"
)

// deviceIndex maps every device to itself (of any generation: a node that
// sees only an older generation's complete slices allocates from it, as
// upstream) and every pool to its counter sets (the newest generation's).
func deviceIndex(slices []*api.ResourceSlice) (map[dra.DeviceID]*api.Device, map[dra.PoolID]map[string]quantity.Quantity) {
	gen := map[dra.PoolID]int64{}
	for _, s := range slices {
		id := dra.PoolID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name}
		gen[id] = max(gen[id], s.Spec.Pool.Generation)
	}
	devs := map[dra.DeviceID]*api.Device{}
	counters := map[dra.PoolID]map[string]quantity.Quantity{}
	for _, s := range slices {
		p := dra.PoolID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name}
		for i := range s.Spec.Devices {
			id := dra.DeviceID{Driver: p.Driver, Pool: p.Pool, Device: s.Spec.Devices[i].Name}
			if devs[id] != nil {
				devs[id] = nil // ambiguous: two devices of one name
				continue
			}
			devs[id] = &s.Spec.Devices[i]
		}
		if s.Spec.Pool.Generation != gen[p] {
			continue
		}
		for _, cs := range s.Spec.SharedCounters {
			for n, c := range cs.Counters {
				if counters[p] == nil {
					counters[p] = map[string]quantity.Quantity{}
				}
				counters[p][cs.Name+"/"+n] = c.Value
			}
		}
	}
	return devs, counters
}

func addCounters(sum map[dra.PoolID]map[string]quantity.Quantity, id dra.DeviceID, d *api.Device) {
	p := dra.PoolID{Driver: id.Driver, Pool: id.Pool}
	for _, cc := range d.ConsumesCounters {
		for n, v := range cc.Counters {
			if sum[p] == nil {
				sum[p] = map[string]quantity.Quantity{}
			}
			q := sum[p][cc.CounterSet+"/"+n]
			q.Add(v.Value)
			sum[p][cc.CounterSet+"/"+n] = q
		}
	}
}

// TestNeverDoubleBooks: what the allocator returns on a node holds no
// device twice outright, none an allocated claim holds, shares only of
// devices that allow them and within their capacity, and no more of a
// shared counter than is left.
func TestNeverDoubleBooks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := dragen.WorldGen().Draw(t, "world")
		a, err := dra.NewAllocator(context.Background(), w.Input(dragen.Compiler{}))
		if err != nil {
			t.Fatal(err)
		}
		state := dra.NewAllocatedState(w.Allocated)
		devs, counterSets := deviceIndex(w.Slices)
		for _, n := range w.Nodes {
			res, err := a.Allocate(context.Background(), n)
			if err != nil || res == nil {
				continue
			}
			if len(res) != len(w.Claims) {
				t.Fatalf("%d results for %d claims", len(res), len(w.Claims))
			}
			// What allocated claims consume of counters: each device
			// they hold or share, once.
			before := map[dra.PoolID]map[string]quantity.Quantity{}
			held := map[dra.DeviceID]bool{}
			for id := range state.Devices {
				held[id] = true
			}
			for sid := range state.SharedDevices {
				held[sid.DeviceID] = true
			}
			for id := range state.Capacity {
				held[id] = true
			}
			for id := range held {
				if d := devs[id]; d != nil {
					addCounters(before, id, d)
				}
			}
			added := map[dra.PoolID]map[string]quantity.Quantity{}
			owner := map[dra.DeviceID]int{}
			shares := map[dra.DeviceID]dra.ConsumedCapacity{}
			charged := map[dra.DeviceID]bool{}
			for ci, r := range res {
				inClaim := map[dra.DeviceID]bool{}
				for _, x := range r.Devices.Results {
					id := dra.DeviceID{Driver: x.Driver, Pool: x.Pool, Device: x.Device}
					d, known := devs[id]
					if !known {
						t.Fatalf("claim %d: %s is no device", ci, id)
					}
					if d == nil {
						continue // a duplicate name: the results cannot tell which
					}
					multi := d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
					admin := x.AdminAccess != nil && *x.AdminAccess
					if !multi && inClaim[id] {
						t.Fatalf("claim %d holds %s twice", ci, id)
					}
					inClaim[id] = true
					if x.ShareID != nil {
						if !multi {
							t.Fatalf("claim %d shares %s, which allows no multiple allocations", ci, id)
						}
						if shares[id] == nil {
							shares[id] = dra.ConsumedCapacity{}
						}
						for name, q := range x.ConsumedCapacity {
							v := shares[id][name]
							v.Add(q)
							shares[id][name] = v
						}
						if !held[id] && !charged[id] {
							charged[id] = true
							addCounters(added, id, d)
						}
						continue
					}
					addCounters(added, id, d)
					if admin {
						continue
					}
					if _, ok := state.Devices[id]; ok {
						t.Fatalf("claim %d takes %s, which an allocated claim holds", ci, id)
					}
					if o, ok := owner[id]; ok {
						t.Fatalf("claim %d takes %s, which claim %d took", ci, id, o)
					}
					owner[id] = ci
				}
			}
			for id, c := range shares {
				for name, q := range c {
					total := q
					total.Add(state.Capacity[id][name])
					if capv, ok := devs[id].Capacity[name]; ok && total.Cmp(capv.Value) > 0 {
						t.Fatalf("%s: %s: shares take %s of %s", id, name, total.String(), capv.Value.String())
					}
				}
			}
			for p, sums := range added {
				for name, q := range sums {
					if q.IsZero() {
						continue
					}
					total := q
					total.Add(before[p][name])
					if limit, ok := counterSets[p][name]; ok && total.Cmp(limit) > 0 {
						t.Fatalf("pool %s: counter %s: %s of %s", p, name, total.String(), limit.String())
					}
				}
			}
		}
	})
}
