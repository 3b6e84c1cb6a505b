// Package conformance checks schedkit against upstream Kubernetes
// (k8s.io/kubernetes v1.37.2) with differential property tests and
// compares their speed. It is a separate module so that the core module
// never depends on k8s.io; see README.md.
package conformance
