// Package k8sgen draws random Kubernetes objects for property tests
// (pgregory.net/rapid): every kind package convert handles, k8s.io/api's
// types and schedkit's, with every field set to a valid value.
//
//	rapid.Check(t, func(t *rapid.T) {
//		pod := k8sgen.Pod().Draw(t, "pod")          // *corev1.Pod
//		node := k8sgen.Object[api.Node]().Draw(t, "node")
//		for _, k := range k8sgen.Kinds() { ... }     // Name, K8s and API types
//	})
//
// Fill does the same for a type known at run time (a reflect.Value).
//
// # Internals
//
// The filler walks the type with reflect. Strings come from a few values
// that selectors and topology keys can match; quantities from texts of
// every shape (milli, nano, binary suffixes, exponents, beyond int64);
// times from whole seconds, as JSON keeps them; IntOrString, raw JSON
// and RawExtension from valid values of their own. Other types with
// their own JSON encoding stay zero, and interfaces stay nil. Below the
// depth limit pointers, slices and maps are nil, which keeps recursive
// types small. Draw labels name the field, so rapid's failure output
// reads as the object.
package k8sgen
