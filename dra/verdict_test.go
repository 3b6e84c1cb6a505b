package dra_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
)

// renamed returns shallow copies of the claims under new names: the
// claims of another pod of the same shape.
func renamed(claims []*api.ResourceClaim, prefix string) []*api.ResourceClaim {
	out := make([]*api.ResourceClaim, len(claims))
	for i, c := range claims {
		cp := *c
		cp.Name = fmt.Sprintf("%s-%s", prefix, c.Name)
		out[i] = &cp
	}
	return out
}

// TestKeptFitsEqualSearch: allocators sharing an Index keep Fits answers
// per claim shape and node (verdict.go); a later pod of a kept shape, or
// of another one, after claims were allocated in between, gets from Fits
// on every node what an allocator on a fresh Index (which keeps nothing)
// gets, answer and error alike.
func TestKeptFitsEqualSearch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := dragen.WorldGen().Draw(t, "world")
		if rapid.IntRange(0, 3).Draw(t, "shared-slices") > 0 {
			// Node-local slices only: the Index keeps answers then.
			w.Slices = slices.DeleteFunc(slices.Clone(w.Slices), func(s *api.ResourceSlice) bool {
				return s.Spec.NodeName == nil || *s.Spec.NodeName == ""
			})
		}
		shapes := [][]*api.ResourceClaim{w.Claims, dragen.Claims("other").Draw(t, "other-claims")}
		index := dra.NewIndex(w.Slices, w.TaintRules)
		tr := dra.NewTracker()
		for i, c := range w.Allocated {
			tr.Set(dra.ClaimKey{Namespace: "held", Name: fmt.Sprint(i)}, c)
		}
		ctx := context.Background()
		for step := range rapid.IntRange(1, 6).Draw(t, "pods") {
			claims := renamed(shapes[rapid.IntRange(0, 1).Draw(t, "shape")], fmt.Sprintf("pod-%d", step))
			in := w.Input(dragen.Compiler{})
			in.Claims, in.Allocated, in.InUse = claims, nil, tr.InUse()
			fresh, err := dra.NewAllocator(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			in.Index = index
			kept, err := dra.NewAllocator(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range w.Nodes {
				want, wantErr := fresh.Fits(ctx, n, 0)
				for try := range 2 {
					got, gotErr := kept.Fits(ctx, n, 0)
					if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
						t.Fatalf("pod %d, node %s, try %d: Fits %v, %v; a fresh index: %v, %v", step, n.Name, try, got, gotErr, want, wantErr)
					}
				}
			}
			n := w.Nodes[rapid.IntRange(0, len(w.Nodes)-1).Draw(t, "placed-on")]
			res, err := fresh.Allocate(ctx, n)
			if err != nil || res == nil {
				continue
			}
			for ci, c := range claims {
				cp := *c
				cp.Status.Allocation = &res[ci]
				tr.Set(dra.ClaimKey{Namespace: "ns", Name: cp.Name}, &cp)
			}
		}
	})
}
