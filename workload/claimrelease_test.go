package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// TestReleaseClaims ports the syncClaim rows of upstream's
// pkg/controller/resourceclaim TestSyncHandler (v1.37.2), with their
// fixtures: test-pod (uid uidpod1) owning test-pod-acme-resource, and
// test-pod-II. Where upstream's fake client keeps a deleted claim
// without finalizers, which the API server removes, the row expects it
// deleted. Upstream's rows without pods stand for pods the API server
// does not have; ReleaseClaims takes a missing pod as not read, so those
// rows give the pod another UID (replaced), which upstream's syncClaim
// treats alike, and a missing pod's row pins that nothing changes.
func TestReleaseClaims(t *testing.T) {
	const ns = "my-namespace"
	mkPod := func(name, uid string, f ...func(*api.Pod)) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: uid}}
		for _, fn := range f {
			fn(p)
		}
		return p
	}
	testPod := mkPod("test-pod", "uidpod1")
	otherPod := mkPod("test-pod-II", "uidpod1-II")
	replaced := mkPod("test-pod", "uidpod2")
	otherReplaced := mkPod("test-pod-II", "uidpod2-II")
	done := func(p *api.Pod) { p.Status.Phase = api.PodSucceeded }
	yes := true
	claim := func(f ...func(*api.ResourceClaim)) *api.ResourceClaim {
		c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "test-pod-acme-resource", Namespace: ns,
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "test-pod", UID: "uidpod1", Controller: &yes}}}}
		for _, fn := range f {
			fn(c)
		}
		return c
	}
	allocated := func(c *api.ResourceClaim) { c.Status.Allocation = &api.AllocationResult{} }
	reserve := func(p *api.Pod) func(*api.ResourceClaim) {
		return func(c *api.ResourceClaim) {
			c.Status.ReservedFor = append(c.Status.ReservedFor, api.ResourceClaimConsumerReference{Resource: "pods", Name: p.Name, UID: p.UID})
		}
	}
	structured := func(c *api.ResourceClaim) { c.Finalizers = append(c.Finalizers, api.ResourceClaimFinalizer) }
	noOwner := func(c *api.ResourceClaim) { c.OwnerReferences = nil }
	deleting := func(c *api.ResourceClaim) { c.DeletionTimestamp = &api.Time{} }
	nonPod := api.ResourceClaimConsumerReference{APIGroup: "foo.com", Resource: "foo", Name: "foo", UID: "123"}
	withNonPod := func(c *api.ResourceClaim) { c.Status.ReservedFor = append(c.Status.ReservedFor, nonPod) }
	for _, row := range []struct {
		name       string
		pods       []*api.Pod
		claim      *api.ResourceClaim
		want       *api.ResourceClaim // nil: deleted, unless same
		same       bool
		unreserved []string
		dealloc    bool
	}{
		{name: "stay-reserved-seen", pods: []*api.Pod{testPod}, claim: claim(allocated, reserve(testPod)), same: true},
		// The owner replaced too: the generated claim is deleted.
		{name: "clear-reserved-structured", pods: []*api.Pod{replaced}, claim: claim(allocated, reserve(testPod), structured),
			unreserved: []string{"test-pod"}, dealloc: true},
		{name: "clear-reserved-structured-no-owner", pods: []*api.Pod{replaced}, claim: claim(allocated, reserve(testPod), structured, noOwner),
			want: claim(noOwner, func(c *api.ResourceClaim) { c.Finalizers = []string{} }), unreserved: []string{"test-pod"}, dealloc: true},
		{name: "dont-clear-reserved-structured", pods: []*api.Pod{testPod, otherReplaced}, claim: claim(allocated, reserve(testPod), structured, reserve(otherPod)),
			want: claim(allocated, reserve(testPod), structured), unreserved: []string{"test-pod-II"}},
		// Without finalizers the API server removes the deleted claim.
		{name: "clear-reserved-structured-deleted", pods: []*api.Pod{replaced}, claim: claim(allocated, reserve(testPod), structured, deleting),
			unreserved: []string{"test-pod"}, dealloc: true},
		{name: "structured-deleted", claim: claim(allocated, structured, deleting), dealloc: true},
		{name: "clear-reserved-when-done", pods: []*api.Pod{mkPod("test-pod", "uidpod1", done)}, claim: claim(allocated, reserve(testPod), noOwner),
			want: claim(allocated, noOwner), unreserved: []string{"test-pod"}},
		{name: "remove-reserved", pods: []*api.Pod{testPod, otherReplaced}, claim: claim(allocated, reserve(testPod), reserve(otherPod)),
			want: claim(allocated, reserve(testPod)), unreserved: []string{"test-pod-II"}},
		{name: "delete-claim-when-done", pods: []*api.Pod{mkPod("test-pod", "uidpod1", done)}, claim: claim(allocated, reserve(testPod)),
			unreserved: []string{"test-pod"}, dealloc: true},
		{name: "remove-pod-reservation-with-non-pod-reservation-present", pods: []*api.Pod{mkPod("test-pod", "uidpod1", done)},
			claim: claim(allocated, reserve(testPod), withNonPod), want: claim(allocated, withNonPod), unreserved: []string{"test-pod"}},
		// Beyond upstream's rows: a missing pod keeps its reservation
		// and its generated claim.
		{name: "missing-pod", claim: claim(allocated, reserve(testPod), structured), same: true},
		{name: "missing-owner-unreserved", claim: claim(allocated, structured), same: true},
		// Deleted before it was scheduled: done.
		{name: "deleted-unscheduled", pods: []*api.Pod{mkPod("test-pod", "uidpod1", func(p *api.Pod) { p.DeletionTimestamp = &api.Time{} })},
			claim: claim(allocated, reserve(testPod), structured), unreserved: []string{"test-pod"}, dealloc: true},
		// Deleted while running: still using the claim.
		{name: "deleted-running", pods: []*api.Pod{mkPod("test-pod", "uidpod1", func(p *api.Pod) { p.DeletionTimestamp = &api.Time{}; p.Spec.NodeName = "n" })},
			claim: claim(allocated, reserve(testPod), structured), same: true},
		// A failed pod's claim shared by name, reserved by another pod
		// that runs, stays allocated.
		{name: "shared-other-running", pods: []*api.Pod{mkPod("test-pod", "uidpod1", func(p *api.Pod) { p.Status.Phase = api.PodFailed }), otherPod},
			claim: claim(allocated, reserve(testPod), reserve(otherPod), structured, noOwner),
			want:  claim(allocated, reserve(otherPod), structured, noOwner), unreserved: []string{"test-pod"}},
		// An unreserved claim whose owner pod is done is deleted.
		{name: "unreserved-owner-done", pods: []*api.Pod{mkPod("test-pod", "uidpod1", done)}, claim: claim(allocated, structured), dealloc: true},
	} {
		t.Run(row.name, func(t *testing.T) {
			before := row.claim.DeepCopy()
			rels := ReleaseClaims([]*api.ResourceClaim{row.claim}, row.pods)
			if diff := cmp.Diff(before, row.claim); diff != "" {
				t.Fatalf("claim changed in place:\n%s", diff)
			}
			if row.same {
				if len(rels) != 0 {
					t.Fatalf("released %+v, want nothing", rels[0])
				}
				return
			}
			if len(rels) != 1 {
				t.Fatalf("%d releases, want 1", len(rels))
			}
			r := rels[0]
			if r.Claim != row.claim {
				t.Error("Claim is not the claim given")
			}
			if diff := cmp.Diff(row.want, r.Updated); diff != "" {
				t.Errorf("updated (-want +got):\n%s", diff)
			}
			if r.Deleted != (row.want == nil) {
				t.Errorf("Deleted = %v", r.Deleted)
			}
			if diff := cmp.Diff(row.unreserved, r.Unreserved); diff != "" {
				t.Errorf("unreserved (-want +got):\n%s", diff)
			}
			if r.Deallocated != row.dealloc {
				t.Errorf("Deallocated = %v, want %v", r.Deallocated, row.dealloc)
			}
		})
	}
}
