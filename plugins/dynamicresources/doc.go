// Package dynamicresources is kube-scheduler v1.37.2's DynamicResources
// plugin: it allocates the devices of a pod's ResourceClaims node by
// node with package dra.
//
// A user gets it in the default profile at weight 2, before
// DefaultPreemption; its arguments are config.DynamicResourcesArgs (the
// per-node filter timeout). Claims, classes, slices and taint rules are
// read from the handle's snapshot object store. NewWithOptions turns DRA
// feature gates on beyond v1.37.2's defaults (Options.Features).
//
// PreEnqueue rejects a pod whose claims are missing or being deleted.
// PreFilter resolves the claims (a template entry through the pod's
// status.resourceClaimStatuses), checks classes, remembers the node
// selector of allocated claims and builds one dra.Allocator for the
// unallocated ones. The devices allocated claims hold are kept across
// pods (a dra.Tracker): Reserve, Unreserve, PostFilter and Assume change
// them claim by claim, and a new snapshot store by the claims that
// differ from the last one's, so that PreFilter costs what changed.
// Filter checks the allocated claims' node selectors and runs the
// allocator; the devices found are kept per node for Score
// (firstAvailable scoring: 8 minus the chosen subrequest's index) and
// Reserve. Reserve keeps the allocation in the plugin's assumed state
// so that the next pod sees the devices in use; Unreserve drops it, and
// Assume writes it into the snapshot.
//
// # Extended resources backed by DRA
//
// A pod requesting an extended resource a DeviceClass maps
// (spec.extendedResourceName, or deviceclass.resource.kubernetes.io/
// and the class name) gets one more claim, after its own: the one made
// for it in an earlier cycle (annotated, the pod its controller) or a
// new one named "<extended-resources>" without requests. Filter decides
// per node which of those resources DRA provides (a class maps it and
// the node has none allocatable; NodeResourcesFit checks the others)
// and gives the claim the requests upstream's createRequestsAndMappings
// makes for them. Nodes providing the same resources share one
// allocator, built on first use. Reserve names the claim
// <pod>-extended-resources-<five characters derived from the pod>.
//
// PostFilter frees what keeps the pod off every node, as upstream's: an
// allocated claim no node could use, reserved for nobody else, is
// deallocated; else a claim left from an earlier cycle is deleted. The
// change goes into the assumed state. PreFilterExtensions is nil, as
// upstream's: preemption's dry run does not see devices freed by
// victims.
package dynamicresources
