package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// eventKind is what happened to a pod, as the runner replays it.
type eventKind int

const (
	evBind      eventKind = iota // a Reserve (the cycle record) or a binding (the watch)
	evNominate                   // status.nominatedNodeName set
	evDelete                     // deletion started (a preemption victim)
	evUnreserve                  // a Reserve undone: the pod left the scheduler's cache
	evGone                       // the object removed: the pod leaves every cache
)

// podEvent is one step of upstream's history.
type podEvent struct {
	kind eventKind
	key  string // namespace/name
	node string
	pod  *v1.Pod
	// at is when the runner saw it, or when the scheduler's cycle ran.
	at time.Time
	// victims are the pods (namespace/name) a nomination's preemption
	// deleted (see timeline).
	victims []string
}

// recorder watches pods from before the first object is applied and
// keeps upstream's bindings, nominations and deletions in the order the
// API server stored them. It also stands in for the kubelet on what
// scheduling needs: a pod whose deletion started on a node is removed
// (its grace period over at once), so that a preemptor's victims go.
type recorder struct {
	cs kubernetes.Interface

	mu      sync.Mutex
	events  []podEvent
	last    map[string]*v1.Pod
	gone    map[string]*v1.Pod
	changed time.Time
}

func startRecorder(ctx context.Context, cs kubernetes.Interface, wg *sync.WaitGroup) (*recorder, error) {
	r := &recorder{cs: cs, last: map[string]*v1.Pod{}, gone: map[string]*v1.Pod{}, changed: time.Now()}
	// An informer, not a bare watch: the API server closes a watch whose
	// reader falls behind, and the informer lists and watches again.
	inf := cache.NewSharedIndexInformer(cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "pods", "", fields.Everything()),
		&v1.Pod{}, 0, cache.Indexers{})
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { r.observe(ctx, nil, obj.(*v1.Pod)) },
		UpdateFunc: func(old, obj any) { r.observe(ctx, old.(*v1.Pod), obj.(*v1.Pod)) },
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if p, ok := obj.(*v1.Pod); ok {
				r.deletedPod(p)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		inf.RunWithContext(ctx)
	}()
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		return nil, fmt.Errorf("the pod informer did not sync")
	}
	return r, nil
}

// scheduled reports whether the scheduler bound p: the binding sets
// PodScheduled; a pod created with spec.nodeName has no such condition.
func scheduled(p *v1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionTrue {
			return true
		}
	}
	return false
}

func (r *recorder) observe(ctx context.Context, old, p *v1.Pod) {
	key := p.Namespace + "/" + p.Name
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	r.changed = now
	r.last[key] = p
	if p.Spec.NodeName != "" && (old == nil && scheduled(p) || old != nil && old.Spec.NodeName == "") {
		r.events = append(r.events, podEvent{kind: evBind, key: key, node: p.Spec.NodeName, pod: p, at: now})
	}
	if n := p.Status.NominatedNodeName; n != "" && (old == nil || old.Status.NominatedNodeName != n) {
		r.events = append(r.events, podEvent{kind: evNominate, key: key, node: n, pod: p, at: now})
	}
	if p.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil) {
		r.events = append(r.events, podEvent{kind: evDelete, key: key, node: p.Spec.NodeName, pod: p, at: now})
		if p.Spec.NodeName != "" {
			// The kubelet's part: the containers are gone.
			zero := int64(0)
			go r.cs.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}) //nolint:errcheck
		}
	}
}

func (r *recorder) deletedPod(p *v1.Pod) {
	key := p.Namespace + "/" + p.Name
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changed = time.Now()
	if old := r.last[key]; old != nil && old.DeletionTimestamp == nil {
		r.events = append(r.events, podEvent{kind: evDelete, key: key, node: p.Spec.NodeName, pod: p, at: r.changed})
	}
	r.events = append(r.events, podEvent{kind: evGone, key: key, node: p.Spec.NodeName, pod: p, at: r.changed})
	delete(r.last, key)
	r.gone[key] = p
}

// deleted returns the pods deleted so far, as last seen.
func (r *recorder) deleted() map[string]*v1.Pod {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]*v1.Pod, len(r.gone))
	for k, p := range r.gone {
		out[k] = p
	}
	return out
}

// snapshot returns the events so far and the pods as last seen.
func (r *recorder) snapshot() ([]podEvent, map[string]*v1.Pod, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	pods := make(map[string]*v1.Pod, len(r.last))
	for k, p := range r.last {
		pods[k] = p
	}
	return append([]podEvent(nil), r.events...), pods, r.changed
}

// provisioner stands in for an external (CSI) provisioner: a claim the
// scheduler selected a node for (volume.kubernetes.io/selected-node)
// gets a PersistentVolume of its class, pre-bound to it, which the
// persistentvolume binder then binds. Without it the scheduler's
// VolumeBinding PreBind waits ten minutes for a provisioner that never
// comes, and the pod is never bound.
func provisioner(ctx context.Context, cs kubernetes.Interface, wg *sync.WaitGroup) error {
	inf := cache.NewSharedIndexInformer(cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "persistentvolumeclaims", "", fields.Everything()),
		&v1.PersistentVolumeClaim{}, 0, cache.Indexers{})
	var mu sync.Mutex
	done := map[string]bool{}
	provision := func(obj any) {
		c, ok := obj.(*v1.PersistentVolumeClaim)
		if !ok || c.Spec.VolumeName != "" {
			return
		}
		node := c.Annotations["volume.kubernetes.io/selected-node"]
		if node == "" {
			return
		}
		mu.Lock()
		seen := done[string(c.UID)]
		done[string(c.UID)] = true
		mu.Unlock()
		if seen {
			return
		}
		if _, err := cs.CoreV1().PersistentVolumes().Create(ctx, provisioned(c, node), metav1.CreateOptions{}); err != nil && ctx.Err() == nil {
			fmt.Printf("note: provisioning %s/%s: %v\n", c.Namespace, c.Name, err)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    provision,
		UpdateFunc: func(_, obj any) { provision(obj) },
	}); err != nil {
		return err
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		inf.RunWithContext(ctx)
	}()
	return nil
}

// provisioned is the volume a provisioner makes for claim c on node.
func provisioned(c *v1.PersistentVolumeClaim, node string) *v1.PersistentVolume {
	size := c.Spec.Resources.Requests[v1.ResourceStorage]
	if size.IsZero() {
		size = resource.MustParse("1Gi")
	}
	class := ""
	if c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	}
	driver := c.Annotations["volume.kubernetes.io/storage-provisioner"]
	if driver == "" {
		driver = "provisioner.schedkit.invalid"
	}
	modes := c.Spec.AccessModes
	if len(modes) == 0 {
		modes = []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce}
	}
	return &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "pvc-" + string(c.UID),
			Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": driver}},
		Spec: v1.PersistentVolumeSpec{
			Capacity:                      v1.ResourceList{v1.ResourceStorage: size},
			AccessModes:                   modes,
			StorageClassName:              class,
			PersistentVolumeReclaimPolicy: v1.PersistentVolumeReclaimDelete,
			VolumeMode:                    c.Spec.VolumeMode,
			ClaimRef: &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: c.Namespace, Name: c.Name, UID: c.UID},
			PersistentVolumeSource: v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: string(c.UID)}},
		},
	}
}
