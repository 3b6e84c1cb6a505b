// Package predicates holds kube-scheduler v1.37.2's filters as plain
// functions. Call one with a pod and a node to ask whether the pod may run
// there and why not:
//
//	st := predicates.TaintToleration(pod, node) // nil when it fits
//	short := predicates.Fits(pod, nodeInfo)     // the resources it lacks
//
// The framework plugins in plugins/ call these functions. A plugin keeps
// its per-cycle state and caches itself; this package keeps only what the
// functions need.
//
// # What it holds
//
// NodeName, NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts
// and NodeDeclaredFeatures check a pod against one node. Fits,
// FitsRequest, FitStatus and FitStatuses are NodeResourcesFit's
// arithmetic. CheckVolumeBinding, PlanPodVolumes, NoDiskConflict,
// VolumeZone and NodeVolumeLimits check volumes against the snapshot's
// object store. The Policy-only filters are here too: NodeLabel,
// ServiceAffinity and the node-pressure checks.
//
// Some filters compile a pod once and then check many nodes:
// VolumeBindingState, VolumeZoneState, VolumeLimitsState,
// ServiceAffinityState and FeatureMask. A plugin computes one per cycle.
// A VolumeLimitsCache, kept by a plugin across cycles, holds each node's
// CSINode, attached volumes and per-driver counts, derived again only for
// the nodes that changed.
//
// Reasons and status codes are upstream's, word for word. Rejections
// with fixed reasons return shared, immutable *framework.Status values,
// so a check allocates nothing when the pod fits.
package predicates
