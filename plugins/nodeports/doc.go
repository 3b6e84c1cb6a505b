// Package nodeports is the NodePorts plugin: a pod's host ports must be
// free on the node.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter collects the pod's host ports once per cycle and returns
// Skip for a pod without any. Filter rejects a node where one is in use.
package nodeports
