// Package priorities holds kube-scheduler's score plugins, as of
// Kubernetes v1.37.2: NodeResourcesFit (its score half, with the
// LeastAllocated, MostAllocated and RequestedToCapacityRatio strategies),
// NodeResourcesBalancedAllocation, ImageLocality, TaintToleration (its
// score half), NodeAffinity (its score half) and InterPodAffinity (its
// score half, the classic InterPodAffinityPriority). Each is a framework
// plugin built by a New<Name> factory with the framework.PluginFactory
// signature, and also a plain function usable without the framework
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio,
// BalancedAllocation, ImageLocality, TaintToleration, ...), together with
// the score arithmetic itself (LeastRequestedScore, MostRequestedScore,
// FunctionShape, BalancedResourceScore, DefaultNormalizeScore).
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
package priorities
