package dynamicresources

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
)

// drawClaim draws claim name: allocated to one of a few devices or not,
// an extended resource claim of one of two pods or not.
func drawClaim(t *rapid.T, name string) *api.ResourceClaim {
	c := &api.ResourceClaim{}
	c.Namespace, c.Name = "default", name
	if rapid.Bool().Draw(t, "ext") {
		uid := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "owner")
		c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
		c.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: uid, UID: uid, Controller: ptr(true)}}
	}
	if rapid.Bool().Draw(t, "allocated") {
		c.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{
			Request: "req", Driver: driver, Pool: nodeName,
			Device: rapid.SampledFrom([]string{"d1", "d2", "d3"}).Draw(t, "device")}}}}
	}
	return c
}

// TestPropTrackedEqualsRebuild checks that the plugin's kept claim
// state, changed by any sequence of claims added, updated and removed
// in the snapshot and claims assumed and forgotten, equals the state
// rebuilt from scratch from the snapshot's claims and the assumed ones:
// the same devices in use and the same extended resource claims found.
func TestPropTrackedEqualsRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, err := cluster.NewSnapshot([]*api.Node{mkNode(nodeName)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(nil, handle{snap})
		if err != nil {
			t.Fatal(err)
		}
		pl := p.(*DynamicResources)
		names := []string{"a", "b", "c", "d"}
		steps := rapid.IntRange(1, 30).Draw(t, "steps")
		for range steps {
			name := rapid.SampledFrom(names).Draw(t, "claim")
			k := claimKey{"default", name}
			_, inStore := cluster.GetObject[api.ResourceClaim](snap.Objects(), "default", name)
			switch op := rapid.IntRange(0, 4).Draw(t, "op"); {
			case op == 0 && !inStore:
				if err := snap.AddObject(drawClaim(t, name)); err != nil {
					t.Fatal(err)
				}
			case op == 0:
				if err := snap.UpdateObject(drawClaim(t, name)); err != nil {
					t.Fatal(err)
				}
			case op == 1 && inStore:
				if err := snap.RemoveObject(&api.ResourceClaim{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}}); err != nil {
					t.Fatal(err)
				}
			case op == 2:
				var c *api.ResourceClaim
				if rapid.Bool().Draw(t, "assumeClaim") {
					c = drawClaim(t, name)
				}
				pl.setAssumed(k, c)
			case op == 3:
				pl.dropAssumed(k)
			default:
				// A pod's PreFilter: the tracker follows the store.
				pl.inUse(pl.objects())
			}
			checkTracked(t, pl)
		}
	})
}

// checkTracked compares the plugin's kept state, brought to the
// snapshot, with one rebuilt from the snapshot's claims and the assumed
// ones.
func checkTracked(t *rapid.T, pl *DynamicResources) {
	o := pl.objects()
	got := pl.inUse(o).State()
	var claims []*api.ResourceClaim
	for c := range cluster.AllObjects[api.ResourceClaim](o) {
		if a, ok := pl.assumed[claimKey{namespaceOf(c), c.Name}]; ok {
			c = a
		}
		if c != nil {
			claims = append(claims, c)
		}
	}
	for k, c := range pl.assumed {
		if _, ok := cluster.GetObject[api.ResourceClaim](o, k.namespace, k.name); !ok && c != nil {
			claims = append(claims, c)
		}
	}
	want := dra.NewAllocatedState(claims)
	if !maps.Equal(got.Devices, want.Devices) {
		t.Fatalf("devices in use: kept %v, rebuilt %v", got.Devices, want.Devices)
	}
	for _, uid := range []string{"p1", "p2"} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: uid, UID: uid}}
		var found *api.ResourceClaim
		for _, c := range claims {
			for _, ow := range extOwners(c) {
				if ow == uid && (found == nil || c.Name < found.Name) {
					found = c
				}
			}
		}
		if kept := pl.findExtendedClaim(o, pod); kept != found {
			t.Fatalf("extended resource claim of %s: kept %v, rebuilt %v", uid, name(kept), name(found))
		}
	}
}

func name(c *api.ResourceClaim) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("%s/%s", c.Namespace, c.Name)
}

// TestStoreChangeSupersedesAssumed pins claim identity across a claim
// deleted and made again under its name, as upstream's assume cache
// has it (an informer update replaces the assumed object, a delete
// drops it): PostFilter's deallocation of claim "c" is assumed; the
// store then deletes "c" and adds a new claim "c" (another UID) holding
// d2. The plugin reads the new claim, and the devices in use are d2's,
// not the old claim's d1, nor none as the deallocated copy would say.
// The same holds for an update of the store's claim, and for a claim
// deleted after it was assumed (it is then gone).
func TestStoreChangeSupersedesAssumed(t *testing.T) {
	alloc := func(uid, dev string) *api.ResourceClaim {
		c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "c", UID: uid}}
		c.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{
			Request: "req", Driver: driver, Pool: nodeName, Device: dev}}}}
		return c
	}
	held := func(pl *DynamicResources) []string {
		var out []string
		for _, d := range []string{"d1", "d2"} {
			if pl.inUse(pl.objects()).Held(dra.DeviceID{Driver: driver, Pool: nodeName, Device: d}) {
				out = append(out, d)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		change func(*cluster.Snapshot) error
		want   *api.ResourceClaim // nil: no claim "c"
		held   []string
	}{
		{"recreated", func(s *cluster.Snapshot) error {
			if err := s.RemoveObject(alloc("uid-1", "d1")); err != nil {
				return err
			}
			return s.AddObject(alloc("uid-2", "d2"))
		}, alloc("uid-2", "d2"), []string{"d2"}},
		{"updated", func(s *cluster.Snapshot) error { return s.UpdateObject(alloc("uid-1", "d2")) }, alloc("uid-1", "d2"), []string{"d2"}},
		{"deleted", func(s *cluster.Snapshot) error { return s.RemoveObject(alloc("uid-1", "d1")) }, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, snap := setup(t, []*api.Node{mkNode(nodeName)}, alloc("uid-1", "d1"))
			o := pl.objects()
			old, _ := pl.claim(o, "default", "c")
			cp := *old
			cp.Status.Allocation = nil
			pl.setAssumed(claimKey{"default", "c"}, &cp)
			if got := held(pl); len(got) != 0 {
				t.Fatalf("assumed deallocation: %v held", got)
			}
			if err := tc.change(snap); err != nil {
				t.Fatal(err)
			}
			got, ok := pl.claim(pl.objects(), "default", "c")
			switch {
			case tc.want == nil && ok:
				t.Errorf("claim %s (uid %s) read after it was deleted", got.Name, got.UID)
			case tc.want != nil && (!ok || got.UID != tc.want.UID || got.Status.Allocation == nil ||
				got.Status.Allocation.Devices.Results[0].Device != tc.want.Status.Allocation.Devices.Results[0].Device):
				t.Errorf("claim read: %+v, want the store's %+v", got, tc.want)
			}
			if h := held(pl); !slices.Equal(h, tc.held) {
				t.Errorf("devices held %v, want %v", h, tc.held)
			}
		})
	}
}
