package dra_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/api"
)

func rule(name string, sel *api.DeviceTaintSelector, taint api.DeviceTaint) *api.DeviceTaintRule {
	return &api.DeviceTaintRule{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.DeviceTaintRuleSpec{DeviceSelector: sel, Taint: taint}}
}

// TestTaintRules pins how DeviceTaintRules reach the allocator: the
// scheduler's ResourceSlice tracker
// (k8s.io/dynamic-resource-allocation/resourceslice/tracker, applyPatches)
// appends a rule's taint to every device its selector selects, and a rule
// without a selector selects none (the 1.37.1 fix).
func TestTaintRules(t *testing.T) {
	twoDevices := unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)))
	for name, tc := range map[string]allocCase{
		"no-selector-selects-nothing": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", nil, taintNoSchedule)},
			expectResults:    []api.AllocationResult{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))},
		},
		"driver-selector-taints-every-device": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", &api.DeviceTaintSelector{Driver: ptr(driverA)}, taintNoSchedule)},
		},
		"other-driver-selector-taints-nothing": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", &api.DeviceTaintSelector{Driver: ptr(driverB)}, taintNoExecute)},
			expectResults:    []api.AllocationResult{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))},
		},
		"device-selector-taints-one-device": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", &api.DeviceTaintSelector{Pool: ptr(pool1), Device: ptr(device1)}, taintNoExecute)},
			expectResults:    []api.AllocationResult{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false))},
		},
		"rule-taint-tolerated": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoSchedule)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", &api.DeviceTaintSelector{Driver: ptr(driverA)}, taintNoSchedule)},
			expectResults:    []api.AllocationResult{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false, tolerationNoSchedule))},
		},
		"none-effect-rule-does-not-block": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           twoDevices,
			taintRules:       []*api.DeviceTaintRule{rule("r", &api.DeviceTaintSelector{Driver: ptr(driverA)}, taintNone)},
			expectResults:    []api.AllocationResult{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := tc.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalize(tc.expectResults), normalize(got), quantityCmp, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if len(tc.slices[0].Spec.Devices[0].Taints) != 0 {
				t.Errorf("the input slice was modified")
			}
		})
	}
}
