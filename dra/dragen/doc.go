// Package dragen holds pgregory.net/rapid generators of small DRA worlds
// for property and differential tests of package dra: nodes, device
// classes, resource slices, device taint rules, claims already allocated
// and the claims of a pod to allocate.
//
// A test draws a World and allocates its claims on each node:
//
//	w := dragen.WorldGen().Draw(t, "world")
//	a, _ := dra.NewAllocator(ctx, w.Input(dragen.Compiler{}))
//	for _, n := range w.Nodes {
//		results, err := a.Allocate(ctx, n)
//	}
//
// Worlds are small (two drivers, a few pools and devices) so that
// exhaustive checks stay cheap, and they mix every feature the allocator
// models: node-local, allNodes, node selector and per-device slices, pool
// generations and incomplete pools, duplicate device names, shared
// counters, consumable capacity with request policies, taints and
// tolerations, taint rules, binding conditions, admin access, All
// requests, prioritized lists and matchAttribute / distinctAttribute
// constraints. The objects pass the API server's validation; selectors
// use the language Compiler understands, a subset of Kubernetes' CEL.
//
// MixedGen draws a World with what the other default plugins read too:
// zoned, tainted, cordoned nodes with allocatable, bound pods, and a pod
// that asks for the claims (by name or through a template's generated
// claim) with requests, tolerations, node affinity and topology spread,
// for differential runs of the whole profile.
package dragen
