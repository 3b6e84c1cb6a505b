package dynamicresources

import (
	"fmt"
	"maps"
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
