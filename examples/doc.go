// Package examples holds runnable programs a newcomer starts from:
//
//   - quickstart: a cluster dump (the bundled examples/manifests) read by
//     package manifest and scheduled in queue order, preemption included;
//   - capacity: how many more replicas of a pod fit, and where;
//   - customplugin: a score plugin of your own in the default profile,
//     joining the fast path;
//   - policy: a profile rebuilt from an old Policy file (kind: Policy);
//   - drain: what happens to a node's pods if it is drained.
//
// Run one from the repository root, e.g. `go run ./examples/quickstart`
// (TestRunFromRoot runs each so). The
// command in cmd/schedkit does the same work over Kubernetes manifests
// (examples/manifests).
package examples
