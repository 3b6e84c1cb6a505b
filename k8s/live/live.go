package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/k8s/convert"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Cluster is a cluster.Snapshot kept in sync with a Kubernetes cluster
// through client-go informers: nodes, the pods the scheduler sees as
// assigned, and the objects of cluster.Kinds. Pods not yet assigned are
// kept aside, listed by Pending.
//
// The informers' event handlers are the snapshot's single writer: each
// applies its event holding the Cluster's lock, so events of different
// informers are applied one at a time, in the order they arrive. Readers
// never take that lock: View (and a scheduler built on Snapshot, which
// takes one view per cycle) sees every event applied before the call and
// none after.
type Cluster struct {
	factory informers.SharedInformerFactory
	snap    *cluster.Snapshot
	synced  []cache.InformerSynced

	mu       sync.Mutex          // held by the writer, the event handlers
	assigned map[string]*api.Pod // namespace/name -> the pod in snap
	pending  map[string]*api.Pod // namespace/name -> pods not assigned
	stats    Stats
}

// Stats counts what the event handlers did.
type Stats struct {
	// Events is the number of informer events handled (initial list
	// included).
	Events int64
	// Failed is the number of events that could not be applied: an
	// object that does not convert, or one the snapshot rejects (a pod
	// whose requests overflow a node's sums, a duplicate UID, ...).
	Failed int64
	// LastError is the error of the last failed event.
	LastError error
}

// Option configures New.
type Option func(*options)

type options struct {
	kinds     []cluster.Kind
	kindsSet  bool
	discovery discovery.ServerResourcesInterface
}

// WithKinds limits the objects watched besides nodes and pods to kinds
// (defaultKinds by default), for a caller whose credentials may
// not list the others or whose decisions do not read them.
func WithKinds(kinds ...cluster.Kind) Option {
	return func(o *options) { o.kinds, o.kindsSet = slices.Clone(kinds), true }
}

// WithDiscovery asks d which API versions the server serves: Workloads
// and PodGroups (scheduling.k8s.io/v1beta1, which v1.37.2 serves only
// with GenericWorkload on) are watched by default when it serves them.
// NewFromClient passes its client's discovery.
func WithDiscovery(d discovery.ServerResourcesInterface) Option {
	return func(o *options) { o.discovery = d }
}

// NewFromClient is New with a shared informer factory of client without
// resync, and WithDiscovery of the client.
func NewFromClient(client kubernetes.Interface, opts ...Option) (*Cluster, error) {
	return New(informers.NewSharedInformerFactory(client, 0), append([]Option{WithDiscovery(client.Discovery())}, opts...)...)
}

