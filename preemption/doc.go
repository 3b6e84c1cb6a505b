// Package preemption is the model behind kube-scheduler v1.37.2's
// DefaultPreemption: when a pod fits no node, Attempt looks for a node
// where evicting pods of lower priority would make room, and returns the
// node to nominate, the victims and each node's verdict in an Outcome.
// The plugin itself, which calls Attempt from PostFilter, is
// plugins/defaultpreemption.
//
// The semantics are upstream's, step by step:
//
//   - Eligibility: a pod with preemptionPolicy Never preempts nobody ("not
//     eligible due to preemptionPolicy=Never."), and a pod whose nominated
//     node still holds a lower-priority pod terminating by preemption (a
//     deletionTimestamp and a DisruptionTarget condition with reason
//     PreemptionByScheduler) waits for it ("not eligible due to a
//     terminating pod on the nominated node."), unless the filters found
//     the nominated node UnschedulableAndUnresolvable.
//   - Candidates: the nodes whose filter status was Unschedulable (never
//     UnschedulableAndUnresolvable), in snapshot order (upstream: map
//     order), dry-run from a random offset, drawn from the scheduler's
//     seeded source, until enough candidates are
//     found: max(numNodes*minCandidateNodesPercentage/100,
//     minCandidateNodesAbsolute), at most numNodes, and at least one that
//     violates no PodDisruptionBudget.
//   - Victims on a node (SelectVictimsOnNode): every pod of lower priority
//     is removed, through the profile's PreFilter extensions (RemovePod,
//     AddPod) so that plugins keeping per-cycle state see the change; if
//     the pod then passes the profile's filters (with the pods nominated
//     to the node of at least its priority), victims are reprieved in
//     upstream's order (first those whose eviction would violate a
//     PodDisruptionBudget, then the others, each group from the most
//     important: higher priority, then earlier start), each kept if the
//     pod still fits.
//   - PodDisruptionBudgets are read as upstream reads them: a pod with
//     labels matched by a budget's selector in the budget's namespace, not
//     already in status.disruptedPods, uses one of
//     status.disruptionsAllowed; once a budget has none left, the pod
//     violates it. An empty or nil selector matches nothing.
//   - Choice of node (PickOneNodeForPreemption): fewest PDB violations,
//     then the lowest highest-victim priority, the smallest sum of
//     priorities, the fewest victims, the latest start time of the
//     highest-priority victims; a tie left after that is broken at random
//     (upstream takes the first in Go map order), from the seeded source,
//     among the tied nodes in name order — so when every potential node is
//     dry-run (up to minCandidateNodesAbsolute of them, 100 by default), a
//     result depends on the seed and not on the order of the nodes.
//   - The status message is upstream's, byte for byte: "preemption: found
//     a potential placement for pod on node N, preempting K victims",
//     "preemption: not eligible due to preemptionPolicy=Never.", or, when
//     no node can help, "preemption: 0/N nodes are available: ..." with
//     each dry-run node's reason (such as "No preemption victims found for
//     incoming pod") and "Preemption is not helpful for scheduling" for
//     the others.
//
// Cost: a dry run lists the PreFilter extensions and filters the failed
// cycle did not skip once. A node without a pod of lower priority is
// answered without a copy. Each other node it tries is copied into one
// NodeInfo's memory, reused from node to node (cluster.NodeInfo.CopyInto),
// and the cycle state is copied only when some PreFilter extension is
// active (filters only read the state): a dry run allocates the victims'
// lists and nothing else per node. Victims are removed from the copy by
// their tracked positions (cluster.NodeInfo.RemovePodAt), not searched
// for by UID; a filter's shared status is named once a dry run; the
// verdicts of the nodes that cannot help are kept by node slot
// (framework.NewNodeToStatusFor). The answers are those of the profile's
// RunPreFilterExtensionAddPod, RunPreFilterExtensionRemovePod and
// RunFilterPluginsWithNominatedPods, and of RemovePod by UID
// (TestTrackedRemovalMatchesPlain).
//
// Successive attempts in one Memory (DefaultPreemption's) keep each
// node's verdict — its victims, their budget violations and what
// PickOneNodeForPreemption compares of them, or why the node cannot
// help — for the preemptor's shape: the pod but for its name, UID and
// nomination. A node that did not change since (the same NodeInfo at the
// same Generation) is then answered without a copy, as long as the
// shape, the profile, the filters the cycle runs and the snapshot's
// objects are the same, every filter running is node-local
// (framework.FastPath.NodeLocalFilter: NodeResourcesFit, NodePorts,
// NodeAffinity, TaintToleration, NodeName, NodeUnschedulable), no
// PreFilter extension is active, and no pod is nominated to the node.
// The nodes tried, their order, the candidates and the choice are those
// of a dry run of every node (TestMemoMatchesPlain): in a stream of
// preemptors of one shape, only the nodes the last preemption changed
// are tried again. When every node's status is Unschedulable, the
// potential nodes are the view's list itself, counted from the statuses
// by slot (framework.NodeToStatus.CountCode) without reading a node.
//
// The plugin only decides; the scheduler acts on the result
// (framework.PostFilterResult): package scheduler removes the victims
// from its snapshot, nominates the pod and schedules it again.
//
// Not modelled: pod groups and workload-aware preemption (the
// GenericWorkload gate is off by default in v1.37), extenders, and the
// asynchronous API calls of the preemption (a victim is gone at once, so
// the PreEnqueue wait "waiting for the preemption for this pod to be
// finished" never applies). A pod without status.startTime counts as
// started after every pod that has one (upstream uses the current time),
// pods on one node without a start time in their order on the node.
package preemption
