package dra_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

// drawTrackedClaim draws a claim named name, allocated or not, over a
// small set of devices so that claims overlap: outright results, admin
// access results, shares with and without consumed capacity.
func drawTrackedClaim(t *rapid.T, name string) *api.ResourceClaim {
	c := &api.ResourceClaim{}
	c.Namespace, c.Name = "ns", name
	if !rapid.Bool().Draw(t, "allocated") {
		return c
	}
	c.Status.Allocation = &api.AllocationResult{}
	n := rapid.IntRange(0, 3).Draw(t, "results")
	for range n {
		r := api.DeviceRequestAllocationResult{
			Request: "req", Driver: rapid.SampledFrom([]string{"d1", "d2"}).Draw(t, "driver"),
			Pool:   rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "pool"),
			Device: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "device"),
		}
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 1:
			r.AdminAccess = ptr(true)
		case 2:
			r.ShareID = ptr(fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "share")))
		case 3:
			r.ShareID = ptr(fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "share")))
			r.ConsumedCapacity = map[api.QualifiedName]quantity.Quantity{
				api.QualifiedName(rapid.SampledFrom([]string{"memory", "cores"}).Draw(t, "capacity")): quantity.MustParse(fmt.Sprint(rapid.IntRange(0, 4).Draw(t, "amount"))),
			}
		}
		c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results, r)
	}
	return c
}

// sameUse compares two pictures of what allocated claims hold: the same
// devices held, the same devices with shares, and the same consumed
// capacity per device (a capacity summed to zero counts as absent).
func sameUse(t *rapid.T, got *dra.InUse, want *dra.AllocatedState) {
	g := got.State()
	if !maps.Equal(g.Devices, want.Devices) {
		t.Fatalf("held devices: got %v, want %v", g.Devices, want.Devices)
	}
	shared := map[dra.DeviceID]bool{}
	for id := range want.SharedDevices {
		shared[id.DeviceID] = true
	}
	gotShared := map[dra.DeviceID]bool{}
	for id := range g.SharedDevices {
		gotShared[id.DeviceID] = true
	}
	if !maps.Equal(gotShared, shared) {
		t.Fatalf("shared devices: got %v, want %v", gotShared, shared)
	}
	ids := slices.Collect(maps.Keys(want.Capacity))
	for id := range g.Capacity {
		if _, ok := want.Capacity[id]; !ok {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		gc, ok1 := g.Capacity[id]
		wc, ok2 := want.Capacity[id]
		if ok1 != ok2 {
			t.Fatalf("device %s: capacity entry %v, want %v", id, ok1, ok2)
		}
		for _, name := range slices.Collect(maps.Keys(wc)) {
			if q, w := gc[name], wc[name]; q.Cmp(w) != 0 {
				t.Fatalf("device %s capacity %s: got %s, want %s", id, name, q.String(), w.String())
			}
		}
		for name, q := range gc {
			if _, ok := wc[name]; !ok && !q.IsZero() {
				t.Fatalf("device %s capacity %s: got %s, want none", id, name, q.String())
			}
		}
	}
}

// TestPropTrackerEqualsRebuild checks that a Tracker changed claim by
// claim (an allocation added, replaced, released, a claim removed)
// holds what NewAllocatedState rebuilds from the claims at each step,
// and that an InUse once published never changes.
func TestPropTrackerEqualsRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := dra.NewTracker()
		claims := map[string]*api.ResourceClaim{}
		type published struct {
			use   *dra.InUse
			state *dra.AllocatedState
		}
		var views []published
		steps := rapid.IntRange(1, 30).Draw(t, "steps")
		for range steps {
			name := rapid.SampledFrom([]string{"c1", "c2", "c3", "c4"}).Draw(t, "claim")
			k := dra.ClaimKey{Namespace: "ns", Name: name}
			if rapid.IntRange(0, 3).Draw(t, "op") == 0 {
				tr.Set(k, nil)
				delete(claims, name)
			} else {
				c := drawTrackedClaim(t, name)
				tr.Set(k, c)
				claims[name] = c
			}
			if tr.Claim(k) != claims[name] {
				t.Fatalf("Claim(%v) is not the claim last set", k)
			}
			if rapid.Bool().Draw(t, "publish") {
				var list []*api.ResourceClaim
				for _, n := range slices.Sorted(maps.Keys(claims)) {
					list = append(list, claims[n])
				}
				want := dra.NewAllocatedState(list)
				use := tr.InUse()
				sameUse(t, use, want)
				sameUse(t, dra.NewInUse(list), want)
				views = append(views, published{use, want})
			}
		}
		for _, v := range views {
			sameUse(t, v.use, v.state)
		}
	})
}
