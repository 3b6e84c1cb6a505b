package dump

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/pager"
)

// Kind is one kind Write can list.
type Kind struct {
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
	kNode = Kind{gvk("", "v1", "Node"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Nodes().List(ctx, o)
	}}
	kPod = Kind{gvk("", "v1", "Pod"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Pods("").List(ctx, o)
	}}
	kNamespace = Kind{gvk("", "v1", "Namespace"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Namespaces().List(ctx, o)
	}}
	kPriorityClass = Kind{gvk("scheduling.k8s.io", "v1", "PriorityClass"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.SchedulingV1().PriorityClasses().List(ctx, o)
	}}
	kLimitRange = Kind{gvk("", "v1", "LimitRange"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().LimitRanges("").List(ctx, o)
	}}
	kResourceQuota = Kind{gvk("", "v1", "ResourceQuota"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().ResourceQuotas("").List(ctx, o)
	}}
	kPDB = Kind{gvk("policy", "v1", "PodDisruptionBudget"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.PolicyV1().PodDisruptionBudgets("").List(ctx, o)
	}}
	kService = Kind{gvk("", "v1", "Service"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().Services("").List(ctx, o)
	}}
	kReplicationController = Kind{gvk("", "v1", "ReplicationController"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().ReplicationControllers("").List(ctx, o)
	}}
	kReplicaSet = Kind{gvk("apps", "v1", "ReplicaSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().ReplicaSets("").List(ctx, o)
	}}
	kDeployment = Kind{gvk("apps", "v1", "Deployment"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().Deployments("").List(ctx, o)
	}}
	kStatefulSet = Kind{gvk("apps", "v1", "StatefulSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().StatefulSets("").List(ctx, o)
	}}
	kDaemonSet = Kind{gvk("apps", "v1", "DaemonSet"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().DaemonSets("").List(ctx, o)
	}}
	kControllerRevision = Kind{gvk("apps", "v1", "ControllerRevision"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.AppsV1().ControllerRevisions("").List(ctx, o)
	}}
	kJob = Kind{gvk("batch", "v1", "Job"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.BatchV1().Jobs("").List(ctx, o)
	}}
	kCronJob = Kind{gvk("batch", "v1", "CronJob"), true, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.BatchV1().CronJobs("").List(ctx, o)
	}}
	kPV = Kind{gvk("", "v1", "PersistentVolume"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().PersistentVolumes().List(ctx, o)
	}}
	kPVC = Kind{gvk("", "v1", "PersistentVolumeClaim"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.CoreV1().PersistentVolumeClaims("").List(ctx, o)
	}}
	kStorageClass = Kind{gvk("storage.k8s.io", "v1", "StorageClass"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().StorageClasses().List(ctx, o)
	}}
	kCSINode = Kind{gvk("storage.k8s.io", "v1", "CSINode"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSINodes().List(ctx, o)
	}}
	kCSIDriver = Kind{gvk("storage.k8s.io", "v1", "CSIDriver"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSIDrivers().List(ctx, o)
	}}
	kCSIStorageCapacity = Kind{gvk("storage.k8s.io", "v1", "CSIStorageCapacity"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().CSIStorageCapacities("").List(ctx, o)
	}}
	kVolumeAttachment = Kind{gvk("storage.k8s.io", "v1", "VolumeAttachment"), false, func(c kubernetes.Interface, ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return c.StorageV1().VolumeAttachments().List(ctx, o)
	}}
)

// GVK returns the kind's group, version and kind.
func (k Kind) GVK() schema.GroupVersionKind { return k.gvk }

// Scoped reports whether Options.Namespace limits the kind: workloads,
// whose pods would be pending.
func (k Kind) Scoped() bool { return k.scoped }

// ForCommand returns the kinds the schedkit command reads. Every command admits pending
// pods (LimitRanges, ResourceQuotas, PriorityClasses, namespaces) and
// expands workloads into the pods their controllers would create;
// scheduling decisions also read PodDisruptionBudgets (preemption,
// drain), Services (SelectorSpread) and the storage objects (the volume
// plugins). describe makes no decision.
func ForCommand(command string) []Kind {
	base := []Kind{kNode, kPod, kNamespace, kPriorityClass, kLimitRange, kResourceQuota,
		kReplicationController, kReplicaSet, kDeployment, kStatefulSet, kDaemonSet, kControllerRevision, kJob, kCronJob}
	if command == "describe" {
		return base
	}
	return append(base, kPDB, kService, kPV, kPVC, kStorageClass, kCSINode, kCSIDriver, kCSIStorageCapacity, kVolumeAttachment)
}

// Options configure Write.
type Options struct {
	// Kinds are the kinds listed, in this order; nil is ForCommand("explain").
	Kinds []Kind
	// Namespace, when set, keeps only its pending pods and workloads;
	// the other kinds, and the pods bound to nodes, are listed in every
	// namespace, as the scheduler sees them.
	Namespace string
	// PageSize is the limit of each list call; zero is 500.
	PageSize int64
}

// Write lists each kind with paginated list calls (limit and continue,
// so that no single call returns a 100,000-pod list) and writes the
// objects to w as one v1 List (JSON), one item at a time, each with its
// apiVersion and kind. It only lists: it never changes the cluster.
func Write(ctx context.Context, client kubernetes.Interface, w io.Writer, o Options) error {
	if o.Kinds == nil {
		o.Kinds = ForCommand("explain")
	}
	if o.PageSize == 0 {
		o.PageSize = 500
	}
	r := reader{client: client, pageSize: o.PageSize, namespace: o.Namespace}
	return r.writeList(ctx, w, o.Kinds)
}

type reader struct {
	client    kubernetes.Interface
	pageSize  int64
	namespace string
}

func (r reader) writeList(ctx context.Context, w io.Writer, kinds []Kind) error {
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
func (r reader) keep(k Kind, obj runtime.Object) bool {
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

// writeItem encodes obj with its apiVersion and kind (typed list items
// carry neither).
func writeItem(w io.Writer, first bool, obj runtime.Object, gvk schema.GroupVersionKind) error {
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if !first {
		if _, err := io.WriteString(w, ",\n"); err != nil {
			return err
		}
	}
	_, err = w.Write(b)
	return err
}
