// Package framework defines kube-scheduler's extension points for
// schedkit: plugin interfaces (PreFilter, Filter, PostFilter, PreScore,
// Score, NormalizeScore), the Status they return, the CycleState they
// share within one scheduling cycle and the Profile that lists them.
package framework
