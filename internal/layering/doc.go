// Package layering holds no code: its test checks that the module's
// imports point one way (commands → scheduler → preemption →
// predicates/priorities → framework → cluster → affinity/taints/qos →
// resource → api → quantity) and that nothing outside conformance/
// imports k8s.io.
package layering
