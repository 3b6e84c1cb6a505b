// Package priorities holds kube-scheduler's score plugins, as of
// Kubernetes v1.37.2: NodeResourcesFit (its score half, with the
// LeastAllocated, MostAllocated and RequestedToCapacityRatio strategies),
// NodeResourcesBalancedAllocation, ImageLocality, TaintToleration (its
// score half), NodeAffinity (its score half), InterPodAffinity (its
// score half, the classic InterPodAffinityPriority), PodTopologySpread (its
// score half: ScheduleAnyway constraints, weighted per constraint by
// SpreadTopologyWeight, and the system default constraints for pods that
// Services, ReplicaSets, StatefulSets or ReplicationControllers select;
// the legacy EvenPodsSpreadPriority) and, optional (registered, not in
// the default profile), SelectorSpread as of v1.26, its last release:
// the legacy SelectorSpreadPriority and ServiceSpreadingPriority, which
// spread the pods of a pod's Services and controller over nodes and,
// with two thirds of the weight, zones (SelectorSpreadScore). Each is a framework
// plugin built by a New<Name> factory with the framework.PluginFactory
// signature, and also a plain function usable without the framework
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio,
// BalancedAllocation, ImageLocality, TaintToleration, ...), together with
// the score arithmetic itself (LeastRequestedScore, MostRequestedScore,
// FunctionShape, BalancedResourceScore, DefaultNormalizeScore).
//
// Optional plugins keep the last semantics of priorities kube-scheduler
// removed (registered, not in the default profile): NodeLabel
// (NodeLabelPriority, v1.21), ServiceAffinity (ServiceAntiAffinity,
// v1.22), NodePreferAvoidPods (v1.21) and EqualPriority.
//
// Scores are upstream's integers: the same integer divisions, the same
// float64 expressions where upstream uses floats (balanced allocation,
// image spread, the rounding of RequestedToCapacityRatio).
//
// # Allocation
//
// Score allocates nothing once PreScore has stored the pod's requests in
// the CycleState: node amounts are read straight from the NodeInfo's
// running sums and the per-resource vectors live on the stack. See
// BenchmarkScoreLeastAllocated, BenchmarkScoreBalanced and
// TestScoreAllocations.
//
// InterPodAffinity's PreScore reads the existing pods of every node of
// the snapshot (all pods when the incoming pod has preferred pod
// (anti-)affinity, else only the pods with pod (anti-)affinity), as
// upstream does, and sums weights per topology domain, keeping each
// node's contribution across cycles as the filter half does (see package
// predicates); Score then looks up the node's value of each topology key,
// whatever the number of pods.
// Its NormalizeScore is NormalizeMinMax, upstream's min-max scaling with
// its float64 truncation.
//
// # PodTopologySpread
//
// PodTopologySpreadPlugin's PreScore keeps, as the filter half does, each
// node's matching pods and domain per constraint set across cycles,
// recounting only the nodes whose NodeInfo changed, with the domains
// numbered by the view's cluster.Topology of each key (plus one id for the
// nodes lacking it), and computes the raw score of every node it is given; Score and ScoreNodes (the plugin's
// framework.FastPath) read it, so their cost per node does not depend on
// the pods. It does not promise ScoresAnyNodes (its PreScore depends on
// the nodes Filter passed) nor NormalizeByMax (NormalizeScore reads the
// lowest score too).
package priorities