// New registers event handlers on factory's informers for nodes, pods and
// the object kinds, and returns the Cluster they keep up to date. Call
// Start, then WaitForSync before the first decision.
func New(factory informers.SharedInformerFactory, opts ...Option) (*Cluster, error) {
	o := options{kinds: defaultKinds()}
	for _, opt := range opts {
		opt(&o)
	}
	if !o.kindsSet && o.discovery != nil {
		served, err := servedGangKinds(o.discovery)
		if err != nil {
			return nil, err
		}
		o.kinds = append(o.kinds, served...)
	}
	snap, err := cluster.NewSnapshot(nil, nil)
	if err != nil {
		return nil, err
	}
	c := &Cluster{
		factory:  factory,
		snap:     snap,
		assigned: map[string]*api.Pod{},
		pending:  map[string]*api.Pod{},
	}
	if err := c.register(factory.Core().V1().Nodes().Informer(), c.onNode); err != nil {
		return nil, err
	}
	if err := c.register(factory.Core().V1().Pods().Informer(), c.onPod); err != nil {
		return nil, err
	}
	for _, k := range o.kinds {
		inf, err := informerFor(factory, k)
		if err != nil {
			return nil, err
		}
		if err := c.register(inf, c.onObject); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// defaultKinds are the kinds New watches by default whatever the server
// serves: every kind of cluster.Kinds but Workload and PodGroup, which
// v1.37.2 serves (scheduling.k8s.io/v1beta1) only with GenericWorkload
// on; an informer of a resource the server does not serve would never
// sync. WithDiscovery adds them when they are served.
func defaultKinds() []cluster.Kind {
	return slices.DeleteFunc(cluster.Kinds(), isGangKind)
}

func isGangKind(k cluster.Kind) bool { return k == cluster.KindWorkload || k == cluster.KindPodGroup }

// schedulingV1beta1 is the API version of Workload and PodGroup.
const schedulingV1beta1 = "scheduling.k8s.io/v1beta1"

// servedGangKinds returns Workload and PodGroup for those of them the
// server serves in scheduling.k8s.io/v1beta1; none when it does not
// serve the version.
func servedGangKinds(d discovery.ServerResourcesInterface) ([]cluster.Kind, error) {
	list, err := d.ServerResourcesForGroupVersion(schedulingV1beta1)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("live: discovery of %s: %w", schedulingV1beta1, err)
	}
	var out []cluster.Kind
	for _, r := range list.APIResources {
		switch {
		case strings.Contains(r.Name, "/"):
			// A subresource (podgroups/status).
		case r.Kind == "Workload":
			out = append(out, cluster.KindWorkload)
		case r.Kind == "PodGroup":
			out = append(out, cluster.KindPodGroup)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// informerFor returns the factory's informer of kind k.
func informerFor(f informers.SharedInformerFactory, k cluster.Kind) (cache.SharedIndexInformer, error) {
	switch k {
	case cluster.KindNamespace:
		return f.Core().V1().Namespaces().Informer(), nil
	case cluster.KindService:
		return f.Core().V1().Services().Informer(), nil
	case cluster.KindReplicationController:
		return f.Core().V1().ReplicationControllers().Informer(), nil
	case cluster.KindReplicaSet:
		return f.Apps().V1().ReplicaSets().Informer(), nil
	case cluster.KindStatefulSet:
		return f.Apps().V1().StatefulSets().Informer(), nil
	case cluster.KindDeployment:
		return f.Apps().V1().Deployments().Informer(), nil
	case cluster.KindDaemonSet:
		return f.Apps().V1().DaemonSets().Informer(), nil
	case cluster.KindJob:
		return f.Batch().V1().Jobs().Informer(), nil
	case cluster.KindCronJob:
		return f.Batch().V1().CronJobs().Informer(), nil
	case cluster.KindPodDisruptionBudget:
		return f.Policy().V1().PodDisruptionBudgets().Informer(), nil
	case cluster.KindPersistentVolume:
		return f.Core().V1().PersistentVolumes().Informer(), nil
	case cluster.KindPersistentVolumeClaim:
		return f.Core().V1().PersistentVolumeClaims().Informer(), nil
	case cluster.KindStorageClass:
		return f.Storage().V1().StorageClasses().Informer(), nil
	case cluster.KindCSINode:
		return f.Storage().V1().CSINodes().Informer(), nil
	case cluster.KindCSIDriver:
		return f.Storage().V1().CSIDrivers().Informer(), nil
	case cluster.KindCSIStorageCapacity:
		return f.Storage().V1().CSIStorageCapacities().Informer(), nil
	case cluster.KindVolumeAttachment:
		return f.Storage().V1().VolumeAttachments().Informer(), nil
	case cluster.KindResourceQuota:
		return f.Core().V1().ResourceQuotas().Informer(), nil
	case cluster.KindLimitRange:
		return f.Core().V1().LimitRanges().Informer(), nil
	case cluster.KindPriorityClass:
		return f.Scheduling().V1().PriorityClasses().Informer(), nil
	case cluster.KindDeviceClass:
		return f.Resource().V1().DeviceClasses().Informer(), nil
	case cluster.KindResourceSlice:
		return f.Resource().V1().ResourceSlices().Informer(), nil
	case cluster.KindResourceClaim:
		return f.Resource().V1().ResourceClaims().Informer(), nil
	case cluster.KindResourceClaimTemplate:
		return f.Resource().V1().ResourceClaimTemplates().Informer(), nil
	case cluster.KindDeviceTaintRule:
		return f.Resource().V1().DeviceTaintRules().Informer(), nil
	case cluster.KindWorkload:
		return f.Scheduling().V1beta1().Workloads().Informer(), nil
	case cluster.KindPodGroup:
		return f.Scheduling().V1beta1().PodGroups().Informer(), nil
	}
	return nil, fmt.Errorf("live: no informer for kind %q", k)
}

// event is what a handler applies: the old and new object (old nil for
// an add, new nil for a delete).
type event struct{ old, new any }

func (c *Cluster) register(inf cache.SharedIndexInformer, apply func(event) error) error {
	reg, err := inf.AddEventHandler(c.handlerFor(apply))
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	c.synced = append(c.synced, reg.HasSynced)
	return nil
}

// handlerFor returns the informer handler applying events with apply; a
// delete's tombstone (DeletedFinalStateUnknown: the watch missed the
// delete and a relist found the object gone) is unwrapped to the last
// state the informer knew.
func (c *Cluster) handlerFor(apply func(event) error) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.handle(apply, event{new: obj}) },
		UpdateFunc: func(old, obj any) { c.handle(apply, event{old: old, new: obj}) },
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			c.handle(apply, event{old: obj})
		},
	}
}

// handle applies one event under the writer's lock.
func (c *Cluster) handle(apply func(event) error, e event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Events++
	if err := apply(e); err != nil {
		c.stats.Failed++
		c.stats.LastError = err
	}
}

// Start starts the informers; they stop when ctx is done. Call Shutdown
// after that to wait for their goroutines to exit.
func (c *Cluster) Start(ctx context.Context) { c.factory.Start(ctx.Done()) }

// WaitForSync waits until every informer has listed its objects and the
// handlers have applied them, or ctx is done (an error).
func (c *Cluster) WaitForSync(ctx context.Context) error {
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		return fmt.Errorf("live: informers not synced: %w", context.Cause(ctx))
	}
	return nil
}

