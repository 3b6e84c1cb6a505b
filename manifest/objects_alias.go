package manifest

// Objects is the former name of Set.
//
// Deprecated: use Set. The alias stays until the workload emulation
// leaves this package; it will then be removed.
type Objects = Set
