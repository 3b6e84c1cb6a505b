// Package controlplane runs a Kubernetes v1.37.2 control plane inside the
// calling process: an embedded etcd, kube-apiserver, the
// kube-controller-manager controllers that create or bind what the
// scheduler reads, and kube-scheduler. There is no kubelet: nodes are
// objects, and a bound pod stays bound in phase Pending.
//
// A test or a command starts one, talks to it with client-go and stops it:
//
//	cp, err := controlplane.Start(ctx, controlplane.Options{})
//	if err != nil { ... }
//	defer cp.Stop()
//	cp.Client().CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
//
// Everything listens on 127.0.0.1 at free ports and keeps its data in a
// temporary directory that Stop removes. Nothing outside the Go module
// cache is needed.
//
// The API server runs with kube-apiserver's default admission plugins
// except TaintNodesByCondition: that plugin taints every new Node
// not-ready until the node lifecycle controller sees a kubelet's
// heartbeat, and here no kubelet ever beats, so nodes read from manifests
// are taken as the manifests describe them. The ServiceAccount admission
// plugin stays on; the service account controller creates each
// namespace's "default" service account, which that plugin requires
// before it admits a pod (WaitForServiceAccount waits for it).
//
// Controllers run from k8s.io/kubernetes/pkg/controller with one shared
// informer factory: deployment, replicaset, statefulset, daemonset, job,
// resourceclaim, persistentvolume binder, ephemeral volume, resourcequota
// (the ResourceQuota admission plugin refuses pods while a quota has no
// status) and serviceaccount. The garbage collector and the namespace
// controller are not run: nothing here deletes owners or namespaces.
// kube-scheduler runs from k8s.io/kubernetes/pkg/scheduler with the
// profiles of Options.SchedulerConfig (the default profile when nil).
// Each profile also runs an out-of-tree plugin at PreFilter and Reserve
// that decides nothing and records the scheduler's cycles: Cycles is the
// order in which pods were judged and placed, which the API server's
// bindings, made concurrently, do not keep.
package controlplane
