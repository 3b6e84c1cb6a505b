package live

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestTombstones: a delete whose watch event was missed arrives as a
// DeletedFinalStateUnknown holding the last known state, and removes the
// node, pod or object as a plain delete does. Pods move between pending
// and assigned as they are bound and finish.
func TestTombstones(t *testing.T) {
	c, err := NewFromClient(fake.NewClientset())
	if err != nil {
		t.Fatal(err)
	}
	nodes, pods, objs := c.handlerFor(c.onNode), c.handlerFor(c.onPod), c.handlerFor(c.onObject)
	rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourcePods: resource.MustParse("10")}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: corev1.NodeStatus{Allocatable: rl}}
	pending := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", UID: "u"}}
	bound := pending.DeepCopy()
	bound.Spec.NodeName = "n1"
	done := bound.DeepCopy()
	done.Status.Phase = corev1.PodSucceeded
	pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "b"}}

	nodes.OnAdd(n, true)
	pods.OnAdd(pending, true)
	objs.OnAdd(pdb, true)
	if got := len(c.Pending()); got != 1 || c.Snapshot().NumPods() != 0 {
		t.Fatalf("after adds: %d pending, %d bound", got, c.Snapshot().NumPods())
	}
	pods.OnUpdate(pending, bound)
	if got := len(c.Pending()); got != 0 || c.Snapshot().NumPods() != 1 {
		t.Fatalf("after binding: %d pending, %d bound", got, c.Snapshot().NumPods())
	}
	pods.OnUpdate(bound, done)
	if c.Snapshot().NumPods() != 0 || len(c.Pending()) != 0 {
		t.Fatalf("a finished pod stays: %d bound, %d pending", c.Snapshot().NumPods(), len(c.Pending()))
	}
	pods.OnUpdate(done, bound)
	pods.OnDelete(cache.DeletedFinalStateUnknown{Key: "a/p", Obj: bound})
	nodes.OnDelete(cache.DeletedFinalStateUnknown{Key: "n1", Obj: n})
	objs.OnDelete(cache.DeletedFinalStateUnknown{Key: "a/b", Obj: pdb})
	if c.Snapshot().NumPods() != 0 || c.Snapshot().NumNodes() != 0 {
		t.Errorf("after tombstones: %d nodes, %d pods", c.Snapshot().NumNodes(), c.Snapshot().NumPods())
	}
	if _, ok := cluster.GetObject[api.PodDisruptionBudget](c.View().Objects(), "a", "b"); ok {
		t.Error("the PDB outlived its tombstone")
	}
	if st := c.Stats(); st.Failed != 0 || st.Events != 9 {
		t.Errorf("stats %+v, want 9 events, none failed", st)
	}
}
