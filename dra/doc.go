// Package dra allocates devices for dynamic resource allocation (DRA)
// claims, as kube-scheduler v1.37.2's DynamicResources plugin does with
// k8s.io/dynamic-resource-allocation/structured.
//
// A user builds an Allocator from a pod's unallocated claims and the
// cluster's DeviceClasses, ResourceSlices, DeviceTaintRules and the state
// of the allocated claims, then calls Allocate for each candidate node:
//
//	state := dra.NewAllocatedState(allocatedClaims)
//	a, err := dra.NewAllocator(ctx, dra.Input{
//		Claims: podClaims, Classes: classes, Slices: slices,
//		TaintRules: rules, Allocated: state, Compiler: compiler,
//	})
//	results, err := a.Allocate(ctx, node) // nil, nil: does not fit
//
// Each result names, per allocated device, the request ("req" or
// "req/subreq"), driver, pool and device, with the configuration and the
// node selector the allocation is usable from. SetDefaults applies the API
// server's defaults to a claim read from a manifest, and the Validate
// functions check objects as the API server does. Selectors are compiled
// by a Compiler: CELCompiler wraps package dra/cel's Kubernetes CEL
// environment (whose Check method is the Validate functions' CELCheck);
// package dra/dragen has a small subset for tests without cel-go.
//
// # Feature set
//
// Upstream picks one of three allocator variants from the enabled
// features. With v1.37.2's default feature gates the scheduler enables
// DRAAdminAccess (GA), DRAPrioritizedList (GA), DRADeviceTaints (GA, with
// DRADeviceTaintRules GA), DRAPartitionableDevices (beta, on),
// DRADeviceBindingConditions with DRAResourceClaimDeviceStatus (beta and
// GA, on) and DRAConsumableCapacity (beta, on). That set selects the
// "incubating" variant, whose behaviour this package models.
// DRAFractionalCapacityRange (beta) is off: its default is on only with a
// minimum compatibility version of 1.37, and a 1.37 scheduler's default
// minimum compatibility version is 1.36. Features.FractionalCapacityRange
// turns it on (milli-unit rounding of capacity request ranges). The alpha features DRADeviceCompatibilityGroups,
// DRADerivedAttributes, DRAListTypeAttributes, DRAOptionalNodeOperations,
// DRAPartitionableDevicesType and DRANodeAllocatableResources are off: a
// request with derived attributes is an error and a slice whose devices
// declare compatibility groups is ignored (its pool is incomplete).
// A device with binding conditions is allocated like any other; its pool
// is tried after the pools without, and the pod then waits in PreBind for
// the conditions.
//
// # How a node is searched
//
// Allocate gathers the node's pools: slices of the node, slices whose
// node selector or allNodes reaches it, and per-device node selection.
// Only a pool's newest generation counts. A pool whose slice count
// (resourceSliceCount) is not reached is incomplete: an All request then
// fails, other requests skip the pool. A pool with duplicate device names
// or counter references to missing counter sets is invalid: skipped too,
// and if nothing fits Allocate reports "invalid resource pools were
// encountered" for the node. Pools are sorted by driver and name, with
// the pools that have binding conditions last; slices by name; devices in
// slice order. The search then takes claims, requests and the devices of
// each request in that order, depth first, and keeps the first complete
// solution: the devices of one request are tried as combinations in pool,
// slice, device order, a prioritized list (firstAvailable) tries its
// subrequests in order, and an All request takes every matching device.
//
// A device is a candidate when it is not in use (admin access ignores
// that), the class's and the request's selectors match, its nodes include
// the node, its capacity covers the request on top of what others
// consume, its shared counters cover it, every NoSchedule and NoExecute
// taint (its own and those of DeviceTaintRules, a rule without a selector
// selecting nothing) is tolerated and the claim's constraints still hold.
// A claim gets at most 32 devices.
//
// Per pod work (class lookup, selector compilation) is done once in
// NewAllocator. A scheduler shares more across pods: an Index (NewIndex:
// the slices with taint rules applied, by node and pool) while the
// slices do not change, which keeps the selectors' answers per device
// for every request with the same selectors; a MatchCache of selector
// results per expression and device, for a new Index; and an InUse, the
// allocated devices as a Tracker keeps them while claims change one by
// one, instead of an AllocatedState built from every claim. Fits is
// Allocate without the results: with node-local slices it allocates
// nothing per node once its search buffers are warm.
package dra
