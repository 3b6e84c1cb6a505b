// Package legacy holds the plugins kube-scheduler removed that a Policy
// file or a profile may still enable: NodeLabel, ServiceAffinity,
// NodePreferAvoidPods, EqualPriority, SelectorSpread and the three
// node-pressure filters CheckNodeMemoryPressure, CheckNodeDiskPressure
// and CheckNodePIDPressure.
//
// The registry builds each with its New factory. None is in the default
// profile. Each keeps the semantics of the last release that had it, and
// calls the plain functions of packages predicates and priorities.
package legacy
