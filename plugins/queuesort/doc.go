// Package queuesort is the PrioritySort plugin, kube-scheduler's queue
// order.
//
// A profile names it under QueueSort, and DefaultRegistry builds it with
// New. The pod of higher priority goes first. Pods of equal priority go
// in the order they entered the queue.
package queuesort
