// Package dynamicresources is kube-scheduler v1.37.2's DynamicResources
// plugin: it allocates the devices of a pod's ResourceClaims node by
// node with package dra.
//
// A user gets it in the default profile at weight 2, before
// DefaultPreemption; its arguments are config.DynamicResourcesArgs (the
// per-node filter timeout). Claims, classes, slices and taint rules are
// read from the handle's snapshot object store.
//
// PreEnqueue rejects a pod whose claims are missing or being deleted.
// PreFilter resolves the claims (a template entry through the pod's
// status.resourceClaimStatuses), checks classes, remembers the node
// selector of allocated claims and builds one dra.Allocator for the
// unallocated ones. Filter checks the allocated claims' node selectors
// and runs the allocator; the devices found are kept per node for Score
// (firstAvailable scoring: 8 minus the chosen subrequest's index) and
// Reserve. Reserve keeps the allocation in the plugin's assumed state
// so that the next pod sees the devices in use; Unreserve drops it, and
// Assume writes it into the snapshot. PreFilterExtensions is nil, as
// upstream's: preemption's dry run does not see devices freed by
// victims. PostFilter reports the deallocation upstream would request
// but does not change the snapshot.
package dynamicresources
