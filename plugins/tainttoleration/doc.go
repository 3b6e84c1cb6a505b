// Package tainttoleration is the TaintToleration plugin.
//
// A profile enables it under its name, and the registry builds it with
// New. Filter rejects a node with a NoSchedule or NoExecute taint the pod
// does not tolerate, with predicates.TaintToleration. Score counts the
// node's PreferNoSchedule taints the pod does not tolerate, and
// NormalizeScore reverses the counts onto [0, 100].
package tainttoleration
