// Package examples holds runnable programs a newcomer starts from:
//
//   - quickstart: a cluster dump (the bundled examples/manifests) read by
//     package manifest and scheduled in queue order, preemption included;
//   - capacity: how many more replicas of a pod fit, and where;
//   - customplugin: a plugin of your own in its own folder, laid out as
//     the in-tree plugins are, registered with scheduler.WithPlugin
//     (`go test ./examples/customplugin` runs its Example);
//   - policy: a profile rebuilt from an old Policy file (kind: Policy);
//   - drain: what happens to a node's pods if it is drained.
//
// Run one from the repository root, e.g. `go run ./examples/quickstart`
// (TestRunFromRoot runs each so). The
// command in cmd/schedkit does the same work over Kubernetes manifests
// (examples/manifests).
package examples
