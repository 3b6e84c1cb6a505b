// Package layering holds no code: its test checks that the module's
// imports point one way (commands → manifest → scheduler → preemption →
// predicates/priorities → framework → cluster → workload → admission →
// affinity/taints/qos → resource → api → quantity, the engine under the
// scheduler), that only tests import the harnesses under internal/testing,
// and that nothing outside conformance/ imports k8s.io.
package layering
