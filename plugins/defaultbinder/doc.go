// Package defaultbinder is the DefaultBinder plugin, named so that a
// profile written for kube-scheduler loads unchanged.
//
// A profile names it under Bind. It does nothing: Scheduler.Assume
// records the placement that kube-scheduler's binder would write.
package defaultbinder
