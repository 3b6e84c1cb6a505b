// Package priorities holds kube-scheduler v1.37.2's scores as plain
// functions. Call one with a pod and a node to get the integer score
// kube-scheduler would give before normalising:
//
//	s := priorities.LeastAllocated(pod, nodeInfo, nil) // cpu and memory, weight 1
//	b := priorities.BalancedAllocation(pod, nodeInfo, nil)
//
// The framework plugins in plugins/ call these functions. A plugin keeps
// its per-cycle state and caches itself; this package keeps the score
// arithmetic.
//
// # What it holds
//
// LeastAllocated, MostAllocated, RequestedToCapacityRatio and
// BalancedAllocation score a node's resources. AllocationScorer is their
// compiled form, built once per plugin with NewFitScorer or
// NewBalancedScorer. The score arithmetic is exported too:
// LeastRequestedScore, MostRequestedScore, FunctionShape,
// BalancedResourceScore. ImageLocality, ImageLocalityOfKeys and
// ImageLocalityNodes score images. TaintToleration and NodeAffinity count
// a node's preferences. SpreadTopologyWeight and SpreadScoreForCount are
// PodTopologySpread's arithmetic. DefaultNormalizeScore,
// DefaultNormalizeByMax and NormalizeMinMax map raw scores to [0, 100].
// The Policy-only scores are here too: NodeLabelScore, NodePreferAvoidPods,
// ServiceAntiAffinity and SelectorSpreadScore.
//
// Scores are upstream's integers: the same integer divisions, the same
// float64 expressions where upstream uses floats. Scoring a node
// allocates nothing: node amounts are read from the NodeInfo's running
// sums and the per-resource vectors live on the stack.
package priorities
