// Package noderesources holds the two resource plugins,
// NodeResourcesFit and NodeResourcesBalancedAllocation.
//
// A profile enables them under FitName and BalancedAllocationName, and
// the registry builds them with NewFit and NewBalancedAllocation from
// their args. Fit's Filter rejects a node without room for the pod's
// requests. Its Score rates nodes with the configured strategy:
// LeastAllocated, MostAllocated or RequestedToCapacityRatio.
// BalancedAllocation favours nodes whose resource use the pod keeps
// balanced.
//
// PreFilter computes the pod's request once per cycle and Filter checks
// it with predicates.FitStatus. PreScore computes the pod's request of
// each scored resource and Score calls a priorities.AllocationScorer.
// Neither allocates once its state is in the CycleState.
package noderesources
