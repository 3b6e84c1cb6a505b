// Package cluster is the scheduler's view of a cluster: a Snapshot of
// nodes, each a NodeInfo that keeps the running sums of its pods' requests,
// the host ports in use, image sizes and the pods with inter-pod affinity.
package cluster
