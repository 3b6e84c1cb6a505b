// Package scheduler places pods on the nodes of a cluster.Snapshot with
// kube-scheduler's scheduling cycle (v1.37.2's schedulePod): the pod's
// profile by spec.schedulerName, PreFilter, the nominated node first,
// Filter over the nodes in parallel chunks from a rotating start index
// until the sampling target (percentageOfNodesToScore) is met, PreScore,
// Score with normalisation and weights, and the best node, ties broken
// as upstream's heap does (or, with TieBreakRandom, by a seeded random
// source). A pod that fits nowhere gets a *FitError whose message is
// kube-scheduler's.
//
// Large cycles are shared with helper goroutines (framework.OfferHelp):
// filtering (and eager scoring, below) from 256 nodes, a separate score
// pass from 2,000. The result never depends
// on it: a parallel pass gives what one goroutine gives, node for node.
// A filter pass records which nodes passed as bits and builds the
// per-node statuses of a Diagnosis only when no node fits, since a cycle
// that finds a node drops them.
//
// When every node is to be scored (percentageOfNodesToScore 100, or
// fewer than 100 nodes), no pod is nominated, and the profile's scoring
// plugins allow it (framework.EagerScorer: all the built-in ones do), a
// cycle without diagnosis scores each chunk of nodes right after
// filtering it, on the same goroutine: PreScore runs before Filter, into
// a child of the cycle's state, while helpers already filter. Upstream
// runs PreScore after Filter and only when two or more nodes fit; the
// decision is the same (a PreScore error is reported only then, as
// upstream does). ScheduleWithDiagnosis scores after Filter, as upstream.
// A cycle's CycleState and NodeToStatus are reused by the next cycle
// unless a FitError takes them.
//
// Assume adds a placement to the snapshot. The scheduling queue (Enqueue,
// RunQueue, Simulate) orders pods with the profile's QueueSort plugin
// (PrioritySort: priority, then arrival), holds back gated pods
// (SchedulingGates) and parks unschedulable pods until a cluster change
// one of their rejecting plugins cares about.
//
// A pod that fits nowhere goes to the profile's PostFilter plugins:
// DefaultPreemption (package preemption) nominates a node and names the
// victims (Result.PostFilterResult; the FitError's message ends with the
// PostFilter message). Schedule only reports it; RunQueue and Simulate
// act on it as the preemption executor and the API server would: the
// victims leave the snapshot, the pod is nominated (and pods of lower
// priority nominated to that node lose their nomination), and the pod is
// retried on the nominated node first (Placement.Preemptions lists each
// preemption). Other cycles' filters count nominated pods of equal or
// higher priority on their nodes. Drain and TaintNode are what-ifs over
// evictions: a drain through the eviction API's PodDisruptionBudget
// checks, and NoExecute taints over time; both schedule the evicted
// pods' replacements.
//
// Plugins are looked up by name in a framework.Registry: DefaultRegistry
// has the plugins this build implements; plugins of the default profile
// it lacks are reported in Result.NotEvaluated.
package scheduler
