// Package examples holds runnable programs a newcomer starts from:
//
//   - capacity: how many more replicas of a pod fit, and where;
//   - customplugin: a score plugin of your own in the default profile;
//   - drain: what happens to a node's pods if it is drained.
//
// Run one with `go run ./examples/capacity`. The command in cmd/schedkit
// does the same work over Kubernetes manifests (examples/data).
package examples
