package dra_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/api"
)

// TestPoolValidityIsPerNode pins that a pool's device names are checked
// among the slices that target the node only, as v0.37.2's buildPool
// (structured/internal/incubating) runs validateDeviceNames over the
// node's device slices and not over the slices of the pool it found on
// other nodes. The pool has two slices: one local to node-2 naming a
// device twice, one with per-device node selection whose device is for
// region-1. On node-1 (region-1) only the second targets the node: the
// pool is complete counting both, valid, and an All request gets its
// device. On node-2 the duplicate is seen: an All request fails on the
// invalid pool. The conformance case of issue 22 (seed
// 1093581532527018643 of TestDRAExtendedScoringDifferential) is this
// world; upstream's harness listed the nodes in map order and stopped at
// whichever node erred first.
func TestPoolValidityIsPerNode(t *testing.T) {
	pool := resourcePool(pool1, 2)
	slices := unwrapResourceSlices(
		sliceWithDevices(slice1, node2, pool, driverA,
			device(device1, nil, nil), device(device2, nil, nil), device(device2, nil, nil)),
		func() wrapResourceSliceWithDevices {
			s := sliceWithDevices(slice2, nodeSelectionPerDevice, pool, driverA,
				device(device3, nil, nil).withNodeSelection(nodeLabelSelector(regionKey, region1)))
			return s
		}(),
	)
	all := claim(claim0).withRequests(allDeviceRequest(req0, classA))
	one := claim(claim0).withRequests(deviceRequest(req0, classA, 1))
	for name, tc := range map[string]struct {
		claim      wrapResourceClaim
		node       *api.Node
		want       []api.AllocationResult
		wantErr    string
		allocated  []string
		constraint bool
	}{
		// Only the per-device slice targets node-1: valid there.
		"all-on-node-1": {claim: all, node: node(node1, region1),
			want: []api.AllocationResult{allocationResult(nodeLabelSelector(regionKey, region1),
				deviceAllocationResult(req0, driverA, pool1, device3, false))}},
		// node-2 sees the duplicate device-2: the pool is invalid.
		"all-on-node-2": {claim: all, node: node(node2, region2),
			wantErr: "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently invalid"},
		// An exact count request on node-2 finds no other pool.
		"one-on-node-2": {claim: one, node: node(node2, region2),
			wantErr: "invalid resource pools were encountered"},
		// A constraint the device cannot meet is an error of an All
		// request on node-1, where the pool is valid.
		"all-constraint-on-node-1": {claim: all, node: node(node1, region1), constraint: true,
			wantErr: "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-3 because a claim constraint would not be satisfied"},
	} {
		t.Run(name, func(t *testing.T) {
			c := tc.claim
			if tc.constraint {
				attr := api.FullyQualifiedName(driverA + "/missing")
				c = c.withConstraints(api.DeviceConstraint{MatchAttribute: &attr})
			}
			got, err := allocCase{claimsToAllocate: objects(c), classes: objects(class(classA, driverA)),
				slices: slices, node: tc.node}.run(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalize(tc.want), normalize(got), quantityCmp, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
		})
	}
}