// Shutdown waits for the informers' goroutines to exit; the context given
// to Start must be done (or become done) for it to return.
func (c *Cluster) Shutdown() { c.factory.Shutdown() }

// Snapshot returns the snapshot the handlers keep up to date, to read or
// to give to scheduler.New. Do not change it (Assume included): the
// handlers are its only writer. A scheduler takes one View per cycle, so
// each decision sees the cluster as of one moment.
func (c *Cluster) Snapshot() *cluster.Snapshot { return c.snap }

// View returns the snapshot's current view: every event applied before
// the call, immutable.
func (c *Cluster) View() *cluster.View { return c.snap.View() }

// Pending returns the pods that are not assigned and not finished, in
// namespace and name order: the pods a scheduler would queue (their
// schedulerName is not checked). The pods are shared: do not change them.
func (c *Cluster) Pending() []*api.Pod {
	c.mu.Lock()
	out := make([]*api.Pod, 0, len(c.pending))
	for _, p := range c.pending {
		out = append(out, p)
	}
	c.mu.Unlock()
	slices.SortFunc(out, func(a, b *api.Pod) int {
		if x := strings.Compare(a.Namespace, b.Namespace); x != 0 {
			return x
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Stats returns the handlers' counts.
func (c *Cluster) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

func (c *Cluster) onNode(e event) error {
	if e.new == nil {
		n, ok := e.old.(*corev1.Node)
		if !ok {
			return fmt.Errorf("live: node delete of %T", e.old)
		}
		if _, ok := c.snap.Get(n.Name); !ok {
			return nil // never added (it failed to convert or was rejected)
		}
		return c.snap.RemoveNode(n.Name)
	}
	k, ok := e.new.(*corev1.Node)
	if !ok {
		return fmt.Errorf("live: node event of %T", e.new)
	}
	n, err := convert.NodeToAPI(k)
	if err != nil {
		return err
	}
	if _, ok := c.snap.Get(n.Name); ok {
		return c.snap.UpdateNode(n)
	}
	return c.snap.AddNode(n)
}

// Assigned reports whether the scheduler sees pod as assigned: bound to
// a node and not finished. kube-scheduler's cache holds such pods (its
// informer lists pods outside phases Succeeded and Failed); its queue
// holds the others that are not finished and not being deleted.
func Assigned(pod *api.Pod) bool {
	return pod.Spec.NodeName != "" && !finished(pod)
}

func finished(pod *api.Pod) bool {
	return pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed
}

func podKey(namespace, name string) string {
	if namespace == "" {
		namespace = "default"
	}
	return namespace + "/" + name
}

func (c *Cluster) onPod(e event) error {
	if e.new == nil {
		k, ok := e.old.(*corev1.Pod)
		if !ok {
			return fmt.Errorf("live: pod delete of %T", e.old)
		}
		return c.dropPod(podKey(k.Namespace, k.Name))
	}
	k, ok := e.new.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("live: pod event of %T", e.new)
	}
	key := podKey(k.Namespace, k.Name)
	p, err := convert.PodToAPI(k)
	if err != nil {
		_ = c.dropPod(key)
		return err
	}
	switch {
	case Assigned(p):
		delete(c.pending, key)
		if old, ok := c.assigned[key]; ok {
			if err := c.snap.UpdatePod(old, p); err != nil {
				// The update is rejected (an overflow, a duplicate UID):
				// the old pod leaves, as a failed update must not keep
				// counting a state the cluster no longer has.
				_ = c.snap.RemovePod(old)
				delete(c.assigned, key)
				return err
			}
		} else if err := c.snap.AddPod(p); err != nil {
			return err
		}
		c.assigned[key] = p
	case !finished(p) && p.DeletionTimestamp == nil:
		if err := c.dropAssigned(key); err != nil {
			return err
		}
		c.pending[key] = p
	default:
		return c.dropPod(key)
	}
	return nil
}

// dropPod removes the pod of key, assigned or pending.
func (c *Cluster) dropPod(key string) error {
	delete(c.pending, key)
	return c.dropAssigned(key)
}

func (c *Cluster) dropAssigned(key string) error {
	old, ok := c.assigned[key]
	if !ok {
		return nil
	}
	delete(c.assigned, key)
	return c.snap.RemovePod(old)
}

func (c *Cluster) onObject(e event) error {
	if e.new == nil {
		obj, err := convert.ToAPI(e.old)
		if err != nil {
			return err
		}
		if err := c.snap.RemoveObject(obj); err != nil && !errors.Is(err, cluster.ErrNotFound) {
			return err
		}
		return nil
	}
	obj, err := convert.ToAPI(e.new)
	if err != nil {
		if e.old != nil {
			// The object changed into something schedkit cannot hold:
			// the old one goes, rather than stay as if unchanged.
			if old, oerr := convert.ToAPI(e.old); oerr == nil {
				_ = c.snap.RemoveObject(old)
			}
		}
		return err
	}
	err = c.snap.UpdateObject(obj)
	if errors.Is(err, cluster.ErrNotFound) {
		err = c.snap.AddObject(obj)
	}
	return err
}
