// Package gangscheduling is the GangScheduling plugin: all-or-nothing
// scheduling for the pods of a PodGroup with a gang policy.
//
// A profile gets it from DefaultPluginsFor when GenericWorkload is on, and
// DefaultRegistry builds it with New over the scheduler's handle, which
// lists the groups (podgroup.Lister). PreEnqueue holds a gang's pods back
// until minCount of them exist; the scheduler's PodGroup cycle calls
// PlacementFeasible after each member to stop as soon as minCount cannot
// be reached; Permit lets a pod through once minCount members are
// scheduled and otherwise makes it Wait, at most PermitTimeout. The
// reasons are v1.37.2's, word for word.
//
// The composite-group paths of upstream's plugin need CompositePodGroup
// (alpha), which schedkit does not model.
package gangscheduling
