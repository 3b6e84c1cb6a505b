package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// eventKind is what happened to a pod, as the runner replays it.
type eventKind int

const (
	evBind     eventKind = iota // spec.nodeName set by the scheduler
	evNominate                  // status.nominatedNodeName set
	evDelete                    // deletion started (a preemption victim)
)

// podEvent is one step of upstream's history.
type podEvent struct {
	kind eventKind
	key  string // namespace/name
	node string
	pod  *v1.Pod
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
	list, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	r := &recorder{cs: cs, last: map[string]*v1.Pod{}, gone: map[string]*v1.Pod{}, changed: time.Now()}
	w, err := cs.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		return nil, err
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				r.observe(ctx, ev)
			}
		}
	}()
	return r, nil
}

func (r *recorder) observe(ctx context.Context, ev watch.Event) {
	p, ok := ev.Object.(*v1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changed = time.Now()
	old := r.last[key]
	switch ev.Type {
	case watch.Added, watch.Modified:
		r.last[key] = p
		if p.Spec.NodeName != "" && (old == nil || old.Spec.NodeName == "") && ev.Type == watch.Modified {
			r.events = append(r.events, podEvent{kind: evBind, key: key, node: p.Spec.NodeName, pod: p})
		}
		if n := p.Status.NominatedNodeName; n != "" && (old == nil || old.Status.NominatedNodeName != n) {
			r.events = append(r.events, podEvent{kind: evNominate, key: key, node: n, pod: p})
		}
		if p.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil) {
			r.events = append(r.events, podEvent{kind: evDelete, key: key, node: p.Spec.NodeName, pod: p})
			if p.Spec.NodeName != "" {
				// The kubelet's part: the containers are gone.
				zero := int64(0)
				go r.cs.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}) //nolint:errcheck
			}
		}
	case watch.Deleted:
		if old != nil && old.DeletionTimestamp == nil {
			r.events = append(r.events, podEvent{kind: evDelete, key: key, node: p.Spec.NodeName, pod: p})
		}
		delete(r.last, key)
		r.gone[key] = p
	}
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
	w, err := cs.CoreV1().PersistentVolumeClaims("").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer w.Stop()
		done := map[string]bool{}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				c, ok := ev.Object.(*v1.PersistentVolumeClaim)
				if !ok || ev.Type == watch.Deleted || c.Spec.VolumeName != "" || done[string(c.UID)] {
					continue
				}
				node := c.Annotations["volume.kubernetes.io/selected-node"]
				if node == "" {
					continue
				}
				done[string(c.UID)] = true
				pv := provisioned(c, node)
				if _, err := cs.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil && ctx.Err() == nil {
					fmt.Printf("note: provisioning %s/%s: %v\n", c.Namespace, c.Name, err)
				}
			}
		}
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
