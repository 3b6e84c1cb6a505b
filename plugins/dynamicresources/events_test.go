package dynamicresources

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// TestIsSchedulableAfterClaimChange pins upstream's
// TestIsSchedulableAfterClaimChange (dynamicresources_test.go), row by
// row under upstream's names. The store holds the claims as they are
// after the event, as upstream's rows wait for the assume cache. The
// three queue-on-delete-final-state-unknown rows are left out: an
// informer's DeletedFinalStateUnknown has no counterpart in a
// simulation.
func TestIsSchedulableAfterClaimChange(t *testing.T) {
	pending := mkClaim(claimName)
	alloc := allocated(pending, nodeName)
	other := mkClaim("not-my-claim")
	other.OwnerReferences = nil
	otherAlloc := allocated(other, nodeName)
	wrongOwner := func() *api.ResourceClaim {
		c := *alloc
		c.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: podName, UID: podUID + "123", Controller: ptr(true)}}
		return &c
	}()
	unrelated := func() *api.ResourceClaim {
		c := *alloc
		c.Name += "-foo"
		c.UID += "123"
		return &c
	}()
	withFinalizer := func() *api.ResourceClaim {
		c := *pending
		c.Finalizers = append(c.Finalizers, "foo")
		return &c
	}()
	withAllocation := func() *api.ResourceClaim {
		c := *pending
		c.Status.Allocation = &api.AllocationResult{}
		return &c
	}()
	deallocated := func() *api.ResourceClaim {
		c := *otherAlloc
		c.Status.Allocation = nil
		return &c
	}()
	for _, tc := range []struct {
		name     string
		pod      *api.Pod
		claims   []any // the store after the event
		old, new any
		want     framework.QueueingHint
	}{
		{name: "skip-deletes", pod: podWithClaimTemplate(false), old: pending, want: framework.QueueSkip},
		{name: "queue-on-delete-with-allocation", pod: podWithClaimTemplate(false), old: alloc, want: framework.Queue},
		{name: "backoff-wrong-new-object", pod: podWithClaimTemplate(false), new: "not-a-claim", want: framework.Queue},
		{name: "skip-wrong-claim", pod: podWithClaimTemplate(false), claims: []any{wrongOwner}, new: wrongOwner, want: framework.QueueSkip},
		{name: "skip-unrelated-claim", pod: podWithClaimTemplate(false), claims: []any{alloc, unrelated}, new: unrelated, want: framework.QueueSkip},
		{name: "queue-on-add", pod: podWithClaimName(podName, claimName), claims: []any{pending}, new: pending, want: framework.Queue},
		{name: "backoff-wrong-old-object", pod: podWithClaimName(podName, claimName), claims: []any{pending}, old: "not-a-claim", new: pending, want: framework.Queue},
		{name: "skip-adding-finalizer", pod: podWithClaimName(podName, claimName), claims: []any{withFinalizer}, old: pending, new: withFinalizer, want: framework.QueueSkip},
		{name: "queue-on-status-change", pod: podWithClaimName(podName, claimName), claims: []any{withAllocation}, old: pending, new: withAllocation, want: framework.Queue},
		{name: "claim-deallocate", pod: podWithClaimName(podName, claimName), claims: []any{pending, deallocated}, old: otherAlloc, new: deallocated, want: framework.Queue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, _ := setup(t, nil, tc.claims...)
			kind := framework.ResourceClaimUpdate
			switch {
			case tc.old == nil:
				kind = framework.ResourceClaimAdd
			case tc.new == nil:
				kind = framework.ResourceClaimDelete
			}
			if got := pl.QueueingHint(tc.pod, framework.Event{Kind: kind, Old: tc.old, New: tc.new}); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestIsSchedulableAfterTargetPodUpdate pins upstream's
// TestIsSchedulableAfterTargetPodUpdate row by row.
func TestIsSchedulableAfterTargetPodUpdate(t *testing.T) {
	twoTemplates := func() *api.Pod {
		p := podWithClaimTemplate(false)
		p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, api.PodResourceClaim{Name: "my-resource-2", ResourceClaimTemplateName: ptr("my-template")})
		return p
	}
	incomplete := twoTemplates()
	incomplete.Status.ResourceClaimStatuses = []api.PodResourceClaimStatus{{Name: "my-resource", ResourceClaimName: ptr(claimName)}}
	for _, tc := range []struct {
		name string
		objs []any
		pod  *api.Pod
		obj  any
		want framework.QueueingHint
	}{
		{name: "backoff-wrong-new-object", pod: podWithClaimTemplate(false), obj: "not-a-claim", want: framework.Queue},
		{name: "complete", objs: []any{mkClaim(claimName)}, pod: podWithClaimTemplate(false), obj: podWithClaimTemplate(true), want: framework.Queue},
		{name: "missing-claim", pod: podWithClaimTemplate(false), obj: podWithClaimTemplate(true), want: framework.QueueSkip},
		{name: "incomplete", objs: []any{mkClaim(claimName)}, pod: twoTemplates(), obj: incomplete, want: framework.QueueSkip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, _ := setup(t, nil, tc.objs...)
			ev := framework.Event{Kind: framework.PodGeneratedResourceClaim, Old: tc.pod, New: tc.obj}
			if got := pl.QueueingHint(tc.pod, ev); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEventsWithoutHints: the node, class and slice events queue, as
// upstream registers them without hints.
func TestEventsWithoutHints(t *testing.T) {
	pl, _ := setup(t, nil)
	for _, k := range []framework.ClusterEvent{framework.NodeAdd, framework.NodeUpdate, framework.DeviceClassAdd,
		framework.DeviceClassUpdate, framework.ResourceSliceAdd, framework.ResourceSliceUpdate} {
		if pl.EventsToRegister()&k == 0 {
			t.Errorf("%v not registered", k)
		}
		if got := pl.QueueingHint(podWithClaimTemplate(false), framework.Event{Kind: k, New: mkClass()}); got != framework.Queue {
			t.Errorf("%v: %v", k, got)
		}
	}
	if pl.EventsToRegister()&(framework.AssignedPodDelete|framework.NodeDelete) != 0 {
		t.Errorf("registered %v", pl.EventsToRegister())
	}
}
