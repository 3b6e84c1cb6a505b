// Package schedulinggates is the SchedulingGates plugin, which holds a
// pod out of the queue while it has spec.schedulingGates.
//
// A profile names it under PreEnqueue, and DefaultRegistry builds it with
// New. A gated pod is rejected with UnschedulableAndUnresolvable and the
// list of its gates. No cluster event admits it: only an update of the
// pod that removes the gates does.
package schedulinggates
