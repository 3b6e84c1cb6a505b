package dra_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/quantity"
)

// run allocates the row's claims on its node (node-1 by default).
func (tc allocCase) run(ctx context.Context) ([]api.AllocationResult, error) {
	return tc.runWith(ctx, dragen.Compiler{})
}

// runWith allocates with the given selector compiler.
func (tc allocCase) runWith(ctx context.Context, compiler dra.Compiler) ([]api.AllocationResult, error) {
	state := &dra.AllocatedState{
		Devices:       map[dra.DeviceID]struct{}{},
		SharedDevices: tc.allocatedSharedDeviceIDs,
		Capacity:      tc.allocatedCapacityDevices,
	}
	for _, id := range tc.allocatedDevices {
		state.Devices[id] = struct{}{}
	}
	claims := make([]*api.ResourceClaim, len(tc.claimsToAllocate))
	for i, c := range tc.claimsToAllocate {
		claims[i] = c.obj()
	}
	a, err := dra.NewAllocator(ctx, dra.Input{
		Claims: claims, Classes: tc.classes, Slices: tc.slices, TaintRules: tc.taintRules,
		Allocated: state, Compiler: compiler, NewShareID: func() string { return fixedShareID },
		Features: tc.features,
	})
	if err != nil {
		return nil, err
	}
	n := tc.node
	if n == nil {
		n = node(node1, region1)
	}
	// Fits agrees with Allocate, before and after it (the second search
	// reuses the first one's buffers).
	fits, ferr := a.Fits(ctx, n, 0)
	res, err := a.Allocate(ctx, n)
	fits2, ferr2 := a.Fits(ctx, n, 0)
	for _, f := range []struct {
		ok  bool
		err error
	}{{fits, ferr}, {fits2, ferr2}} {
		if (f.err == nil) != (err == nil) || (err != nil && f.err.Error() != err.Error()) || (err == nil && f.ok != (res != nil)) {
			return nil, fmt.Errorf("Fits: %v %v, Allocate: %v %v", f.ok, f.err, res != nil, err)
		}
	}
	return res, err
}

// normalize sorts what upstream's matchers compare as sets: the device
// results of a claim and the requirements and values of node selectors.
func normalize(rs []api.AllocationResult) []api.AllocationResult {
	if len(rs) == 0 {
		return nil
	}
	out := make([]api.AllocationResult, len(rs))
	for i, r := range rs {
		r = *deepCopy(&r)
		sort.SliceStable(r.Devices.Results, func(a, b int) bool {
			x, y := r.Devices.Results[a], r.Devices.Results[b]
			return x.Request+"\x00"+x.Driver+"\x00"+x.Pool+"\x00"+x.Device < y.Request+"\x00"+y.Driver+"\x00"+y.Pool+"\x00"+y.Device
		})
		if r.NodeSelector != nil {
			for ti := range r.NodeSelector.NodeSelectorTerms {
				t := &r.NodeSelector.NodeSelectorTerms[ti]
				for _, reqs := range []*[]api.NodeSelectorRequirement{&t.MatchExpressions, &t.MatchFields} {
					for k := range *reqs {
						slices.Sort((*reqs)[k].Values)
					}
					sort.SliceStable(*reqs, func(a, b int) bool { return (*reqs)[a].Key < (*reqs)[b].Key })
					if len(*reqs) == 0 {
						*reqs = nil
					}
				}
			}
		}
		out[i] = r
	}
	return out
}

var quantityCmp = cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 })

// TestUpstreamRows runs the rows ported from upstream's allocator table,
// with the test selector language and with the Kubernetes CEL
// environment of package dra/cel.
func TestUpstreamRows(t *testing.T) {
	c, err := cel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, compiler := range []struct {
		name string
		c    dra.Compiler
	}{{"subset", dragen.Compiler{}}, {"cel", dra.CELCompiler(c)}} {
		t.Run(compiler.name, func(t *testing.T) { runUpstreamRows(t, compiler.c) })
	}
}

func runUpstreamRows(t *testing.T, compiler dra.Compiler) {
	cases := upstreamCases()
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			got, err := tc.runWith(context.Background(), compiler)
			if tc.expectError != "" {
				for _, part := range strings.Split(tc.expectError, "\x00") {
					if err == nil || !strings.Contains(err.Error(), part) {
						t.Fatalf("error %v, want one containing %q", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(normalize(tc.expectResults), normalize(got), quantityCmp, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}
