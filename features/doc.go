// Package features holds the feature gates schedkit models, as
// kube-scheduler v1.37.2 takes them with --feature-gates. A user parses
// the flag's value and hands the result to the scheduler:
//
//	g, err := features.Parse("GenericWorkload=true")
//	s, err := scheduler.New(snap, scheduler.WithFeatureGates(g))
//
// The zero Gates is the release's defaults, which is what every other
// part of schedkit models when no gates are given.
//
// The table lists every gate the v1.37.2 scheduler reads, each with its
// default, maturity, lock and dependencies at emulation version 1.37 and
// minimum compatibility version 1.36 (kube-scheduler's defaults). A gate
// schedkit models both ways is Modelled; the others may be named only
// with their default value, so that an input never silently asks for
// behaviour schedkit does not have. A name outside the table is an error
// with component-base's wording, as are a locked gate set to the other
// value and an enabled gate whose dependencies are off.
package features
