package workload

import (
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// ClaimRelease is what the resourceclaim controller does to one stored
// claim whose consumers or owner are done (ReleaseClaims).
type ClaimRelease struct {
	// Claim is the claim as stored.
	Claim *api.ResourceClaim
	// Updated is the claim after the controller's updates; nil when the
	// claim is deleted.
	Updated *api.ResourceClaim
	// Unreserved are the names of the pods removed from the claim's
	// status.reservedFor, in its order.
	Unreserved []string
	// Deallocated reports that the claim's allocation was cleared (its
	// devices are free).
	Deallocated bool
	// Deleted reports that the claim is gone: it was generated for a pod
	// (a controller reference to a Pod) that is done or replaced, or it
	// was being deleted and only the controller's finalizer kept it.
	Deleted bool
}

// IsPodDone is the resourceclaim controller's test of a pod that will not
// run any more: in phase Succeeded or Failed, or being deleted before it
// was scheduled.
func IsPodDone(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed ||
		p.DeletionTimestamp != nil && p.Spec.NodeName == ""
}

// ReleaseClaims is the resourceclaim controller's syncClaim of v1.37.2
// (pkg/controller/resourceclaim) over the stored claims, once the pods
// are known, as it runs when it starts on a cluster: it returns the
// claims it changes, in the order given.
//
// A status.reservedFor entry for a pod is removed when the pod of that
// name in the claim's namespace has another UID (it was replaced) or is
// done (IsPodDone); entries for other consumers stay. Upstream also
// removes the entry of a pod the API server does not have; here a pod
// missing from the pods is taken as not read (the input may hold part of
// a cluster), and its entry stays. When that leaves no consumer and the claim has
// the controller's finalizer (resource.kubernetes.io/delete-protection),
// the allocation is cleared, freeing the devices, and the finalizer
// removed; status.devices goes with the allocation, as the devices it
// describes are no longer allocated. A claim that is not reserved and
// whose controller reference names a pod that is done or replaced is
// deleted, as the controller deletes unused generated claims (the
// template claims it makes and the scheduler's extended resource
// claims); one whose owner pod is missing stays, as the controller leaves
// it to the garbage collector and the pod is taken as not read. A claim
// being deleted that loses its last finalizer is gone.
func ReleaseClaims(claims []*api.ResourceClaim, pods []*api.Pod) []ClaimRelease {
	if len(claims) == 0 {
		return nil
	}
	byName := make(map[[2]string]*api.Pod, len(pods))
	for _, p := range pods {
		byName[[2]string{nsOf(p.Namespace), p.Name}] = p
	}
	var out []ClaimRelease
	for _, c := range claims {
		if r, changed := releaseClaim(c, byName); changed {
			out = append(out, r)
		}
	}
	return out
}

func releaseClaim(c *api.ResourceClaim, pods map[[2]string]*api.Pod) (ClaimRelease, bool) {
	ns := nsOf(c.Namespace)
	r := ClaimRelease{Claim: c}
	var remaining []api.ResourceClaimConsumerReference
	for _, ref := range c.Status.ReservedFor {
		if ref.APIGroup == "" && ref.Resource == "pods" {
			p := pods[[2]string{ns, ref.Name}]
			if p != nil && (p.UID != ref.UID || IsPodDone(p)) {
				r.Unreserved = append(r.Unreserved, ref.Name)
				continue
			}
		}
		remaining = append(remaining, ref)
	}
	cur := c
	fin := slices.Index(c.Finalizers, api.ResourceClaimFinalizer)
	switch {
	case len(r.Unreserved) > 0:
		cp := *c
		cp.Status.ReservedFor = remaining
		if len(remaining) == 0 && fin >= 0 {
			cp.Status.Allocation, cp.Status.Devices = nil, nil
			cp.Finalizers = slices.Delete(slices.Clone(c.Finalizers), fin, fin+1)
			r.Deallocated = c.Status.Allocation != nil
		}
		cur = &cp
	case fin >= 0 && c.DeletionTimestamp != nil && len(remaining) == 0:
		cp := *c
		cp.Status.Allocation, cp.Status.Devices = nil, nil
		cp.Finalizers = slices.Delete(slices.Clone(c.Finalizers), fin, fin+1)
		r.Deallocated = c.Status.Allocation != nil
		cur = &cp
	}
	if cur.DeletionTimestamp != nil && len(cur.Finalizers) == 0 {
		r.Deleted = true
	}
	if !r.Deleted && len(remaining) == 0 {
		if ref := controllerOf(&c.ObjectMeta); ref != nil && ref.APIVersion == "v1" && ref.Kind == "Pod" {
			if p := pods[[2]string{ns, ref.Name}]; p != nil && (p.UID != ref.UID || IsPodDone(p)) {
				r.Deleted = true
				r.Deallocated = r.Deallocated || cur.Status.Allocation != nil
			}
		}
	}
	if r.Deleted {
		return r, true
	}
	if cur == c {
		return r, false
	}
	r.Updated = cur
	return r, true
}

// String says what the controller did, as "ResourceClaim ns/name:
// reservation of pod(s) a, b dropped (done or replaced); deallocated;
// deleted".
func (r ClaimRelease) String() string {
	var parts []string
	if len(r.Unreserved) > 0 {
		parts = append(parts, "reservation of pod(s) "+strings.Join(r.Unreserved, ", ")+" dropped (done or replaced)")
	}
	if r.Deallocated {
		parts = append(parts, "deallocated")
	}
	switch {
	case r.Deleted && r.Claim.DeletionTimestamp != nil:
		parts = append(parts, "deleted (it was being deleted)")
	case r.Deleted:
		parts = append(parts, "deleted (its pod is done or replaced)")
	}
	return "ResourceClaim " + nsOf(r.Claim.Namespace) + "/" + r.Claim.Name + ": " + strings.Join(parts, "; ")
}
