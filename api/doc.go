// Package api holds schedkit's plain object types: Pod, Node, Namespace,
// LimitRange, PriorityClass, PodDisruptionBudget and the structures they
// are made of.
//
// The types carry Kubernetes' own JSON field names and shapes (core/v1,
// policy/v1, scheduling/v1), so a manifest from `kubectl get -o json` (or
// YAML converted to JSON) decodes straight into them; fields schedkit does
// not model are ignored on decode. They hold data only: the rules over them
// live in the packages above (resource for requests and limits, qos,
// affinity, taints, ...), in the same way that Kubernetes splits core/v1
// from its helpers.
//
// The layering is
//
//	quantity → api → resource, qos, affinity, taints → cluster → framework → plugins → scheduler
//
// api imports only quantity, for the values in a ResourceList.
package api
