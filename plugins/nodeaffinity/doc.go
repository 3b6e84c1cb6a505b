// Package nodeaffinity is the NodeAffinity plugin.
//
// A profile enables it under its name, and the registry builds it with
// New from config.NodeAffinityArgs. Filter checks the pod's nodeSelector
// and required node affinity, and the args' added affinity. Score sums
// the weights of the preferred terms a node matches, and NormalizeScore
// scales them onto [0, 100].
//
// PreFilter compiles the pod's required terms once per cycle and narrows
// the nodes to those its matchFields name. PreScore compiles the
// preferred terms. Both halves read only what their own step wrote.
package nodeaffinity
