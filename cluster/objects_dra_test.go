package cluster

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestResourceSliceIndexes: slices are found by node and by driver and
// pool, and a change rebuilds both indexes.
func TestResourceSliceIndexes(t *testing.T) {
	node := func(s string) *string { return &s }
	slice := func(name, driver, pool string, nodeName *string) *api.ResourceSlice {
		s := &api.ResourceSlice{}
		s.Name = name
		s.Spec.Driver = driver
		s.Spec.Pool.Name = pool
		s.Spec.NodeName = nodeName
		return s
	}
	snap, err := NewSnapshot(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := slice("a", "gpu.example.com", "n1", node("n1"))
	b := slice("b", "gpu.example.com", "shared/p", nil)
	c := slice("c", "gpu.example.com", "n1", node("n1"))
	claim := &api.ResourceClaim{}
	claim.Name, claim.Namespace = "claim", "ns"
	if err := snap.AddObjects(a, b, c, claim, &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}); err != nil {
		t.Fatal(err)
	}
	o := snap.Objects()
	if got := ResourceSlicesOnNode(o, "n1"); len(got) != 2 || got[0] != a || got[1] != c {
		t.Errorf("on n1: %v", got)
	}
	if got := ResourceSlicesOnNode(o, ""); len(got) != 1 || got[0] != b {
		t.Errorf("without node: %v", got)
	}
	if got := ResourceSlicesInPool(o, "gpu.example.com", "shared/p"); len(got) != 1 || got[0] != b {
		t.Errorf("in pool: %v", got)
	}
	if _, ok := GetObject[api.ResourceClaim](o, "ns", "claim"); !ok {
		t.Error("claim not found")
	}
	if _, ok := GetObject[api.DeviceClass](o, "ignored", "gpu"); !ok {
		t.Error("class not found")
	}
	if err := snap.RemoveObject(a); err != nil {
		t.Fatal(err)
	}
	o = snap.Objects()
	if got := ResourceSlicesInPool(o, "gpu.example.com", "n1"); len(got) != 1 || got[0] != c {
		t.Errorf("after remove: %v", got)
	}
}
