// Package cluster holds the scheduler's picture of a cluster: the nodes,
// the pods bound to them, and the other objects plugins look up.
//
// Build a Snapshot from nodes and bound pods, add the other objects, and
// hand it to a scheduler. Assume a placement so the next decision sees it:
//
//	snap, err := cluster.NewSnapshot(nodes, boundPods)
//	err = snap.AddObjects(service, pdb, claim) // any kind Kinds lists
//	s, err := scheduler.New(snap)
//	err = snap.AssumePod(pod, "node-a")
//
// Each decision reads a View, an immutable picture of one moment. One
// writer may change the snapshot while decisions run.
//
// # What it mirrors
//
// A Snapshot of nodes, each a NodeInfo that keeps the running sums of its
// pods' requests, the host ports in use, image sizes and the pods with
// inter-pod affinity. It mirrors kube-scheduler v1.37's framework.NodeInfo
// and the cache's Snapshot, without importing Kubernetes.
//
// # Pods
//
// A PodInfo is derived once per pod and is immutable: its requests as
// resource.PodRequests computes them (containers, sidecars and init
// containers, overhead, pod-level resources, in-place resize status —
// upstream's PodInfo.CalculateResource), converted to scheduler units in
// a Resource (cpu in millicores, bytes, a pod count and scalar resources
// sorted by name); the non-zero cpu and memory requests the scorers use
// (resource.NonZeroRequests: 100m and 200Mi stand in for missing
// requests); the host ports of containers and sidecars with upstream's
// defaults; the claims; and the pod (anti-)affinity terms compiled by
// package affinity.
//
// # Nodes
//
// A NodeInfo holds the node object, its Allocatable (status.allocatable
// as is: the scheduler does not fall back to capacity; see
// AllocatableWithDefault for the API server's defaulting), its pods, and
// aggregates kept incrementally: AddPod and RemovePod cost time in
// proportion to the pod (and, for removal, the number of pods on the
// node), never a recompute. Requested and NonZeroRequested are the sums;
// UsedPorts is a HostPortInfo with upstream's 0.0.0.0 wildcard semantics
// (a set, as upstream keeps it: removing one of two pods that bind the
// same tuple frees it); PVCRefCounts counts claim
// users; PodsWithAffinity and PodsWithRequiredAntiAffinity list the pods
// upstream lists; ImageStates maps the node's image names (as reported in
// node status, not normalized — look container images up with ImageState,
// which appends ":latest" as the ImageLocality plugin does) to their size
// and the number of the snapshot's nodes holding them. The size is the
// one kube-scheduler's cache takes: the size the first node (in the order
// nodes are added) reported for the name, the same on every node while
// any node reports it, whatever each node's own report says. Generation changes
// with every change.
//
// # Snapshots and views
//
// A Snapshot holds the nodes in a slice with a name index, the pods by
// namespace and name and by UID, image counts, and topology domains
// (nodes grouped by the value of a label key such as zone, hostname or a
// rack label) for every key asked for so far, updated as nodes come and
// go. View.Topology numbers a key's domains (dense int32 ids, found from
// a node's slot without reading its labels), so that plugins
// (InterPodAffinity, PodTopologySpread) keep per-domain counts in slices; the snapshot keeps each key's numbering
// up to date as nodes are added, updated and removed. Pods bound to a node the snapshot does not hold are kept aside and
// counted when the node is added, as the upstream cache does for pods
// whose node it has not seen.
//
// The snapshot also indexes the pods of its nodes by namespace, label
// key and value as they are added, assumed and removed.
// View.PodCandidates answers a selector with an =, == or In requirement
// from the smallest list it names, so that the first count of a new pod
// shape (InterPodAffinity, PodTopologySpread) reads the pods its
// selectors may match, not every pod; the lists are only appended to,
// each entry stamped with the generations its pod came and left at, so
// every view reads its own pods from them without a copy.
// View.CountPods counts, per node, the pods of a selector of one such
// requirement without reading them. The index also groups the pods'
// pod (anti)-affinity terms by kind, position, weight and term (the
// replicas of a workload share a group): View.CountTerms tests each
// group once and counts its terms per node and topology key. Both
// counts add up by domain of a Topology without reading any NodeInfo
// (PodCounts.AddByDomain, TermCounts.AddByDomain), and a NodeMemo seeded
// with the view (SeedView) follows later views from there, so that a
// plugin's first count of a new shape costs the pods and terms it reads.
//
// Nodes come in kube-scheduler's order, which decides the nodes a cycle
// evaluates when it scores only a percentage of them from a rotating
// start index: grouped by ZoneKey (region and zone), zones in the order
// their first node was added and each zone's nodes in the order they
// were added, listed round-robin over the zones (the first node of each
// zone, then the second, ...). As in the scheduler's snapshot, a view
// takes up a new order only when the set of node names differs from the
// previous view's; a zone change alone leaves the order as it was until
// then. Index positions (View.Index, Domains) follow this order.
//
// One writer changes a Snapshot while any number of goroutines read it.
// Readers use a View, an immutable picture for one scheduling cycle:
// Snapshot.View returns the current one (made at most once per change),
// and Snapshot's read methods (Nodes, Get, Domains, ...) read the current
// view. The writer copies a NodeInfo before its first change after a view
// was handed out (copy on write) and changes it in place otherwise, so
// building a snapshot copies nothing and a view is never changed. Each
// change takes a new generation from the snapshot's lineage counter;
// there is no package-level mutable state.
//
// Fork returns a snapshot that shares everything with its origin and
// copies, on each side, what that side changes first, as the writer does
// after handing out a view: a fork of 5,000 nodes and 150,000 pods copies
// no node and no pod (the pod index is layered: the fork's pod changes
// go to a map of its own over the shared, frozen one). Reset makes one
// snapshot of a lineage hold what another holds, the same way: that is
// a commit (origin.Reset(fork)) or a revert (fork.Reset(origin)). A
// lineage shares its epoch and generation sequences, so that no two of
// its snapshots stamp different states with one number.
//
// # Objects
//
// Besides nodes and pods, a Snapshot holds the other objects plugins,
// admission and controllers look up: namespaces, services and workload
// controllers, PodDisruptionBudgets, volumes, claims, storage classes,
// CSI objects, ResourceQuotas, LimitRanges, PriorityClasses and the DRA
// kinds (DeviceClasses, ResourceSlices, ResourceClaims and their
// templates, DeviceTaintRules; see Kinds). ResourceSlicesOnNode and
// ResourceSlicesInPool look slices up by node and by driver and pool. AddObject, AddObjects, UpdateObject and RemoveObject change
// them; a View's Objects is an immutable store read with the generic
// GetObject (by name, or namespace and name, in constant time),
// ListObjects (a namespace's objects in name order, without copying)
// and AllObjects. Views taken while no object changed share one
// Objects; a change copies only the changed kind's table and namespace.
// Objects.Generation and KindGeneration key caches of derived work.
//
// Snapshots validate what they are given: a pod with a negative or
// overflowing quantity, a duplicate namespace and name or UID, or sums
// that would overflow is rejected with an error naming it (wrapping
// ErrInvalid), and nothing is applied.
//
// Package clustergen has rapid generators of nodes, pods and clusters for
// property tests.
package cluster
