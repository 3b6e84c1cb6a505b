// Package taints models taints and tolerations as Kubernetes v1.37 does.
//
// Ask whether a pod tolerates a node's taints, and which taint keeps it
// off; parse kubectl's taint syntax:
//
//	taint, found := taints.FindUntolerated(node.Spec.Taints, pod.Spec.Tolerations)
//	t, err := taints.ParseTaint("dedicated=gpu:NoSchedule")
//
// # Scope
//
// It models Kubernetes (v1.37) taints and tolerations,
// without depending on k8s.io: whether a toleration tolerates a taint
// (Tolerates, TolerationsTolerate, as Toleration.ToleratesTaint), which
// taint keeps a pod off a node (FindUntolerated, as the TaintToleration
// filter), how many PreferNoSchedule taints count against a node
// (CountIntolerablePreferNoSchedule, the TaintToleration score), when a
// NoExecute taint evicts a running pod (EvictionTime, PodsToEvict, as the
// taint eviction controller), and kubectl's taint syntax (ParseTaint,
// ParseTaints, FormatTaint).
//
// The alpha Lt / Gt toleration operators (feature gate
// TaintTolerationComparisonOperators, off by default in v1.37) are
// supported through Options{ComparisonOperators: true}; the package-level
// functions use the default, under which such tolerations tolerate
// nothing.
//
// WithConditionTaints gives a node's taints as the node lifecycle
// controller sets them from its conditions (not-ready, unreachable,
// pressure and cordon taints).
//
// Matching functions do not allocate and nothing panics on bad input.
package taints
