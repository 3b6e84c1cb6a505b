// Package nodename is the NodeName plugin: a pod that names a node in
// spec.nodeName fits only that node.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter narrows the cycle to the named node. Filter rejects every
// other node with UnschedulableAndUnresolvable. The check itself is
// predicates.NodeName.
package nodename
