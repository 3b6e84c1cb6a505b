// Package predicates holds kube-scheduler's filter plugins, as of
// Kubernetes v1.37.2: NodeName, NodeUnschedulable, TaintToleration (its
// filter half), NodeResourcesFit (its filter half), NodeAffinity (its
// filter half), NodePorts, VolumeRestrictions (classic NoDiskConflict),
// NodeVolumeLimits (MaxCSIVolumeCountPred and the per-cloud
// MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount),
// VolumeZone (NoVolumeZoneConflict), NodeDeclaredFeatures,
// PodTopologySpread (its filter half: DoNotSchedule constraints with
// maxSkew, minDomains, the node inclusion policies and matchLabelKeys; the
// legacy EvenPodsSpread predicate) and InterPodAffinity (its filter half,
// the classic MatchInterPodAffinity predicate); the volume
// plugins look claims, volumes, classes, CSINodes and CSIDrivers up in
// the snapshot's object store (cluster.Objects) and return Skip from
// PreFilter for pods without the volumes they check, so a pod without
// volumes costs them nothing per node. Each is a framework plugin, built by a
// New<Name> factory with the framework.PluginFactory signature, and also a
// plain function usable without the framework (NodeName,
// NodeUnschedulable, TaintToleration, Fits / FitsRequest, ...);
// InterPodAffinity needs a snapshot.
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
//
// # InterPodAffinity
//
// InterPodAffinityPlugin models v1.37.2 with its alpha feature gates
// InterPodAffinityHostnameFastPath and
// InPlacePodVerticalScalingSchedulerPreemption off (their defaults).
// PreFilter compiles the incoming pod's required terms, resolves their
// namespaceSelectors against the Namespace objects of the snapshot's
// object store ({} keeps meaning all namespaces), and counts per topology
// domain, once per cycle: existing pods whose required anti-affinity
// matches the pod (only the nodes the snapshot lists as having such
// pods), and existing pods matching the pod's affinity (all terms by one
// pod) and anti-affinity terms. Those counts are upstream's, over the
// cluster's pods; the plugin keeps, for the last four incoming pod
// signatures (namespace, labels, namespace labels, resolved terms), each
// node's contribution and the totals across cycles, and recounts only the
// nodes whose NodeInfo changed since (another pointer or generation), so
// that the replicas of one workload, placed one after another, cost a
// pass over the node list and a recount of the node the last one went
// to. Filter then costs one label lookup and one count lookup per term
// and key, whatever the number of pods, and allocates nothing.
// AddPod and RemovePod update the counts for nominated pods and
// preemption. PreFilter returns Skip exactly where upstream does: the pod
// has no required pod (anti-)affinity and no existing pod's required
// anti-affinity matches it. The scheduler reads only a term's label
// selector: matchLabelKeys and mismatchLabelKeys are merged into it by
// the API server at pod creation (admission.Admit does the same for pods
// that never went through one).
//
// # PodTopologySpread
//
// PodTopologySpreadPlugin's PreFilter counts, per hard constraint, the
// matching pods of every eligible domain, as upstream does over the
// cluster's pods; the plugin keeps, for the last four constraint sets
// (cluster.SpreadSignature), each node's matching pods and domain and the
// totals across cycles, and recounts only the nodes whose NodeInfo
// changed since (another pointer or generation). Its domains are the ids
// of the view's cluster.Topology of each constraint's key, as
// InterPodAffinity's: the totals are slices by domain id, and when a
// later view numbers a key's domains otherwise the kept nodes' totals are
// moved to their new ids (not recounted). It offers FilterNodes
// (framework.FastPathPlugin), which finds a node's domain by its slot
// (cluster.Topology.ID); Filter and FilterNodes allocate nothing and cost
// the same whatever the number of pods. AddPod and RemovePod change a
// cycle's copy of the counts only.
package predicates
