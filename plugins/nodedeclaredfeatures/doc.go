// Package nodedeclaredfeatures is the NodeDeclaredFeatures plugin: a pod
// that needs a node feature fits only nodes that declare it.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter computes the pod's required features as a
// predicates.FeatureMask and returns Skip when there are none. Filter
// compares it with the node's declared features.
package nodedeclaredfeatures
