// Package defaultpreemption is the DefaultPreemption plugin: when a pod
// fits no node, it nominates a node where evicting pods of lower priority
// would make room.
//
// A profile enables it under PostFilter, and the registry builds it with
// New from config.DefaultPreemptionArgs. PostFilter calls
// preemption.Attempt and prefixes its message with "preemption: ", as
// upstream. Preempt returns the whole preemption.Outcome, each node's dry
// run included, for Explain and what-if questions. The handle must be a
// preemption.Handle: the scheduler's is.
package defaultpreemption
