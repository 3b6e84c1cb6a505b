package cluster

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// TestPropChangedObjects checks ChangedObjects against a plain diff of
// two stores: views of one snapshot taken between random adds, updates
// and removals of claims, and a fork's store against its origin's.
func TestPropChangedObjects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, err := NewSnapshot(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		views := []*Objects{snap.Objects()}
		live := map[[2]string]bool{}
		writer := snap
		steps := rapid.IntRange(1, 40).Draw(t, "steps")
		for range steps {
			ns := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "ns")
			name := rapid.SampledFrom([]string{"x", "y", "z", "w"}).Draw(t, "name")
			c := &api.ResourceClaim{}
			c.Namespace, c.Name = ns, name
			k := [2]string{ns, name}
			switch {
			case !live[k]:
				if err := writer.AddObject(c); err != nil {
					t.Fatal(err)
				}
				live[k] = true
			case rapid.Bool().Draw(t, "remove"):
				if err := writer.RemoveObject(c); err != nil {
					t.Fatal(err)
				}
				delete(live, k)
			default:
				if err := writer.UpdateObject(c); err != nil {
					t.Fatal(err)
				}
			}
			if rapid.Bool().Draw(t, "view") {
				views = append(views, writer.Objects())
			}
			if rapid.IntRange(0, 9).Draw(t, "fork") == 0 {
				writer = writer.Fork()
			}
		}
		views = append(views, writer.Objects())
		for i := 0; i < 4; i++ {
			a := rapid.SampledFrom(views).Draw(t, "from")
			b := rapid.SampledFrom(views).Draw(t, "to")
			want := plainDiff(a, b)
			var got [][2]*api.ResourceClaim
			for o, n := range ChangedObjects[api.ResourceClaim](a, b) {
				got = append(got, [2]*api.ResourceClaim{o, n})
			}
			if len(got) != len(want) {
				t.Fatalf("got %d changes, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("change %d: got %v, want %v", i, got[i], want[i])
				}
			}
		}
	})
}

// plainDiff is ChangedObjects by reading both stores whole.
func plainDiff(a, b *Objects) [][2]*api.ResourceClaim {
	type key struct{ ns, name string }
	var keys []key
	seen := map[key]bool{}
	for _, o := range []*Objects{a, b} {
		for c := range AllObjects[api.ResourceClaim](o) {
			k := key{c.Namespace, c.Name}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	less := func(x, y key) bool { return x.ns < y.ns || (x.ns == y.ns && x.name < y.name) }
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && less(keys[j], keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	var out [][2]*api.ResourceClaim
	for _, k := range keys {
		o, _ := GetObject[api.ResourceClaim](a, k.ns, k.name)
		n, _ := GetObject[api.ResourceClaim](b, k.ns, k.name)
		if o != n {
			out = append(out, [2]*api.ResourceClaim{o, n})
		}
	}
	return out
}
