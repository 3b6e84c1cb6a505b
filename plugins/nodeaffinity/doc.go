// Package nodeaffinity is the NodeAffinity plugin.
//
// A profile enables it under its name, and the registry builds it with
// New from config.NodeAffinityArgs. Filter checks the pod's nodeSelector
// and required node affinity, and the args' added affinity. Score sums
// the weights of the preferred terms a node matches, and NormalizeScore
// scales them onto [0, 100].
//
// PreFilter compiles the pod's required terms once per cycle and narrows
// the nodes to those its matchFields name. When the pod's constraints
// read one node label key, it decides them once per domain of the
// view's Topology of the key, and Filter reads a node's verdict by its
// domain id. PreScore compiles the
// preferred terms. Both halves read only what their own step wrote.
package nodeaffinity
