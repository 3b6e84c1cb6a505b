package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/pager"
)

// kind is one kind the plugin can read.
type kind struct {
	gvk schema.GroupVersionKind
	// scoped kinds are read in the chosen namespace only (-n): workloads,
	// whose pods would be pending. Others are read in every namespace.
	scoped bool
	list   func(c kubernetes.Interface, ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
}

func gvk(group, version, k string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: group, Version: version, Kind: k}
}

// The kinds, in the order they are written.
var (
	kNode = kind{gvk("", "v1", "Node"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Nodes().List(ctx, o)
	}}
	kPod = kind{gvk("", "v1", "Pod"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Pods("").List(ctx, o)
	}}
	kNamespace = kind{gvk("", "v1", "Namespace"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Namespaces().List(ctx, o)
	}}
	kPriorityClass = kind{gvk("scheduling.k8s.io", "v1", "PriorityClass"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.SchedulingV1().PriorityClasses().List(ctx, o)
	}}
	kLimitRange = kind{gvk("", "v1", "LimitRange"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().LimitRanges("").List(ctx, o)
	}}
	kResourceQuota = kind{gvk("", "v1", "ResourceQuota"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().ResourceQuotas("").List(ctx, o)
	}}
	kPDB = kind{gvk("policy", "v1", "PodDisruptionBudget"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.PolicyV1().PodDisruptionBudgets("").List(ctx, o)
	}}
	kService = kind{gvk("", "v1", "Service"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Services("").List(ctx, o)
	}}
	kReplicationController = kind{gvk("", "v1", "ReplicationController"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().ReplicationControllers("").List(ctx, o)
	}}
	kReplicaSet = kind{gvk("apps", "v1", "ReplicaSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().ReplicaSets("").List(ctx, o)
	}}
	kDeployment = kind{gvk("apps", "v1", "Deployment"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().Deployments("").List(ctx, o)
	}}
	kStatefulSet = kind{gvk("apps", "v1", "StatefulSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().StatefulSets("").List(ctx, o)
	}}
	kDaemonSet = kind{gvk("apps", "v1", "DaemonSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().DaemonSets("").List(ctx, o)
	}}
	kControllerRevision = kind{gvk("apps", "v1", "ControllerRevision"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().ControllerRevisions("").List(ctx, o)
	}}
	kJob = kind{gvk("batch", "v1", "Job"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.BatchV1().Jobs("").List(ctx, o)
	}}
	kCronJob = kind{gvk("batch", "v1", "CronJob"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.BatchV1().CronJobs("").List(ctx, o)
	}}
	kPV = kind{gvk("", "v1", "PersistentVolume"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().PersistentVolumes().List(ctx, o)
	}}
	kPVC = kind{gvk("", "v1", "PersistentVolumeClaim"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().PersistentVolumeClaims("").List(ctx, o)
	}}
	kStorageClass = kind{gvk("storage.k8s.io", "v1", "StorageClass"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().StorageClasses().List(ctx, o)
	}}
	kCSINode = kind{gvk("storage.k8s.io", "v1", "CSINode"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSINodes().List(ctx, o)
	}}
	kCSIDriver = kind{gvk("storage.k8s.io", "v1", "CSIDriver"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSIDrivers().List(ctx, o)
	}}
	kCSIStorageCapacity = kind{gvk("storage.k8s.io", "v1", "CSIStorageCapacity"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSIStorageCapacities("").List(ctx, o)
	}}
	kVolumeAttachment = kind{gvk("storage.k8s.io", "v1", "VolumeAttachment"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().VolumeAttachments().List(ctx, o)
	}}
)

// needs returns the kinds command reads. Every command admits pending
// pods (LimitRanges, ResourceQuotas, PriorityClasses, namespaces) and
// expands workloads into the pods their controllers would create;
// scheduling decisions also read PodDisruptionBudgets (preemption,
// drain), Services (SelectorSpread) and the storage objects (the volume
// plugins). describe makes no decision.
func needs(command string) []kind {
	base := []kind{kNode, kPod, kNamespace, kPriorityClass, kLimitRange, kResourceQuota,
		kReplicationController, kReplicaSet, kDeployment, kStatefulSet, kDaemonSet, kControllerRevision, kJob, kCronJob}
	if command == "describe" {
		return base
	}
	return append(base, kPDB, kService, kPV, kPVC, kStorageClass, kCSINode, kCSIDriver, kCSIStorageCapacity, kVolumeAttachment)
}

// reader lists kinds and writes them as one v1 List.
type reader struct {
	client   kubernetes.Interface
	pageSize int64
	// namespace, when set, keeps only its pending pods and workloads.
	namespace string
}

// writeList lists each kind with paginated list calls (limit and
// continue, so that no single call returns a 100,000-pod list) and
// writes the objects to w as a v1 List, one item at a time.
func (r reader) writeList(ctx context.Context, w io.Writer, kinds []kind) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := io.WriteString(bw, `{"apiVersion":"v1","kind":"List","items":[`+"\n"); err != nil {
		return err
	}
	first := true
	for _, k := range kinds {
		p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return k.list(r.client, ctx, opts)
		})
		p.PageSize = r.pageSize
		err := p.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
			if !r.keep(k, obj) {
				return nil
			}
			if err := writeItem(bw, first, obj, k.gvk); err != nil {
				return err
			}
			first = false
			return nil
		})
		if err != nil {
			return fmt.Errorf("listing %s: %w", k.gvk.Kind, err)
		}
	}
	if _, err := io.WriteString(bw, "\n]}\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// keep reports whether obj belongs in the dump: with a namespace chosen,
// workloads and pending pods of other namespaces are left out.
func (r reader) keep(k kind, obj runtime.Object) bool {
	if r.namespace == "" {
		return true
	}
	m, ok := obj.(metav1.Object)
	if !ok || m.GetNamespace() == r.namespace {
		return true
	}
	if k.scoped {
		return false
	}
	if pod, ok := obj.(*corev1.Pod); ok {
		return pod.Spec.NodeName != "" // bound pods of every namespace count on their nodes
	}
	return true
}
