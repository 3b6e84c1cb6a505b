// Package nodeunschedulable is the NodeUnschedulable plugin: a cordoned
// node takes only pods that tolerate its unschedulable taint.
//
// A profile enables it under its name, and the registry builds it with
// New. Filter calls predicates.NodeUnschedulable.
package nodeunschedulable
