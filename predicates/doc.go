// Package predicates holds kube-scheduler's filter plugins, as of
// Kubernetes v1.37.2: NodeName, NodeUnschedulable, TaintToleration (its
// filter half), NodeResourcesFit (its filter half), NodeAffinity (its
// filter half), NodePorts, VolumeRestrictions (classic NoDiskConflict),
// NodeVolumeLimits (MaxCSIVolumeCountPred and the per-cloud
// MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount),
// VolumeZone (NoVolumeZoneConflict), NodeDeclaredFeatures and
// PodTopologySpread (its filter half: DoNotSchedule constraints with
// maxSkew, minDomains, the node inclusion policies and matchLabelKeys; the
// legacy EvenPodsSpread predicate); the volume
// plugins look claims, volumes, classes, CSINodes and CSIDrivers up in
// the snapshot's object store (cluster.Objects) and return Skip from
// PreFilter for pods without the volumes they check, so a pod without
// volumes costs them nothing per node. Each is a framework plugin, built by a
// New<Name> factory with the framework.PluginFactory signature, and also a
// plain function usable without the framework (NodeName,
// NodeUnschedulable, TaintToleration, Fits / FitsRequest, ...).
//
// Optional plugins keep the last semantics of filters kube-scheduler
// removed; they are registered but not in the default profile (a Policy
// file or a profile enables them): NodeLabel (CheckNodeLabelPresence,
// v1.21), ServiceAffinity (CheckServiceAffinity, v1.22: a service's
// pods on nodes with equal values of the affinity labels, read from the
// snapshot's pods and the object store's services) and
// CheckNodeMemoryPressure, CheckNodeDiskPressure, CheckNodePIDPressure
// (v1.13).
//
// Reasons and status codes are upstream's, word for word. The score
// halves of the multi-point plugins live in package priorities under the
// same names (config.TaintTolerationName, config.NodeResourcesFitName,
// config.NodeAffinityName); the scheduler joins the two halves with
// framework.MultiPointPlugin.
//
// # Allocation
//
// Filter allocates nothing for a pod whose PreFilter state is in the
// CycleState: per-pod work (the pod's resource request, its host ports,
// its compiled node affinity) is done once in PreFilter, and rejections
// with fixed reasons return shared, immutable *framework.Status values.
// See BenchmarkFilterFit and TestFilterAllocations.
package predicates
