// Command e2e applies manifests to a real Kubernetes v1.37.2 control
// plane started in process (etcd, kube-apiserver, the controllers,
// kube-scheduler; no kubelet) and compares what it does with schedkit
// on the same input: admission verdicts and messages, the objects the
// controllers create, each pod's effective spec, and every placement in
// the order kube-scheduler made them (its Reserve order, recorded by a
// plugin of the in-process scheduler: the bindings reach the API server
// in any order).
//
//	go run ./conformance/cmd/e2e -f DIR [-f FILE...] [--config FILE]
//
// It prints one line per disagreement, `Kind ns/name: field: upstream X,
// schedkit Y`, then a summary, and exits 1 on any disagreement, 2 on bad
// input. --trace prints each replayed step with schedkit's verdict on
// stderr. With --known FILE it compares the disagreements with the list
// in FILE instead (each line's part up to the values: upstream breaks
// ties at random): it exits 0 when they are the same, 1 listing the new
// and the fixed ones.
//
// A pod of the input annotated conformance.schedkit.io/delete-after-settle:
// "true" is deleted (grace period 0) once the cluster has settled, and
// the cluster settles again before the comparison: a user's deletion in
// the middle of the run, replayed in the lockstep as upstream recorded it.
//
// Internals: input.go reads the objects as kubectl does and orders them
// in apply phases; apply.go creates them; record.go keeps upstream's
// pod history through an informer and stands in for the kubelet's and
// a provisioner's parts; timeline.go merges it with the scheduler's
// cycles into the order the lockstep replays; compare.go matches and
// compares; schedkit.go holds every call into schedkit.
package main
