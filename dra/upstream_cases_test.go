package dra_test

// Rows of upstream's allocator table
// (k8s.io/dynamic-resource-allocation@v0.37.2/structured/internal/allocatortesting),
// each named by its upstream test case. Rows that need alpha features or
// that pin behaviour with a feature turned off are left out.

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

var _, _, _ = fmt.Sprintf, math.MaxInt, slices.Clone[[]int]

func upstreamCases() map[string]allocCase {
	return map[string]allocCase{
		// upstream allocatortesting row "empty"
		"empty": {},

		// upstream allocatortesting row "simple"
		"simple": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "other-node"
		"other-node": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverB),
				sliceWithOneDevice(slice2, node2, pool2, driverA),
			),
			node: node(node2, region2),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node2),
				deviceAllocationResult(req0, driverA, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "small-and-large"
		"small-and-large": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				nil,
				request(req0, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
					}}),
				request(req1, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
					}}),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("1Gi"),
				}, nil),
				device(device2, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("2Gi"),
				}, nil),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "small-and-large-backtrack-requests"
		"small-and-large-backtrack-requests": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				nil,
				request(req0, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
					}}),
				request(req1, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
					}}),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device2, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("2Gi"),
				}, nil),
				device(device1, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("1Gi"),
				}, nil),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "small-and-large-backtrack-claims"
		"small-and-large-backtrack-claims": {
			claimsToAllocate: objects(
				claimWithRequests(
					claim0,
					nil,
					request(req0, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
						}})),
				claimWithRequests(
					claim1,
					nil,
					request(req1, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
						}}),
				)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device2, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("2Gi"),
				}, nil),
				device(device1, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("1Gi"),
				}, nil),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2, false)),
			},
		},
		// upstream allocatortesting row "devices-split-across-different-slices"
		"devices-split-across-different-slices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					Count:           2,
					AllocationMode:  api.DeviceAllocationModeExactCount,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice2, node1, pool2, driverA),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "obsolete-slice"
		"obsolete-slice": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				func() wrapResourceSliceWithDevices {
					slice := sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA,
						device(device2, nil, nil),
					)
					slice.Spec.Pool.Generation++
					return slice
				}(),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "duplicate-slice"
		"duplicate-slice": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: func() []*api.ResourceSlice {
				sliceA := sliceWithOneDevice(slice1, node1, pool1, driverA).obj()
				sliceA.Spec.Pool.ResourceSliceCount = 2
				sliceB := deepCopy(sliceA)
				sliceB.Name += "-2"
				return []*api.ResourceSlice{sliceA, sliceB}
			}(),
			node: node(node1, region1),

			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "no-slices"
		"no-slices": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           nil,
			node:             node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "not-enough-suitable-devices"
		"not-enough-suitable-devices": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req1, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),

			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "no-classes"
		"no-classes": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          nil,
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: nil,
			expectError:   "could not retrieve device class class-a",
		},
		// upstream allocatortesting row "unknown-class"
		"unknown-class": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, "unknown-class")),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: nil,
			expectError:   "could not retrieve device class unknown-class",
		},
		// upstream allocatortesting row "empty-class"
		"empty-class": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, "")),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: nil,
			expectError:   "claim claim-0, request req-0: missing device class name (unsupported request type?)",
		},
		// upstream allocatortesting row "no-claims-to-allocate"
		"no-claims-to-allocate": {
			claimsToAllocate: nil,
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "all-devices-single"
		"all-devices-single": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "all-devices-with-consumed-counters"
		"all-devices-with-consumed-counters": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
					),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "all-devices-many"
		"all-devices-many": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice1, node1, pool2, driverA),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "all-devices-of-the-incomplete-pool"
		"all-devices-of-the-incomplete-pool": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					Count:           1,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					slice := sliceWithOneDevice(slice1, node1, pool1, driverA)
					slice.Spec.Pool.ResourceSliceCount++
					return slice
				}(),
			),
			node: node(node1, region1),

			expectResults: nil,
			expectError:   "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated",
		},
		// upstream allocatortesting row "all-devices-plus-another"
		"all-devices-plus-another": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classB,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
				class(classB, driverB),
			),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice1, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverB, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "all-devices-plus-another-reversed"
		"all-devices-plus-another-reversed": {
			claimsToAllocate: objects(
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classB,
					},
				}),
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
				class(classB, driverB),
			),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice1, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverB, pool1, device1, false),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "all-devices-many-plus-another"
		"all-devices-many-plus-another": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classB,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
				class(classB, driverB),
			),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
				sliceWithOneDevice(slice1, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
					deviceAllocationResult(req0, driverA, pool1, device2, false),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverB, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "all-devices-many-plus-another-reversed"
		"all-devices-many-plus-another-reversed": {
			claimsToAllocate: objects(
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classB,
					},
				}),
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
				class(classB, driverB),
			),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
				sliceWithOneDevice(slice1, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverB, pool1, device1, false),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
					deviceAllocationResult(req0, driverA, pool1, device2, false),
				),
			},
		},
		// upstream allocatortesting row "all-devices-no-solution"
		"all-devices-no-solution": {
			claimsToAllocate: objects(
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classA,
					},
				}),
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
			),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
			),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "all-devices-no-solution-reversed"
		"all-devices-no-solution-reversed": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeAll,
						DeviceClassName: classA,
					},
				}),
				claimWithRequests(claim1, nil, api.DeviceRequest{
					Name: req0,
					Exactly: &api.ExactDeviceRequest{
						AllocationMode:  api.DeviceAllocationModeExactCount,
						Count:           1,
						DeviceClassName: classA,
					},
				}),
			),
			classes: objects(
				class(classA, driverA),
			),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
			),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "all-devices-slice-without-devices"
		"all-devices-slice-without-devices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes:       objects(class(classA, driverA)),
			slices:        unwrapResourceSlices(sliceWithNoDevices(slice1, node1, pool1, driverA)),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "all-devices-no-slices"
		"all-devices-no-slices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes:       objects(class(classA, driverA)),
			slices:        nil,
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "all-devices-some-allocated"
		"all-devices-some-allocated": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "all-devices-some-allocated-admin-access"
		"all-devices-some-allocated-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequest(claim0, req0, classA)
				c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				c.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationModeAll
				return []wrapResourceClaim{c}
			}(),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, true),
				deviceAllocationResult(req0, driverA, pool1, device2, true),
			)},
		},
		// upstream allocatortesting row "all-devices-some-allocating-admin-access"
		"all-devices-some-allocating-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1))
				c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				c.Spec.Devices.Requests[1].Exactly.AdminAccess = ptr(true)
				c.Spec.Devices.Requests[1].Exactly.AllocationMode = api.DeviceAllocationModeAll
				return []wrapResourceClaim{c}
			}(),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "count-devices-some-allocated-admin-access"
		"count-devices-some-allocated-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequest(claim0, req0, classA)
				c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				c.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationModeExactCount
				c.Spec.Devices.Requests[0].Exactly.Count = 2
				return []wrapResourceClaim{c}
			}(),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, true),
				deviceAllocationResult(req0, driverA, pool1, device2, true),
			)},
		},
		// upstream allocatortesting row "separate-claims-share-device-admin-access"
		"separate-claims-share-device-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				c1 := claimWithRequest(claim0, req0, classA)
				c1.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)

				c2 := claimWithRequest(claim1, req0, classA)
				c2.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				return []wrapResourceClaim{c1, c2}
			}(),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, true),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, true),
				),
			},
		},
		// upstream allocatortesting row "admin-access-claims-device-allocating-for-non-admin-access"
		"admin-access-claims-device-allocating-for-non-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				admin := claimWithRequest(claim1, req0, classA)
				admin.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				return []wrapResourceClaim{claimWithRequest(claim0, req0, classA), admin}
			}(),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, true),
				),
			},
		},
		// upstream allocatortesting row "all-devices-slice-without-devices-prioritized-list"
		"all-devices-slice-without-devices-prioritized-list": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claim(claim0).withRequests(
						requestWithPrioritizedList(req0,
							subRequest(subReq0, classA, 1),
							subRequest(subReq1, classB, 1),
						),
					)
					claim.Spec.Devices.Requests[0].FirstAvailable[0].AllocationMode = api.DeviceAllocationModeAll
					claim.Spec.Devices.Requests[0].FirstAvailable[0].Count = 0
					return claim
				}(),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithNoDevices(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice2, node1, pool2, driverB),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "all-devices-no-slices-prioritized-list"
		"all-devices-no-slices-prioritized-list": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claim(claim0).withRequests(
						requestWithPrioritizedList(req0,
							subRequest(subReq0, classA, 1),
							subRequest(subReq1, classB, 1),
						),
					)
					claim.Spec.Devices.Requests[0].FirstAvailable[0].AllocationMode = api.DeviceAllocationModeAll
					claim.Spec.Devices.Requests[0].FirstAvailable[0].Count = 0
					return claim
				}(),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice2, node1, pool2, driverB),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "all-devices-some-allocated-prioritized-list"
		"all-devices-some-allocated-prioritized-list": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claim(claim0).withRequests(
						requestWithPrioritizedList(req0,
							subRequest(subReq0, classA, 1),
							subRequest(subReq1, classB, 1),
						),
					)
					claim.Spec.Devices.Requests[0].FirstAvailable[0].AllocationMode = api.DeviceAllocationModeAll
					claim.Spec.Devices.Requests[0].FirstAvailable[0].Count = 0
					return claim
				}(),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
				sliceWithOneDevice(slice2, node1, pool2, driverB),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "network-attached-device"
		"network-attached-device": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA)),
			node:             node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				nodeLabelSelector(regionKey, region1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "unsuccessful-allocation-network-attached-device"
		"unsuccessful-allocation-network-attached-device": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA)),
			node:             node(node2, region2),

			expectResults: nil,
		},
		// upstream allocatortesting row "many-network-attached-devices"
		"many-network-attached-devices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, request(req0, classA, 4))),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
				sliceWithOneDevice(slice1, nodeSelectionAll, pool2, driverA),
				sliceWithOneDevice(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool3, driverA),
				sliceWithOneDevice(slice1, localNodeSelector(node1), pool4, driverA),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				&api.NodeSelector{
					NodeSelectorTerms: []api.NodeSelectorTerm{{
						MatchExpressions: []api.NodeSelectorRequirement{
							{Key: regionKey, Operator: api.NodeSelectorOpIn, Values: []string{region1}},
							{Key: planetKey, Operator: api.NodeSelectorOpIn, Values: []string{planetValueEarth}},
						},
						MatchFields: []api.NodeSelectorRequirement{
							{Key: fieldNameKey, Operator: api.NodeSelectorOpIn, Values: []string{node1}},
						},
					}},
				},
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool2, device1, false),
				deviceAllocationResult(req0, driverA, pool3, device1, false),
				deviceAllocationResult(req0, driverA, pool4, device1, false),
			)},
		},
		// upstream allocatortesting row "local-and-network-attached-devices"
		"local-and-network-attached-devices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, request(req0, classA, 2))),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
				sliceWithOneDevice(slice1, node1, pool2, driverA),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool2, device1, false),
			)},
		},
		// upstream allocatortesting row "several-different-drivers"
		"several-different-drivers": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req0, classB)),
			classes:          objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
				sliceWithOneDevice(slice1, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false)),
			},
		},
		// upstream allocatortesting row "already-allocated-devices"
		"already-allocated-devices": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
				MakeDeviceID(driverA, pool1, device2),
			},
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "admin-access-enabled"
		"admin-access-enabled": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequest(claim0, req0, classA)
				c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				return []wrapResourceClaim{c}
			}(),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
				MakeDeviceID(driverA, pool1, device2),
			},
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
			},
		},
		// upstream allocatortesting row "with-constraint"
		"with-constraint": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{
					{MatchAttribute: &intAttribute},
					{MatchAttribute: &versionAttribute},
					{MatchAttribute: &stringAttribute},
					{MatchAttribute: &boolAttribute},
				},
				request(req0, classA, 1),
				request(req1, classA, 1),
			),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion":   {VersionValue: ptr("1.0.0")},
					"numa":            {IntValue: ptr(int64(1))},
					"stringAttribute": {StringValue: ptr("stringAttributeValue")},
					"boolAttribute":   {BoolValue: ptr(true)},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion":   {VersionValue: ptr("1.0.0")},
					"numa":            {IntValue: ptr(int64(1))},
					"stringAttribute": {StringValue: ptr("stringAttributeValue")},
					"boolAttribute":   {BoolValue: ptr(true)},
				}),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "with-constraint-non-existent-attribute"
		"with-constraint-non-existent-attribute": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA, api.DeviceConstraint{
				MatchAttribute: &nonExistentAttribute,
			})),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "with-constraint-not-matching-int-attribute"
		"with-constraint-not-matching-int-attribute": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{MatchAttribute: &intAttribute}},
				request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"numa": {IntValue: ptr(int64(1))},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"numa": {IntValue: ptr(int64(2))},
				}),
			)),
			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "with-constraint-not-matching-int-attribute-all-devices"
		"with-constraint-not-matching-int-attribute-all-devices": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequests(
						claim0,
						[]api.DeviceConstraint{{MatchAttribute: &intAttribute}},
						request(req0, classA, 0),
					)
					claim.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationModeAll
					return claim
				}(),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"numa": {IntValue: ptr(int64(1))},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"numa": {IntValue: ptr(int64(2))},
				}),
			)),
			node: node(node1, region1),

			expectError: "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied",
		},
		// upstream allocatortesting row "partitionable-all-mode-constraint-must-error-with-reserved-counter"
		"partitionable-all-mode-constraint-must-error-with-reserved-counter": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequests(
						claim0,
						[]api.DeviceConstraint{{MatchAttribute: &intAttribute}},
						request(req0, classA, 0),
					)
					claim.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationModeAll
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(1))},
					}),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(2))},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
			),
			node:        node(node1, region1),
			expectError: "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied",
		},
		// upstream allocatortesting row "with-constraint-not-matching-string-attribute"
		"with-constraint-not-matching-string-attribute": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{MatchAttribute: &stringAttribute}},
				request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: ptr("stringAttributeValue")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: ptr("stringAttributeValue2")},
				}),
			)),
			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "with-constraint-not-matching-bool-attribute"
		"with-constraint-not-matching-bool-attribute": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{MatchAttribute: &boolAttribute}},
				request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"boolAttribute": {BoolValue: ptr(true)},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"boolAttribute": {BoolValue: ptr(false)},
				}),
			)),
			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "with-constraint-not-matching-version-attribute"
		"with-constraint-not-matching-version-attribute": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{MatchAttribute: &versionAttribute}},
				request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion": {VersionValue: ptr("1.0.0")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion": {VersionValue: ptr("2.0.0")},
				}),
			)),
			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "with-constraint-for-request"
		"with-constraint-for-request": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{
					{
						Requests:       []string{req0},
						MatchAttribute: &versionAttribute,
					},
				},
				request(req0, classA, 1),
				request(req1, classA, 1),
			)),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion": {VersionValue: ptr("1.0.0")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion": {VersionValue: ptr("2.0.0")},
				}),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "with-constraint-for-request-retry"
		"with-constraint-for-request-retry": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{
					{
						Requests:       []string{req0},
						MatchAttribute: &versionAttribute,
					},
					{
						MatchAttribute: &stringAttribute,
					},
				},
				request(req0, classA, 1),
				request(req1, classA, 1),
			)),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion":   {VersionValue: ptr("1.0.0")},
					"stringAttribute": {StringValue: ptr("a")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion":   {VersionValue: ptr("2.0.0")},
					"stringAttribute": {StringValue: ptr("b")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"driverVersion":   {VersionValue: ptr("3.0.0")},
					"stringAttribute": {StringValue: ptr("b")},
				}),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "with-class-device-config"
		"with-class-device-config": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(classWithConfig(classA, driverA, "classAttribute")),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResultWithConfigs(
					localNodeSelector(node1),
					objects(deviceAllocationResult(req0, driverA, pool1, device1, false)),
					[]api.DeviceAllocationConfiguration{
						{
							Source:              api.AllocationConfigSourceClass,
							Requests:            nil,
							DeviceConfiguration: deviceConfiguration(driverA, "classAttribute"),
						},
					},
				),
			},
		},
		// upstream allocatortesting row "with-class-device-config-with-multiple-request-and-configs"
		"with-class-device-config-with-multiple-request-and-configs": {
			claimsToAllocate: objects(claimWithRequests(claim0, []api.DeviceConstraint{}, request(req0, classA, 1), request(req1, classA, 1), request(req2, classB, 1))),
			classes: objects(
				classWithConfig(classA, driverA, "classAttribute-A"),
				classWithConfig(classB, driverB, "classAttribute-B"),
			),
			slices: unwrap(
				sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2),
				sliceWithOneDevice(slice2, node1, pool1, driverB),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResultWithConfigs(
					localNodeSelector(node1),
					objects(
						deviceAllocationResult(req0, driverA, pool1, device0, false),
						deviceAllocationResult(req1, driverA, pool1, device1, false),
						deviceAllocationResult(req2, driverB, pool1, device1, false),
					),
					[]api.DeviceAllocationConfiguration{
						{
							Source:              api.AllocationConfigSourceClass,
							Requests:            []string{req0, req1},
							DeviceConfiguration: deviceConfiguration(driverA, "classAttribute-A"),
						},
						{
							Source:              api.AllocationConfigSourceClass,
							Requests:            []string{req2},
							DeviceConfiguration: deviceConfiguration(driverB, "classAttribute-B"),
						},
					},
				),
			},
		},
		// upstream allocatortesting row "with-claim-config-for-two-requests"
		"with-claim-config-for-two-requests": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1), request(req2, classA, 1))
				c.Spec.Devices.Config = []api.DeviceClaimConfiguration{
					{
						Requests:            []string{req0, req1},
						DeviceConfiguration: deviceConfiguration(driverA, "deviceAttribute"),
					},
				}
				return []wrapResourceClaim{c}
			}(),
			classes: objects(
				class(classA, driverA),
			),
			slices: unwrap(
				sliceWithMultipleDevices(slice1, node1, pool1, driverA, 3),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResultWithConfigs(
					localNodeSelector(node1),
					objects(
						deviceAllocationResult(req0, driverA, pool1, device0, false),
						deviceAllocationResult(req1, driverA, pool1, device1, false),
						deviceAllocationResult(req2, driverA, pool1, device2, false),
					),
					[]api.DeviceAllocationConfiguration{
						{
							Source:              api.AllocationConfigSourceClaim,
							Requests:            []string{req0, req1},
							DeviceConfiguration: deviceConfiguration(driverA, "deviceAttribute"),
						},
					},
				),
			},
		},
		// upstream allocatortesting row "claim-with-device-config"
		"claim-with-device-config": {
			claimsToAllocate: objects(claimWithDeviceConfig(claim0, req0, classA, driverA, "deviceAttribute")),
			classes:          objects(class(classA, driverA)),
			slices:           unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:             node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResultWithConfig(
					localNodeSelector(node1),
					driverA,
					api.AllocationConfigSourceClaim,
					"deviceAttribute",
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "unknown-selector"
		"unknown-selector": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequest(claim0, req0, classA)
					claim.Spec.Devices.Requests[0].Exactly.Selectors = []api.DeviceSelector{
						{ /* empty = unknown future selector */ },
					}
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectError: "CEL expression empty (unsupported selector type?)",
		},
		// upstream allocatortesting row "unknown-allocation-mode"
		"unknown-allocation-mode": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequest(claim0, req0, classA)
					claim.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationMode("future-mode")
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectError: "unsupported count mode future-mode",
		},
		// upstream allocatortesting row "unknown-constraint"
		"unknown-constraint": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequest(claim0, req0, classA)
					claim.Spec.Devices.Constraints = []api.DeviceConstraint{
						{ /* empty = unknown */ },
					}
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectError: "empty constraint (unsupported constraint type?)",
		},
		// upstream allocatortesting row "invalid-CEL-one-device"
		"invalid-CEL-one-device": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequest(claim0, req0, classA)
					claim.Spec.Devices.Requests[0].Exactly.Selectors = []api.DeviceSelector{
						{CEL: &api.CELDeviceSelector{Expression: "noSuchVar"}},
					}
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectError: "undeclared reference",
		},
		// upstream allocatortesting row "invalid-CEL-one-device-class"
		"invalid-CEL-one-device-class": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes: objects(
				func() *api.DeviceClass {
					c := class(classA, driverA)
					c.Spec.Selectors[0].CEL.Expression = "noSuchVar"
					return c
				}(),
			),
			slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:   node(node1, region1),

			expectError: "undeclared reference",
		},
		// upstream allocatortesting row "invalid-CEL-all-devices"
		"invalid-CEL-all-devices": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claimWithRequest(claim0, req0, classA)
					claim.Spec.Devices.Requests[0].Exactly.Selectors = []api.DeviceSelector{
						{CEL: &api.CELDeviceSelector{Expression: "noSuchVar"}},
					}
					claim.Spec.Devices.Requests[0].Exactly.AllocationMode = api.DeviceAllocationModeAll
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectError: "undeclared reference",
		},
		// upstream allocatortesting row "too-many-devices-single-request"
		"too-many-devices-single-request": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, request(req0, classA, 500))),
			classes:          objects(class(classA, driverA)),

			expectError: "exceeds the claim limit",
		},
		// upstream allocatortesting row "many-devices-okay"
		"many-devices-okay": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, request(req0, classA, api.AllocationResultsMaxSize))),
			classes:          objects(class(classA, driverA)),
		},
		// upstream allocatortesting row "too-many-devices-total"
		"too-many-devices-total": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, api.AllocationResultsMaxSize),
					request(req1, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, api.AllocationResultsMaxSize+1)),
			node:    node(node1, region1),

			expectError: "exceeds the claim limit",
		},

		// upstream allocatortesting row "exact-count-total-overflows-claim-limit"
		"exact-count-total-overflows-claim-limit": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, int64(math.MaxInt/2+1)),
				deviceRequest(req1, classA, int64(math.MaxInt/2+1)),
			)),
			classes:     objects(class(classA, driverA)),
			expectError: "exceeds the claim limit",
		},

		// upstream allocatortesting row "exact-count-total-would-wrap-to-zero"
		"exact-count-total-would-wrap-to-zero": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, int64(math.MaxInt/2+1)),
				deviceRequest(req1, classA, int64(math.MaxInt/2+1)),
				deviceRequest(req2, classA, int64(math.MaxInt/2+1)),
				deviceRequest(req3, classA, int64(math.MaxInt/2+1)),
			)),
			classes:     objects(class(classA, driverA)),
			expectError: "exceeds the claim limit",
		},

		// upstream allocatortesting row "exact-count-sum-exceeds-claim-limit"
		"exact-count-sum-exceeds-claim-limit": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, 20),
				deviceRequest(req1, classA, 20),
			)),
			classes:     objects(class(classA, driverA)),
			expectError: "request " + req1 + "\x00" + "exceeds the claim limit",
		},

		// upstream allocatortesting row "exact-count-sum-exactly-fills-claim-limit"
		"exact-count-sum-exactly-fills-claim-limit": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, api.AllocationResultsMaxSize/2),
				deviceRequest(req1, classA, api.AllocationResultsMaxSize/2),
			)),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, api.AllocationResultsMaxSize)),
			node:    node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				slices.Concat(
					multipleDeviceAllocationResults(req0, driverA, pool1, api.AllocationResultsMaxSize/2, 0),
					multipleDeviceAllocationResults(req1, driverA, pool1, api.AllocationResultsMaxSize/2, api.AllocationResultsMaxSize/2),
				)...,
			)},
		},
		// upstream allocatortesting row "all-devices-invalid-CEL"
		"all-devices-invalid-CEL": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, request(req0, classA, 500))),
			classes:          objects(class(classA, driverA)),

			expectError: "exceeds the claim limit",
		},
		// upstream allocatortesting row "prioritized-list-first-unavailable"
		"prioritized-list-first-unavailable": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classB, 1),
						subRequest(subReq1, classA, 1),
					))),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-non-available"
		"prioritized-list-non-available": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classB, 2),
						subRequest(subReq1, classA, 2),
					))),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithOneDevice(slice1, node1, pool1, driverA),
				sliceWithOneDevice(slice2, node1, pool2, driverB),
			),
			node: node(node1, region1),

			expectResults: nil,
		},
		// upstream allocatortesting row "prioritized-list-device-config"
		"prioritized-list-device-config": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1),
						subRequest(subReq1, classB, 2),
					),
				).withConfigs(
					objects(
						deviceClaimConfig([]string{req0SubReq0}, deviceConfiguration(driverA, "foo")),
						deviceClaimConfig([]string{req0SubReq1}, deviceConfiguration(driverB, "bar")),
					),
				),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverB,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{}),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResultWithConfigs(
				localNodeSelector(node1),
				objects(
					deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
					deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false),
				),
				[]api.DeviceAllocationConfiguration{
					{
						Source:              api.AllocationConfigSourceClaim,
						Requests:            nil,
						DeviceConfiguration: deviceConfiguration(driverB, "bar"),
					},
				},
			)},
		},
		// upstream allocatortesting row "prioritized-list-class-config"
		"prioritized-list-class-config": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 2),
						subRequest(subReq1, classB, 2),
					))),
			classes: objects(
				classWithConfig(classA, driverA, "foo"),
				classWithConfig(classB, driverB, "bar"),
			),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverB,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device3, nil, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResultWithConfigs(
				localNodeSelector(node1),
				objects(
					deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
					deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false),
				),
				[]api.DeviceAllocationConfiguration{
					{
						Source:              api.AllocationConfigSourceClass,
						Requests:            nil,
						DeviceConfiguration: deviceConfiguration(driverB, "bar"),
					},
				},
			)},
		},
		// upstream allocatortesting row "claim-config-scoped-to-subrequests-of-one-request"
		"claim-config-scoped-to-subrequests-of-one-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1),
						subRequest(subReq1, classB, 1),
					),
					deviceRequest(req1, classA, 1),
				).withConfigs(
					objects(
						deviceClaimConfig([]string{req0SubReq0, req0SubReq1}, deviceConfiguration(driverA, "scoped")),
					),
				),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrap(
				sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResultWithConfigs(
				localNodeSelector(node1),
				objects(
					deviceAllocationResult(req0SubReq0, driverA, pool1, device0, false),
					deviceAllocationResult(req1, driverA, pool1, device1, false),
				),
				[]api.DeviceAllocationConfiguration{
					{
						Source:              api.AllocationConfigSourceClaim,
						Requests:            []string{req0SubReq0, req0SubReq1},
						DeviceConfiguration: deviceConfiguration(driverA, "scoped"),
					},
				},
			)},
		},
		// upstream allocatortesting row "claim-config-covering-all-requests-is-cleared"
		"claim-config-covering-all-requests-is-cleared": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1),
						subRequest(subReq1, classB, 1),
					),
					deviceRequest(req1, classA, 1),
				).withConfigs(
					objects(
						deviceClaimConfig([]string{req0SubReq0, req1}, deviceConfiguration(driverA, "all")),
					),
				),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrap(
				sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResultWithConfigs(
				localNodeSelector(node1),
				objects(
					deviceAllocationResult(req0SubReq0, driverA, pool1, device0, false),
					deviceAllocationResult(req1, driverA, pool1, device1, false),
				),
				[]api.DeviceAllocationConfiguration{
					{
						Source:              api.AllocationConfigSourceClaim,
						Requests:            nil,
						DeviceConfiguration: deviceConfiguration(driverA, "all"),
					},
				},
			)},
		},
		// upstream allocatortesting row "prioritized-list-subrequests-with-expressions"
		"prioritized-list-subrequests-with-expressions": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).withSelectors(
						api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
							},
						},
					),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}}),
						subRequest(subReq1, classA, 2, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
							}}),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("2Gi"),
				}, nil),
				device(device2, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("2Gi"),
				}, nil),
				device(device3, map[api.QualifiedName]quantity.Quantity{
					"memory": quantity.MustParse("1Gi"),
				}, nil),
			)),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-subrequests-with-constraints-ref-parent-request"
		"prioritized-list-subrequests-with-constraints-ref-parent-request": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{
						Requests:       []string{req0, req1},
						MatchAttribute: &versionAttribute,
					},
				).withRequests(
					deviceRequest(req0, classA, 1).withSelectors(api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
						}},
					),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{
							"driverVersion": {VersionValue: ptr("1.0.0")},
						},
					),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device2,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("2Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{
							"driverVersion": {VersionValue: ptr("2.0.0")},
						},
					),
					device(device3,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("1Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{
							"driverVersion": {VersionValue: ptr("1.0.0")},
						},
					),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool2, device3, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-subrequests-with-constraints-ref-sub-request"
		"prioritized-list-subrequests-with-constraints-ref-sub-request": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{
						Requests:       []string{req0, req1SubReq0},
						MatchAttribute: &versionAttribute,
					},
				).withRequests(
					deviceRequest(req0, classA, 1).withSelectors(api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
						}},
					),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{
							"driverVersion": {VersionValue: ptr("1.0.0")},
						},
					),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device2,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("2Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{
							"driverVersion": {VersionValue: ptr("2.0.0")},
						},
					),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool2, device2, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-subrequests-with-allocation-mode-all"
		"prioritized-list-subrequests-with-allocation-mode-all": {
			claimsToAllocate: objects(
				func() wrapResourceClaim {
					claim := claim(claim0).withRequests(
						requestWithPrioritizedList(req0,
							subRequest(subReq0, classA, 1),
							subRequest(subReq1, classA, 1),
						),
					)
					claim.Spec.Devices.Requests[0].FirstAvailable[0].AllocationMode = api.DeviceAllocationModeAll
					claim.Spec.Devices.Requests[0].FirstAvailable[0].Count = 0
					return claim
				}(),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all-multiple-requests"
		"prioritized-list-allocation-mode-all-multiple-requests": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 0).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 1),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-multi-request"
		"prioritized-list-multi-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req1, classA, 1).withSelectors(
						api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
							}},
					),
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{},
					),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device2,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("4Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req1, driverA, pool1, device1, false),
				deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-with-backtracking"
		"prioritized-list-with-backtracking": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
					deviceRequest(req1, classA, 1).withSelectors(
						api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0`, driverA),
							}},
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{},
					),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device2,
						map[api.QualifiedName]quantity.Quantity{
							"memory": quantity.MustParse("4Gi"),
						},
						map[api.QualifiedName]api.DeviceAttribute{},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false),
				deviceAllocationResult(req1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-too-many-in-first-subrequest"
		"prioritized-list-too-many-in-first-subrequest": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(requestWithPrioritizedList(req0,
					subRequest(subReq0, classB, 500),
					subRequest(subReq1, classA, 1),
				))),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices:  unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
			)},
		},

		// upstream allocatortesting row "prioritized-list-minimum-sum-exceeds-claim-limit"
		"prioritized-list-minimum-sum-exceeds-claim-limit": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, 20),
				requestWithPrioritizedList(req1,
					subRequest(subReq0, classA, 20),
					subRequest(subReq1, classA, 24),
				),
			)),
			classes:     objects(class(classA, driverA)),
			expectError: "request " + req1 + "\x00" + "exceeds the claim limit",
		},

		// upstream allocatortesting row "prioritized-list-overflowing-first-subrequest-is-pruned"
		"prioritized-list-overflowing-first-subrequest-is-pruned": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				deviceRequest(req0, classA, 1),
				requestWithPrioritizedList(req1,
					subRequest(subReq0, classA, int64(math.MaxInt)),
					subRequest(subReq1, classA, 1),
				),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil),
				device(device2, nil, nil),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-single-device"
		"partitionable-devices-single-device": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-counter-quantities-are-not-modified"
		"partitionable-devices-counter-quantities-are-not-modified": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("9000000000000000000")}),
					),
					device(device2, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("10000000000000000000")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-counter-cache-scoped-by-pool-ID"
		"partitionable-devices-counter-cache-scoped-by-pool-ID": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
				claimWithRequests(claim1, nil, request(req1, classB, 1)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool1, 2), driverB,
					device(device2, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("2")}),
					),
				),
				sliceWithCounterSets(slice4, node1, resourcePool(pool1, 2), driverB,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("2")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
				allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverB, pool1, device2, false)),
			},
		},
		// upstream allocatortesting row "partitionable-devices-counter-cache-not-crossed-between-driver-schemas"
		"partitionable-devices-counter-cache-not-crossed-between-driver-schemas": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
				claimWithRequests(claim1, nil, request(req1, classB, 1)),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool1, 2), driverB,
					device(device2, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2, map[string]quantity.Quantity{"d": quantity.MustParse("2")}),
					),
				),
				sliceWithCounterSets(slice4, node1, resourcePool(pool1, 2), driverB,
					counterSet(counterSet2, map[string]quantity.Quantity{"d": quantity.MustParse("1")}),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "partitionable-devices-taint-releases-counter"
		"partitionable-devices-taint-releases-counter": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withTaints(taintNoSchedule).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
					device(device2, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-constraint-releases-counter"
		"partitionable-devices-constraint-releases-counter": {
			claimsToAllocate: objects(
				claimWithRequests(claim0,
					[]api.DeviceConstraint{{MatchAttribute: &stringAttribute}},
					request(req0, classA, 2),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"stringAttribute": {StringValue: new("red")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"stringAttribute": {StringValue: new("blue")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"stringAttribute": {StringValue: new("blue")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("2")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-consumable-capacity-backtrack-releases-counter"
		"partitionable-consumable-capacity-backtrack-releases-counter": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "shared"`, driverA),
						}}),
					request(req1, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "counteronly"`, driverA),
						}}),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind": {StringValue: new("shared")},
					}).withAllowMultipleAllocations().withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind": {StringValue: new("shared")},
					}),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind": {StringValue: new("counteronly")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "consumable-capacity-rejection-rolls-back-constraints"
		"consumable-capacity-rejection-rolls-back-constraints": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).
						withCapacityRequest(new(two)).
						withSelectors(api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].stringAttribute == "cap"`, driverA),
							}}),
				),
				claim(claim1).
					withConstraints(api.DeviceConstraint{MatchAttribute: &stringAttribute}).
					withRequests(requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].stringAttribute == "cap"`, driverA),
							}}).
							withAllocationMode(api.DeviceAllocationModeAll).
							withCapacityRequest(new(two)),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].stringAttribute == "fb"`, driverA),
							}}),
					)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two},
						map[api.QualifiedName]api.DeviceAttribute{
							"stringAttribute": {StringValue: new("cap")},
						}).withAllowMultipleAllocations(),
					device(device2, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"stringAttribute": {StringValue: new("fb")},
						}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).
						withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two})),
				allocationResult(localNodeSelector(node1),
					deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false)),
			},
		},
		// upstream allocatortesting row "partitionable-empty-capacity-multiple-share-backtrack-keeps-counter-ownership"
		"partitionable-empty-capacity-multiple-share-backtrack-keeps-counter-ownership": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "shared"`, driverA),
						}}),
				),
				claimWithRequests(claim1,
					[]api.DeviceConstraint{
						{MatchAttribute: &stringAttribute, Requests: []string{req1, req2}},
					},
					request(req1, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "shared" || device.attributes["%s"].kind == "fallback"`, driverA, driverA),
						}}),
					request(req2, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "gate"`, driverA),
						}}),
					request(req3, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].kind == "shared"`, driverA),
						}}),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind":            {StringValue: new("shared")},
						"stringAttribute": {StringValue: new("red")},
					}).withAllowMultipleAllocations().withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
					),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind":            {StringValue: new("fallback")},
						"stringAttribute": {StringValue: new("blue")},
					}),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"kind":            {StringValue: new("gate")},
						"stringAttribute": {StringValue: new("blue")},
					}),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{"c": quantity.MustParse("1")}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil)),
				allocationResult(localNodeSelector(node1),
					deviceAllocationResult(req1, driverA, pool1, device2, false),
					deviceAllocationResult(req2, driverA, pool1, device3, false),
					deviceRequestAllocationResult(req3, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil)),
			},
		},
		// upstream allocatortesting row "partitionable-devices-prioritized-list"
		"partitionable-devices-prioritized-list": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-multiple-devices"
		"partitionable-devices-multiple-devices": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
					request(req1, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-multiple-capacity-pools"
		"partitionable-devices-multiple-capacity-pools": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus": quantity.MustParse("4"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus": quantity.MustParse("6"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus": quantity.MustParse("4"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
					counterSet(counterSet2,
						map[string]quantity.Quantity{
							"cpus": quantity.MustParse("8"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-multiple-counters"
		"partitionable-devices-multiple-counters": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
					request(req1, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
								"cpus":   quantity.MustParse("6"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("4"),
								"memory": quantity.MustParse("2Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
								"cpus":   quantity.MustParse("4"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("6"),
								"memory": quantity.MustParse("6Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
								"cpus":   quantity.MustParse("4"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("4"),
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"cpus":   quantity.MustParse("8"),
							"memory": quantity.MustParse("18Gi"),
						},
					),
					counterSet(counterSet2,
						map[string]quantity.Quantity{
							"cpus":   quantity.MustParse("12"),
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req1, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-multiple-pools"
		"partitionable-devices-multiple-pools": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
					request(req1, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("6"),
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("4"),
								"memory": quantity.MustParse("6Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("4"),
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"cpus":   quantity.MustParse("8"),
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool2, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("6"),
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("1"),
								"memory": quantity.MustParse("7Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpus":   quantity.MustParse("1"),
								"memory": quantity.MustParse("7Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"cpus":   quantity.MustParse("8"),
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device2),
				MakeDeviceID(driverA, pool1, device3),
				MakeDeviceID(driverA, pool2, device1),
			},
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool2, device2, false),
				deviceAllocationResult(req1, driverA, pool2, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-unused-counters-in-counter-set"
		"partitionable-devices-unused-counters-in-counter-set": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("5Gi"),
							},
						),
					),
					device(device2, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device3, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
							"unused": quantity.MustParse("1Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-no-capacity-available"
		"partitionable-devices-no-capacity-available": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("16Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, pool1, driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device2),
			},
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "partitionable-devices-overallocated-capacity-pool"
		"partitionable-devices-overallocated-capacity-pool": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("20Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, pool1, driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device2),
			},
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "partitionable-devices-per-device-node-selection-nodename"
		"partitionable-devices-per-device-node-selection-nodename": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withNodeSelection(node1),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
							},
						),
					).withNodeSelection(node2),
				),
				sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-per-device-node-selection-node-selector"
		"partitionable-devices-per-device-node-selection-node-selector": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withNodeSelection(nodeLabelSelector(regionKey, region1)),
				),
				sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				&api.NodeSelector{
					NodeSelectorTerms: []api.NodeSelectorTerm{{
						MatchExpressions: []api.NodeSelectorRequirement{
							{Key: regionKey, Operator: api.NodeSelectorOpIn, Values: []string{region1}},
						},
					}},
				},
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-per-device-node-selection-node-selector-multiple-devices"
		"partitionable-devices-per-device-node-selection-node-selector-multiple-devices": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 3),
					request(req1, classB, 3),
				),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withNodeSelection(nodeLabelSelector(regionKey, region1)),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withNodeSelection(node1),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withNodeSelection(nodeSelectionAll),
				),
				sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("18Gi"),
						},
					),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool2, 2), driverB,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverB,
					counterSet(counterSet2,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("12Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				&api.NodeSelector{
					NodeSelectorTerms: []api.NodeSelectorTerm{{
						MatchFields: []api.NodeSelectorRequirement{
							{Key: fieldNameKey, Operator: api.NodeSelectorOpIn, Values: []string{node1}},
						},
					}},
				},
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
				deviceAllocationResult(req1, driverB, pool2, device1, false),
				deviceAllocationResult(req1, driverB, pool2, device2, false),
				deviceAllocationResult(req1, driverB, pool2, device3, false),
			)},
		},
		// upstream allocatortesting row "tainted-two-devices"
		"tainted-two-devices": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
				device(device2, nil, nil).withTaints(taintNoExecute),
			)),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "tainted-one-device-two-taints"
		"tainted-one-device-two-taints": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule, taintNoExecute),
			)),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "tainted-two-devices-tolerated"
		"tainted-two-devices-tolerated": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoExecute)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
				device(device2, nil, nil).withTaints(taintNoExecute),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false, tolerationNoExecute),
			)},
		},
		// upstream allocatortesting row "tainted-two-devices-prioritized-list-tolerated"
		"tainted-two-devices-prioritized-list-tolerated": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(requestWithPrioritizedList(req0,
					subRequest(subReq0, classA, 1),
					subRequest(subReq1, classA, 1, tolerationNoExecute),
				))),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
				device(device2, nil, nil).withTaints(taintNoExecute),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false, tolerationNoExecute),
			)},
		},
		// upstream allocatortesting row "tainted-no-effect"
		"tainted-no-effect": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNone),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "tainted-one-device-two-taints-both-tolerated"
		"tainted-one-device-two-taints-both-tolerated": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoSchedule, tolerationNoExecute)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule, taintNoExecute),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false, tolerationNoSchedule, tolerationNoExecute),
			)},
		},
		// upstream allocatortesting row "tainted-prioritized-list"
		"tainted-prioritized-list": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classB, 1),
						subRequest(subReq1, classA, 1),
					))),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
			)),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "tainted-admin-access"
		"tainted-admin-access": {
			claimsToAllocate: func() []wrapResourceClaim {
				c := claimWithRequest(claim0, req0, classA)
				c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true)
				return []wrapResourceClaim{c}
			}(),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
				MakeDeviceID(driverA, pool1, device2),
			},
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
			)),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "tainted-all-devices-single"
		"tainted-all-devices-single": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withTaints(taintNoSchedule),
			)),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all"
		"prioritized-list-allocation-mode-all": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 1),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil),
				device(device2, nil, nil),
			)),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device2),
			},
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all-with-selectors"
		"prioritized-list-allocation-mode-all-with-selectors": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v6"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v5"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
					}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all-with-selectors-multiple-pools"
		"prioritized-list-allocation-mode-all-with-selectors-multiple-pools": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v6"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v5"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
					}),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
					}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
					deviceAllocationResult(req0SubReq1, driverA, pool2, device1, false),
				),
			},
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes"
		"prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v6"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v5"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
					}),
				),
				sliceWithDevices(slice2, node2, pool2, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
					}),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v6")},
					}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset"
		"prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v6"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 0, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].generation == "v5"`, driverA),
							},
						}).withAllocationMode(api.DeviceAllocationModeAll),
					),
				),
			),
			classes: objects(
				&api.DeviceClass{
					ObjectMeta: api.ObjectMeta{
						Name: classA,
					},
					Spec: api.DeviceClassSpec{
						Selectors: []api.DeviceSelector{
							{
								CEL: &api.CELDeviceSelector{
									Expression: fmt.Sprintf(`device.driver == "%s" && device.attributes["%s"].selected`, driverA, driverA),
								},
							},
						},
					},
				},
			),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v6")},
						"selected":   {BoolValue: ptr(false)},
					}),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
						"selected":   {BoolValue: ptr(false)},
					}),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"generation": {StringValue: ptr("v5")},
						"selected":   {BoolValue: ptr(true)},
					}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0SubReq1, driverA, pool1, device3, false),
				),
			},
		},
		// upstream allocatortesting row "max-number-devices"
		"max-number-devices": {
			claimsToAllocate: objects(
				claimWithRequests(
					claim0, nil, request(req0, classA, api.AllocationResultsMaxSize),
				),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, api.AllocationResultsMaxSize)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				multipleDeviceAllocationResults(req0, driverA, pool1, api.AllocationResultsMaxSize, 0)...,
			)},
		},
		// upstream allocatortesting row "partitionable-devices-with-attribute-selector"
		"partitionable-devices-with-attribute-selector": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 2),
					request(req1, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].special`, driverA),
						},
					}),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"special": {
								BoolValue: ptr(true),
							},
						},
					).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpu1": quantity.MustParse("1"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"mem": quantity.MustParse("10Gi"),
							},
						),
					),
					device(device2, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"special": {
								BoolValue: ptr(false),
							},
						},
					).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpu2": quantity.MustParse("1"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"mem": quantity.MustParse("10Gi"),
							},
						),
					),
					device(device3, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"special": {
								BoolValue: ptr(false),
							},
						},
					).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"cpu3": quantity.MustParse("1"),
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								"mem": quantity.MustParse("10Gi"),
							},
						),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"cpu1": quantity.MustParse("1"),
							"cpu2": quantity.MustParse("1"),
							"cpu3": quantity.MustParse("1"),
						},
					),
					counterSet(counterSet2,
						map[string]quantity.Quantity{
							"mem": quantity.MustParse("30Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
				deviceAllocationResult(req1, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "prioritized-list-max-allocation-limit-request"
		"prioritized-list-max-allocation-limit-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, api.AllocationResultsMaxSize),
						subRequest(subReq1, classA, api.AllocationResultsMaxSize/2),
					),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, api.AllocationResultsMaxSize),
						subRequest(subReq1, classA, api.AllocationResultsMaxSize/2),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices:  unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, api.AllocationResultsMaxSize*2)),
			node:    node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				slices.Concat(
					multipleDeviceAllocationResults(req0SubReq1, driverA, pool1, api.AllocationResultsMaxSize/2, 0),
					multipleDeviceAllocationResults(req1SubReq1, driverA, pool1, api.AllocationResultsMaxSize/2, api.AllocationResultsMaxSize/2),
				)...,
			)},
		},
		// upstream allocatortesting row "prioritized-list-max-allocation-allocation-mode-all"
		"prioritized-list-max-allocation-allocation-mode-all": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 0).withAllocationMode(api.DeviceAllocationModeAll),
						subRequest(subReq1, classA, 2),
					),
					deviceRequest(req1, classB, 2),
				),
			),
			classes: objects(class(classA, driverA), class(classB, driverB)),
			slices: unwrapResourceSlices(
				sliceWithMultipleDevices(slice1, node1, pool1, driverA, api.AllocationResultsMaxSize-1),
				sliceWithMultipleDevices(slice2, node1, pool2, driverB, 2),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, "device-0", false),
				deviceAllocationResult(req0SubReq1, driverA, pool1, "device-1", false),
				deviceAllocationResult(req1, driverB, pool2, "device-0", false),
				deviceAllocationResult(req1, driverB, pool2, "device-1", false),
			)},
		},
		// upstream allocatortesting row "device-binding-conditions"
		"device-binding-conditions": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1))),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}))),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "binding-conditions-multiple-devices"
		"binding-conditions-multiple-devices": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 2),
					request(req1, classA, 1))),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil).withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
				device(device2, nil, nil).withBindingConditions([]string{"IsPrepare2"}, []string{"BindingFailed2"}),
				device(device3, nil, nil).withBindingConditions([]string{"IsPrepare3"}, []string{"BindingFailed3"}),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, []string{"IsPrepare2"}, []string{"BindingFailed2"}),
							deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool1, device3, []string{"IsPrepare3"}, []string{"BindingFailed3"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "binding-conditions-with-and-without"
		"binding-conditions-with-and-without": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
					request(req1, classA, 1))),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil),
				device(device2, nil, nil).withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceAllocationResult(req0, driverA, pool1, device1, false),
							deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool1, device2, []string{"IsPrepare"}, []string{"BindingFailed"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "node-restriction"
		"node-restriction": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool1, driverA,
				device(device1, nil, nil).withBindsToNode(true))),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions"
		"partitionable-devices-with-binding-conditions": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions-multiple"
		"partitionable-devices-with-binding-conditions-multiple": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 2),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
					device(device2, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare2"}, []string{"BindingFailed2"}),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, []string{"IsPrepare2"}, []string{"BindingFailed2"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions-some-devices-no-conditions"
		"partitionable-devices-with-binding-conditions-some-devices-no-conditions": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 3),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("2Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
					device(device2, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("2Gi"),
							}),
						),
					device(device3, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsReady"}, []string{"BindingTimeout"}),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device3, []string{"IsReady"}, []string{"BindingTimeout"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions-multi-slices"
		"partitionable-devices-with-binding-conditions-multi-slices": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice4, node1, resourcePool(pool1, 4), driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}),
				),
				sliceWithCounterSets(slice3, node1, resourcePool(pool1, 4), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 4), driverA,
					device(device2, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet2, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						),
				),
				sliceWithCounterSets(slice1, node1, resourcePool(pool1, 4), driverA,
					counterSet(counterSet2, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions-and-taints"
		"partitionable-devices-with-binding-conditions-and-taints": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 2)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}).
						withTaints(api.DeviceTaint{
							Key:    "key1",
							Value:  "value1",
							Effect: api.DeviceTaintEffectNoSchedule,
						}),
					device(device2, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						),
				),
				sliceWithCounterSets(slice2, node1, pool1, driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "partitionable-devices-with-binding-conditions-and-taints-tolerated"
		"partitionable-devices-with-binding-conditions-and-taints-tolerated": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 2)).withTolerations(tolerationNoScheduleKey1),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						).
						withBindingConditions([]string{"IsPrepare"}, []string{"BindingFailed"}).
						withTaints(api.DeviceTaint{
							Key:    "key1",
							Value:  "value1",
							Effect: api.DeviceTaintEffectNoSchedule,
						}),
					device(device2, fromCounters, nil).
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							}),
						),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				api.AllocationResult{
					Devices: api.DeviceAllocationResult{
						Results: []api.DeviceRequestAllocationResult{
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1, []string{"IsPrepare"}, []string{"BindingFailed"}, tolerationNoScheduleKey1),
							deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil, tolerationNoScheduleKey1),
						},
					},
					NodeSelector: localNodeSelector(node1),
				},
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-missing-capacity-request"
		"consumable-capacity-multi-allocatable-device-with-missing-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity1: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity1: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request"
		"consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request"
		"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block"
		"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request"
		"consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request"
		"consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
				claimWithRequests(claim1, nil, request(req0, classA, 1)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-zero-request-policy"
		"consumable-capacity-multi-allocatable-device-with-zero-request-policy": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
				claimWithRequests(claim1, nil, request(req0, classA, 1)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: zero}),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: zero}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-violates-zero-request-policy"
		"consumable-capacity-multi-allocatable-device-violates-zero-request-policy": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request"
		"consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-range-policy-step"
		"consumable-capacity-multi-allocatable-device-with-range-policy-step": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(qp(quantity.NewQuantity(3, quantity.BinarySI)))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-range-policy-request-above-int64-rejected"
		"consumable-capacity-range-policy-request-above-int64-rejected": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(new(quantity.MustParse("18446744073709551616")))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node:        node(node1, region1),
			expectError: "cannot be represented",
		},
		// upstream allocatortesting row "consumable-capacity-range-policy-rounded-value-overflow-rejected"
		"consumable-capacity-range-policy-rounded-value-overflow-rejected": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(new(quantity.MustParse("9223372036854775807")))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node:        node(node1, region1),
			expectError: "cannot be represented",
		},
		// upstream allocatortesting row "consumable-capacity-range-policy-overflow-aborts-not-skip"
		"consumable-capacity-range-policy-overflow-aborts-not-skip": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(new(quantity.MustParse("18446744073709551616")))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: quantity.MustParse("36893488147419103232")}, nil).withAllowMultipleAllocations(),
				),
			),
			node:        node(node1, region1),
			expectError: "cannot be represented",
		},
		// upstream allocatortesting row "consumable-capacity-range-policy-allocation-mode-all-overflow-aborts"
		"consumable-capacity-range-policy-allocation-mode-all-overflow-aborts": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(new(quantity.MustParse("18446744073709551616")))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node:        node(node1, region1),
			expectError: "cannot be represented",
		},
		// upstream allocatortesting row "consumable-capacity-negative-request-aborts"
		"consumable-capacity-negative-request-aborts": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(new(quantity.MustParse("-5")))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: quantity.MustParse("10")}, nil).withAllowMultipleAllocations(),
				),
			),
			node:        node(node1, region1),
			expectError: "negative",
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-valid-values-policy"
		"consumable-capacity-multi-allocatable-device-with-valid-values-policy": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(qp(quantity.NewQuantity(2, quantity.BinarySI)))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, map[api.QualifiedName]quantity.Quantity{capacity0: four},
						[]quantity.Quantity{two}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up"
		"consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(qp(quantity.NewQuantity(2, quantity.BinarySI)))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, map[api.QualifiedName]quantity.Quantity{capacity0: three},
						[]quantity.Quantity{three}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: three}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request"
		"consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy"
		"consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(qp(quantity.NewQuantity(6, quantity.BinarySI)))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: quantity.NewQuantity(10, quantity.BinarySI)}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining"
		"consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two))),
			),
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: two,
				},
			},
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device"
		"consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two))),
			),
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: two,
				},
			},
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
					device(device2, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-with-multi-allocatable-device-backtrack"
		"consumable-capacity-with-multi-allocatable-device-backtrack": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(api.DeviceConstraint{MatchAttribute: &stringAttribute}).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two)),
					deviceRequest(req1, classA, 1).withCapacityRequest(ptr(two)),
				),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two))),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device2, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"stringAttribute": {StringValue: ptr("stringAttributeValue1")},
						}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
					device(device1, nil,
						map[api.QualifiedName]api.DeviceAttribute{
							"stringAttribute": {StringValue: ptr("stringAttributeValue2")},
						}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
					deviceRequestAllocationResult(req1, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
				allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two})),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-subrequest"
		"consumable-capacity-multi-allocatable-device-with-subrequest": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1).withCapacityRequest(ptr(four)),
						subRequest(subReq1, classA, 1).withCapacityRequest(ptr(two)),
						subRequest(subReq1, classA, 1),
					),
				),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0SubReq1, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity"
		"consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two))),
			),
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: two,
				},
			},
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(ptr(two))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
					device(device2, nil, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(ptr(two))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one)),
					allDeviceRequest(req1, classA).withCapacityRequest(ptr(one)),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
					deviceRequestAllocationResult(req1, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
					deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient": {
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: one,
				},
			},
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					allDeviceRequest(req0, classA).withCapacityRequest(ptr(one)),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: two}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
					deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one}),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one)),
					allDeviceRequest(req1, classA).withCapacityRequest(ptr(one)),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient"
		"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient": {
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: one,
				},
			},
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					allDeviceRequest(req0, classA).withCapacityRequest(ptr(one)),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
					device(device2, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-dedicated-device-with-consumable-capacity-request"
		"consumable-capacity-dedicated-device-with-consumable-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, false)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request"
		"consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
				claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, false)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "consumable-capacity-requests-are-not-modified"
		"consumable-capacity-requests-are-not-modified": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two)),
					deviceRequest(req1, classA, 1).withCapacityRequest(ptr(quantity.MustParse("1000000000000000000000"))),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]api.DeviceCapacity{
						capacity0: {
							Value: quantity.MustParse("1000000000000000000002"),
							RequestPolicy: &api.CapacityRequestPolicy{
								Default: ptr(quantity.MustParse("1000000000000000000000")),
								ValidRange: &api.CapacityRequestPolicyRange{
									Min: &two,
								},
							},
						},
					}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				deviceRequestAllocationResult(req1, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: quantity.MustParse("1000000000000000000000")}),
			)},
		},
		// upstream allocatortesting row "allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector"
		"allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, false)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, map[api.QualifiedName]quantity.Quantity{capacity0: one}, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated"
		"allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated": {
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable"
		"allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one))),
			),
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): {
					capacity0: one,
				},
			},
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "allow-multiple-allocations-with-partitionable-device"
		"allow-multiple-allocations-with-partitionable-device": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0`, driverA),
							}},
						),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0`, driverA),
							}},
						),
					),
				),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withAllowMultipleAllocations(),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("6Gi"),
							},
						),
					).withAllowMultipleAllocations(),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								"memory": quantity.MustParse("4Gi"),
							},
						),
					).withAllowMultipleAllocations(),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{"memory": quantity.MustParse("4Gi")}),
				deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device3).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{"memory": quantity.MustParse("4Gi")}),
			)},
		},
		// upstream allocatortesting row "allow-multiple-allocations-with-shared-device-counter-cross-cycle"
		"allow-multiple-allocations-with-shared-device-counter-cross-cycle": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).
						withCapacityRequest(ptr(one)).
						withSelectors(api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.attributes["%s"].mode == "b"`, driverA),
							},
						}),
				),
			),
			allocatedSharedDeviceIDs: sharedIDs(
				MakeSharedDeviceID(MakeDeviceID(driverA, pool1, device1), ptr(fixedShareID)),
			),
			allocatedCapacityDevices: map[dra.DeviceID]dra.ConsumedCapacity{
				MakeDeviceID(driverA, pool1, device1): dra.ConsumedCapacity{
					capacity0: one,
				},
			},
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, map[api.QualifiedName]api.DeviceAttribute{
						"mode": {StringValue: ptr("a")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							capacity0: one,
						}),
					).withAllowMultipleAllocations(),
					device(device2, fromCounters, map[api.QualifiedName]api.DeviceAttribute{
						"mode": {StringValue: ptr("b")},
					}).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							capacity0: one,
						}),
					).withAllowMultipleAllocations(),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						capacity0: one,
					}),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "partitionable-consumable-capacity-shared-device-counter-not-recharged"
		"partitionable-consumable-capacity-shared-device-counter-not-recharged": {
			allocatedSharedDeviceIDs: sharedIDs(
				MakeSharedDeviceID(MakeDeviceID(driverA, pool1, device1), ptr(fixedShareID)),
			),
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).
						withAllowMultipleAllocations().
						withDeviceCounterConsumption(
							deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
								"c": quantity.MustParse("1"),
							}),
						),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"c": quantity.MustParse("1"),
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
			)},
		},
		// upstream allocatortesting row "consumable-capacity-with-partitionable-device-multiple-capacity-pools"
		"consumable-capacity-with-partitionable-device-multiple-capacity-pools": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one)),
					deviceRequest(req2, classA, 1).withCapacityRequest(ptr(two)),
					requestWithPrioritizedList(req1,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"]["%s"].compareTo(quantity("4")) >= 0`, driverA, capacity0),
							}}).withCapacityRequest(ptr(one)),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"]["%s"].compareTo(quantity("2")) >= 0`, driverA, capacity0),
							}}).withCapacityRequest(ptr(one)),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								capacity0: two,
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								capacity1: four,
							},
						),
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange((map[api.QualifiedName]quantity.Quantity{capacity1: four})),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								capacity0: four,
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								capacity1: four,
							},
						),
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange((map[api.QualifiedName]quantity.Quantity{capacity1: four})),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1,
							map[string]quantity.Quantity{
								capacity0: two,
							},
						),
						deviceCounterConsumption(counterSet2,
							map[string]quantity.Quantity{
								capacity1: four,
							},
						),
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange((map[api.QualifiedName]quantity.Quantity{capacity1: four})),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1,
						map[string]quantity.Quantity{
							capacity0: four,
						},
					),
					counterSet(counterSet2,
						map[string]quantity.Quantity{
							capacity1: quantity.MustParse("8"),
						},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one, capacity1: two}),
				deviceRequestAllocationResult(req2, driverA, pool1, device3).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two, capacity1: two}),
				deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: one, capacity1: two}),
			)},
		},
		// upstream allocatortesting row "with-distinct-constraints"
		"with-distinct-constraints": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{DistinctAttribute: &boolAttribute, Requests: []string{req0, req1}},
					api.DeviceConstraint{DistinctAttribute: &versionAttribute, Requests: []string{req0, req1, req2}},
					api.DeviceConstraint{DistinctAttribute: &intAttribute, Requests: []string{req0, req1, req2, req3}},
				).withRequests(
					deviceRequest(req0, classA, 1),
					deviceRequest(req1, classA, 1),
					deviceRequest(req2, classA, 1),
					deviceRequest(req3, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"driverVersion": {VersionValue: ptr("1.0.0")},
						"numa":          {IntValue: ptr(int64(0))},
						"boolAttribute": {BoolValue: ptr(true)},
					}).withAllowMultipleAllocations(),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"driverVersion": {VersionValue: ptr("1.0.1")},
						"numa":          {IntValue: ptr(int64(1))},
						"boolAttribute": {BoolValue: ptr(false)},
					}).withAllowMultipleAllocations(),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"driverVersion": {VersionValue: ptr("1.0.2")},
						"numa":          {IntValue: ptr(int64(2))},
						"boolAttribute": {BoolValue: ptr(true)},
					}).withAllowMultipleAllocations(),
					device(device4, nil, map[api.QualifiedName]api.DeviceAttribute{
						"driverVersion": {VersionValue: ptr("1.0.0")},
						"numa":          {IntValue: ptr(int64(3))},
						"boolAttribute": {BoolValue: ptr(true)},
					}).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
				deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), nil),
				deviceRequestAllocationResult(req2, driverA, pool1, device3).withConsumedCapacity(ptr(fixedShareID), nil),
				deviceRequestAllocationResult(req3, driverA, pool1, device4).withConsumedCapacity(ptr(fixedShareID), nil),
			)},
		},
		// upstream allocatortesting row "distinct-constraint-single-request-count-3-not-distinct"
		"distinct-constraint-single-request-count-3-not-distinct": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{DistinctAttribute: &stringAttribute}},
				request(req0, classA, 3)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value1")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value2")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value1")},
				}),
			)),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "distinct-constraint-single-request-count-3-all-distinct"
		"distinct-constraint-single-request-count-3-all-distinct": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				[]api.DeviceConstraint{{DistinctAttribute: &stringAttribute}},
				request(req0, classA, 3)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value1")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value2")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value3")},
				}),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "distinct-constraint-two-requests-with-count-not-distinct"
		"distinct-constraint-two-requests-with-count-not-distinct": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{DistinctAttribute: &stringAttribute, Requests: []string{req0, req1}},
				).withRequests(
					deviceRequest(req0, classA, 2),
					deviceRequest(req1, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value1")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value2")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"stringAttribute": {StringValue: new("value1")},
				}),
			)),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "with-distinct-constraints-attribute-not-set"
		"with-distinct-constraints-attribute-not-set": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{DistinctAttribute: &boolAttribute, Requests: []string{req0}},
				).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "with-distinct-constraints-unknown-type-attribute"
		"with-distinct-constraints-unknown-type-attribute": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{DistinctAttribute: &boolAttribute, Requests: []string{req0}},
				).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{"boolAttribute": {}}).withAllowMultipleAllocations(),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
			expectError:   "unsupported attribute value",
		},
		// upstream allocatortesting row "with-distinct-constraints-with-subrequests"
		"with-distinct-constraints-with-subrequests": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(
					api.DeviceConstraint{DistinctAttribute: &boolAttribute, Requests: []string{req0, req1}}).
					withRequests(
						requestWithPrioritizedList(req0,
							subRequest(subReq0, classA, 1, api.DeviceSelector{
								CEL: &api.CELDeviceSelector{
									Expression: fmt.Sprintf(`device.attributes["%s"].boolAttribute`, driverA),
								}}),
							subRequest(subReq1, classA, 1),
						),
						requestWithPrioritizedList(req1,
							subRequest(subReq0, classA, 1, api.DeviceSelector{
								CEL: &api.CELDeviceSelector{
									Expression: fmt.Sprintf(`device.attributes["%s"].boolAttribute`, driverA),
								}}),
							subRequest(subReq1, classA, 1),
						),
						requestWithPrioritizedList(req2,
							subRequest(subReq0, classA, 1, api.DeviceSelector{
								CEL: &api.CELDeviceSelector{
									Expression: fmt.Sprintf(`device.attributes["%s"].boolAttribute`, driverA),
								}}),
							subRequest(subReq1, classA, 1),
						),
					),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"boolAttribute": {BoolValue: ptr(true)},
					}).withAllowMultipleAllocations(),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"boolAttribute": {BoolValue: ptr(false)},
					}).withAllowMultipleAllocations(),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceRequestAllocationResult(req0SubReq0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
				deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), nil),
				deviceRequestAllocationResult(req2SubReq0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), nil),
			)},
		},
		// upstream allocatortesting row "distinct-constraint-single-request-multiple-devices-attribute-not-set"
		"distinct-constraint-single-request-multiple-devices-attribute-not-set": {
			claimsToAllocate: objects(
				claimWithRequests(claim0,
					[]api.DeviceConstraint{{DistinctAttribute: &intAttribute}},
					request(req0, classA, 3),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
					device(device3, nil, nil),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "distinct-constraint-single-request-not-enough-distinct-values"
		"distinct-constraint-single-request-not-enough-distinct-values": {
			claimsToAllocate: objects(
				claimWithRequests(claim0,
					[]api.DeviceConstraint{{DistinctAttribute: &intAttribute}},
					request(req0, classA, 3),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(1))},
					}),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(2))},
					}),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(2))},
					}),
					device(device4, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(2))},
					}),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "distinct-constraint-single-request-multiple-devices-attribute-set"
		"distinct-constraint-single-request-multiple-devices-attribute-set": {
			claimsToAllocate: objects(
				claimWithRequests(claim0,
					[]api.DeviceConstraint{{DistinctAttribute: &intAttribute}},
					request(req0, classA, 3),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(1))},
					}),
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(2))},
					}),
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(1))},
					}),
					device(device4, nil, map[api.QualifiedName]api.DeviceAttribute{
						"numa": {IntValue: new(int64(3))},
					}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device1, false),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
				deviceAllocationResult(req0, driverA, pool1, device4, false),
			)},
		},
		// upstream allocatortesting row "distinct-constraint-one-multi-allocatable-device-with-distinct-constraint"
		"distinct-constraint-one-multi-allocatable-device-with-distinct-constraint": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(api.DeviceConstraint{DistinctAttribute: &stringAttribute}).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(one)),
					deviceRequest(req1, classA, 1).withCapacityRequest(ptr(one)),
				)),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil,
						map[api.QualifiedName]api.DeviceAttribute{"stringAttribute": {StringValue: ptr("stringAttributeValue")}},
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			),
			node:          node(node1, region1),
			expectResults: []api.AllocationResult{},
		},
		// upstream allocatortesting row "distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint"
		"distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint": {
			claimsToAllocate: objects(
				claim(claim0).withConstraints(api.DeviceConstraint{DistinctAttribute: &stringAttribute}).withRequests(
					deviceRequest(req0, classA, 1).withCapacityRequest(ptr(two)),
					deviceRequest(req1, classA, 1).withCapacityRequest(ptr(two)),
				),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil,
						map[api.QualifiedName]api.DeviceAttribute{"stringAttribute": {StringValue: ptr("stringAttributeValue1")}},
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device2, nil,
						map[api.QualifiedName]api.DeviceAttribute{"stringAttribute": {StringValue: ptr("stringAttributeValue2")}},
					).withAllowMultipleAllocations().withCapacityRequestPolicyRange(map[api.QualifiedName]quantity.Quantity{capacity0: four}),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
					deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{capacity0: two}),
				),
			},
		},

		// upstream allocatortesting row "consumable-capacity-fractional-range-gate-disabled"
		// (the v1.37.2 default): 200m against min 200m, step 100m read in
		// whole units (each 1) consumes 1.
		"consumable-capacity-fractional-range-gate-disabled": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(&pointTwo)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withFractionalCapacityRequestPolicyRange(
						map[api.QualifiedName]quantity.Quantity{capacity0: one},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{
						capacity0: quantity.NewQuantity(1, quantity.DecimalSI),
					}),
				),
			},
		},

		// upstream allocatortesting row "consumable-capacity-fractional-range-gate-enabled-round-up"
		"consumable-capacity-fractional-range-gate-enabled-round-up": {
			features: dra.Features{FractionalCapacityRange: true},
			claimsToAllocate: objects(
				claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(&pointTwoFive)),
			),
			classes: objects(classWithAllowMultipleAllocations(classA, driverA, true)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withAllowMultipleAllocations().withFractionalCapacityRequestPolicyRange(
						map[api.QualifiedName]quantity.Quantity{capacity0: one},
					),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(ptr(fixedShareID), map[api.QualifiedName]quantity.Quantity{
						capacity0: pointThree,
					}),
				),
			},
		},

		// upstream allocatortesting row "allocation-mode-all-with-multi-host-resource-pool"
		"allocation-mode-all-with-multi-host-resource-pool": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil, api.DeviceRequest{
				Name: req0,
				Exactly: &api.ExactDeviceRequest{
					AllocationMode:  api.DeviceAllocationModeAll,
					DeviceClassName: classA,
				},
			})),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node2, resourcePool(pool1, 2), driverA,
					device(device2, nil, nil),
				),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},
		// upstream allocatortesting row "multi-host-resource-pool-with-stale-slice-for-current-node"
		"multi-host-resource-pool-with-stale-slice-for-current-node": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node1, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node2, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
			),
			node: node(node1, region1),
		},

		// upstream allocatortesting row "multi-host-resource-pool-complete-update-from-node-1-to-node-2"
		"multi-host-resource-pool-complete-update-from-node-1-to-node-2": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node1, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node1, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node2, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node2, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},

		// upstream allocatortesting row "multi-host-resource-pool-complete-update-from-node-2-to-node-1"
		"multi-host-resource-pool-complete-update-from-node-2-to-node-1": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node2, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node2, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node1, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node1, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
			),
			node: node(node1, region1),

			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},

		// upstream allocatortesting row "multi-host-resource-pool-incomplete-update-from-node-1-to-node-2"
		"multi-host-resource-pool-incomplete-update-from-node-1-to-node-2": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node1, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node1, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node2, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{
				allocationResult(
					localNodeSelector(node1),
					deviceAllocationResult(req0, driverA, pool1, device1, false),
				),
			},
		},

		// upstream allocatortesting row "multi-host-resource-pool-incomplete-update-from-node-2-to-node-1"
		"multi-host-resource-pool-incomplete-update-from-node-2-to-node-1": {
			claimsToAllocate: objects(claimWithRequest(claim0, req0, classA)),
			classes:          objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node2, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice1, node2, pool1, driverA,
						device(device2, nil, nil),
					)
					s.Spec.Pool.Generation = 1
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
				func() wrapResourceSliceWithDevices {
					s := sliceWithDevices(slice2, node1, pool1, driverA,
						device(device1, nil, nil),
					)
					s.Spec.Pool.Generation = 2
					s.Spec.Pool.ResourceSliceCount = 2
					return s
				}(),
			),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "partitionable-devices-same-counter-set-name-in-different-resource-slices"
		"partitionable-devices-same-counter-set-name-in-different-resource-slices": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 4), driverA,
					device(device1, nil, nil),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 4), driverA,
					counterSet(counterSet1, nil),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool1, 4), driverA,
					device(device2, nil, nil),
				),
				sliceWithCounterSets(slice4, node1, resourcePool(pool1, 4), driverA,
					counterSet(counterSet1, nil),
				),
			),
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "partitionable-devices-device-counter-consumption-references-unknown-counter-set"
		"partitionable-devices-device-counter-consumption-references-unknown-counter-set": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2, nil),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, nil),
				),
			),
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set"
		"partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						}),
					),
				),
				sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"other-memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool"
		"partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					deviceRequest(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("8Gi"),
						}),
					),
				),
				sliceWithCounterSets(slice2, node1, pool2, driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
			),
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "partitionable-devices-devices-on-different-nodes-consume-same-counter-set"
		"partitionable-devices-devices-on-different-nodes-consume-same-counter-set": {
			claimsToAllocate: objects(
				claim(claim0).withRequests(
					requestWithPrioritizedList(req0,
						subRequest(subReq0, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0`, driverA),
							},
						}),
						subRequest(subReq1, classA, 1, api.DeviceSelector{
							CEL: &api.CELDeviceSelector{
								Expression: fmt.Sprintf(`device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0`, driverA),
							},
						}),
					),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("2Gi"),
						}),
					),
				),
				sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
					device(device3, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device3),
			},
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-devices-consume-counter-set-in-different-nodes"
		"partitionable-devices-devices-consume-counter-set-in-different-nodes": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil, request(req0, classA, 1)),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
				),
				sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
					device(device2, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
					device(device3, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("2Gi"),
						}),
					),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool1, device1),
			},
			node: node(node2, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node2),
				deviceAllocationResult(req0, driverA, pool1, device3, false),
			)},
		},
		// upstream allocatortesting row "partitionable-devices-validation-error-on-non-targeting-slice"
		"partitionable-devices-validation-error-on-non-targeting-slice": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA,
					counterSet(counterSet1, map[string]quantity.Quantity{
						"memory": quantity.MustParse("8Gi"),
					}),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
					device(device1, fromCounters, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet1, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
				),
				sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
					device(device3, nil, nil).withDeviceCounterConsumption(
						deviceCounterConsumption(counterSet2, map[string]quantity.Quantity{
							"memory": quantity.MustParse("6Gi"),
						}),
					),
				),
			),
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "different-resourceslices-in-pool-can-target-different-nodes"
		"different-resourceslices-in-pool-can-target-different-nodes": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node2, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device2, nil, nil),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool1, device2, false),
			)},
		},
		// upstream allocatortesting row "invalid-pool-is-ok-if-devices-can-be-allocated-from-other"
		"invalid-pool-is-ok-if-devices-can-be-allocated-from-other": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA,
					device(device2, nil, nil),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req0, driverA, pool2, device2, false),
			)},
		},
		// upstream allocatortesting row "invalid-pool-is-error-if-no-other-device-can-be-allocated"
		"invalid-pool-is-error-if-no-other-device-can-be-allocated": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA,
					device(device2, nil, nil),
				),
			),
			allocatedDevices: []dra.DeviceID{
				MakeDeviceID(driverA, pool2, device2),
			},
			node:        node(node1, region1),
			expectError: "invalid resource pools were encountered",
		},
		// upstream allocatortesting row "no-allocation-from-incomplete-pools"
		"no-allocation-from-incomplete-pools": {
			claimsToAllocate: objects(
				claimWithRequests(claim0, nil,
					request(req0, classA, 1),
				),
			),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
			),
			node: node(node1, region1),
		},
		// upstream allocatortesting row "check-combinations-within-single-request-single-pool-single-slice"
		"check-combinations-within-single-request-single-pool-single-slice": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil,
				request(req0, classA, 5),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, nil),
				device(device2, nil, nil),
				device(device3, nil, nil),
				device(device4, nil, nil),
			)),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "check-combinations-within-single-request-single-pool-multiple-slices"
		"check-combinations-within-single-request-single-pool-multiple-slices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil,
				request(req0, classA, 5),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
					device(device2, nil, nil),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device3, nil, nil),
					device(device4, nil, nil),
				),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "check-combinations-within-single-request-multiple-pools-multiple-slices"
		"check-combinations-within-single-request-multiple-pools-multiple-slices": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil,
				request(req0, classA, 5),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device2, nil, nil),
				),
				sliceWithDevices(slice3, node1, pool2, driverA,
					device(device3, nil, nil),
					device(device4, nil, nil),
				),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "check-combinations-within-single-request-many-pools"
		"check-combinations-within-single-request-many-pools": {
			claimsToAllocate: objects(claimWithRequests(claim0, nil,
				request(req0, classA, 5),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, pool1, driverA,
					device(device1, nil, nil),
				),
				sliceWithDevices(slice2, node1, pool2, driverA,
					device(device2, nil, nil),
				),
				sliceWithDevices(slice3, node1, pool3, driverA,
					device(device3, nil, nil),
				),
				sliceWithDevices(slice4, node1, pool4, driverA,
					device(device4, nil, nil),
				),
			),
			node:          node(node1, region1),
			expectResults: nil,
		},
		// upstream allocatortesting row "check-combinations-with-backtracking"
		"check-combinations-with-backtracking": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				nil,
				request(req1, classA, 2),
				request(req2, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.attributes["%s"].type == "X"`, driverA),
					},
				}),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("X")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("Y")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("Y")},
				}),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
				deviceAllocationResult(req1, driverA, pool1, device3, false),
				deviceAllocationResult(req2, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "check-combinations-with-backtracking-across-slices-and-pools"
		"check-combinations-with-backtracking-across-slices-and-pools": {
			claimsToAllocate: objects(claimWithRequests(
				claim0,
				nil,
				request(req1, classA, 2),
				request(req2, classA, 1, api.DeviceSelector{
					CEL: &api.CELDeviceSelector{
						Expression: fmt.Sprintf(`device.attributes["%s"].type == "X"`, driverA),
					},
				}),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(
				sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
					device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
						"type": {StringValue: ptr("X")},
					}),
				),
				sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA,
					device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
						"type": {StringValue: ptr("Y")},
					}),
				),
				sliceWithDevices(slice3, node1, pool2, driverA,
					device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
						"type": {StringValue: ptr("Y")},
					}).withBindingConditions([]string{"IsPrepare"}, []string{}),
				),
			),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req1, driverA, pool1, device2, false),
				deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool2, device3, []string{"IsPrepare"}, []string{}),
				deviceAllocationResult(req2, driverA, pool1, device1, false),
			)},
		},
		// upstream allocatortesting row "check-combinations-with-prioritized-list"
		"check-combinations-with-prioritized-list": {
			claimsToAllocate: objects(claim(claim0).withRequests(
				requestWithPrioritizedList(req1,
					subRequest(subReq0, classA, 3, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].type == "Y"`, driverA),
						},
					}),
					subRequest(subReq1, classA, 2),
				),
				requestWithPrioritizedList(req2,
					subRequest(subReq0, classA, 2),
					subRequest(subReq1, classA, 1, api.DeviceSelector{
						CEL: &api.CELDeviceSelector{
							Expression: fmt.Sprintf(`device.attributes["%s"].type == "X"`, driverA),
						},
					}),
				),
			)),
			classes: objects(class(classA, driverA)),
			slices: unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
				device(device1, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("X")},
				}),
				device(device2, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("Y")},
				}),
				device(device3, nil, map[api.QualifiedName]api.DeviceAttribute{
					"type": {StringValue: ptr("Y")},
				}),
			)),
			node: node(node1, region1),
			expectResults: []api.AllocationResult{allocationResult(
				localNodeSelector(node1),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
				deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
				deviceAllocationResult(req2SubReq1, driverA, pool1, device1, false),
			)},
		},
	}
}
