package dynamicresources

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/framework"
)

// Upstream's texts for claims that cannot be resolved.
var (
	errClaimNotCreated = errors.New("ResourceClaim not created yet")
	errAPIUnsupported  = errors.New("none of the supported fields are set")
)

// podClaimName returns the name of the claim behind a pod entry, as
// upstream's resourceclaim.Name: nil (and no error) when the template
// entry's status says no claim was needed; mustCheckOwner for a
// generated claim.
func podClaimName(pod *api.Pod, pc *api.PodResourceClaim) (name *string, mustCheckOwner bool, err error) {
	switch {
	case pc.ResourceClaimName != nil:
		return pc.ResourceClaimName, false, nil
	case pc.ResourceClaimTemplateName != nil:
		for _, st := range pod.Status.ResourceClaimStatuses {
			if st.Name == pc.Name {
				return st.ResourceClaimName, true, nil
			}
		}
		return nil, false, fmt.Errorf(`pod "%s/%s": %w`, podNamespace(pod), pod.Name, errClaimNotCreated)
	}
	return nil, false, fmt.Errorf(`pod "%s/%s", spec.resourceClaim %q: %w`, podNamespace(pod), pod.Name, pc.Name, errAPIUnsupported)
}

// isForPod is upstream's resourceclaim.IsForPod without PodGroups.
func isForPod(pod *api.Pod, c *api.ResourceClaim) error {
	if namespaceOf(c) != podNamespace(pod) {
		return fmt.Errorf("ResourceClaim %s/%s is not in the same namespace as Pod %s/%s", c.Namespace, c.Name, podNamespace(pod), pod.Name)
	}
	for _, o := range c.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.UID == pod.UID {
			return nil
		}
	}
	return fmt.Errorf("ResourceClaim %s/%s was not created for Pod %s/%s (Pod is not owner)", c.Namespace, c.Name, podNamespace(pod), pod.Name)
}

// podClaims resolves the pod's claims in spec order, failing as
// upstream's foreachPodResourceClaim does.
func (pl *DynamicResources) podClaims(o *cluster.Objects, pod *api.Pod) ([]*api.ResourceClaim, error) {
	var out []*api.ResourceClaim
	for i := range pod.Spec.ResourceClaims {
		name, check, err := podClaimName(pod, &pod.Spec.ResourceClaims[i])
		if err != nil {
			return nil, err
		}
		if name == nil {
			continue
		}
		c, ok := pl.claim(o, podNamespace(pod), *name)
		if !ok {
			return nil, fmt.Errorf("could not find ResourceClaim %q", podNamespace(pod)+"/"+*name)
		}
		if c.DeletionTimestamp != nil {
			return nil, fmt.Errorf("resourceclaim %q is being deleted", c.Name)
		}
		if check {
			if err := isForPod(pod, c); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// PreEnqueue rejects, UnschedulableAndUnresolvable, a pod one of whose
// claims is missing, not yet generated, being deleted or not the pod's.
func (pl *DynamicResources) PreEnqueue(_ context.Context, pod *api.Pod) *framework.Status {
	if len(pod.Spec.ResourceClaims) == 0 {
		return nil
	}
	if _, err := pl.podClaims(pl.objects(), pod); err != nil {
		return unresolvable(err.Error())
	}
	return nil
}

// PreFilter returns Skip for a pod without claims and without extended
// resources a DeviceClass backs. Otherwise it resolves the claims
// (rejecting as PreEnqueue does), adds the claim for the pod's extended
// resources backed by DRA (the one made in an earlier cycle, or a new
// one without requests), rejects a claim reserved for too many others
// ("resourceclaim in use"), checks the classes of the unallocated user
// claims' requests ("request req: device class c does not exist") and
// builds the allocator over the cluster's classes, slices, taint rules
// and allocated devices.
func (pl *DynamicResources) PreFilter(ctx context.Context, cs *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	o := pl.objects()
	if len(pod.Spec.ResourceClaims) == 0 && (o == nil || o.Len(cluster.KindDeviceClass) == 0) {
		cs.Write(stateKey, pl.none)
		return nil, framework.NewStatus(framework.Skip)
	}
	s := &stateData{nodeAllocations: map[string][]api.AllocationResult{}, nodeInfo: pl.nodeInfo}
	cs.Write(stateKey, s)
	claims, err := pl.podClaims(o, pod)
	if err != nil {
		return nil, unresolvable(err.Error())
	}
	s.numUser = len(claims)
	extClaim, ext := pl.preFilterExtended(o, pod)
	if ext != nil {
		claims = append(claims, extClaim)
		s.ext = ext
		s.nodeExt = map[string]*extVariant{}
	}
	if len(claims) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	s.onNodes = make([]*affinity.NodeSelector, len(claims))
	for i, c := range claims {
		if c.Status.Allocation != nil && len(c.Status.ReservedFor) >= api.ResourceClaimReservedForMaxSize && !reservedFor(c, pod) {
			return nil, unresolvable("resourceclaim in use")
		}
		if c.Status.Allocation != nil {
			if ns := c.Status.Allocation.NodeSelector; ns != nil {
				sel, err := affinity.NewNodeSelector(ns)
				if err != nil {
					return nil, framework.AsStatus(err)
				}
				s.onNodes[i] = sel
			}
			continue
		}
		s.toAllocate = append(s.toAllocate, i)
		for _, r := range c.Spec.Devices.Requests {
			s.prioritized = s.prioritized || len(r.FirstAvailable) > 0
		}
		if i >= s.numUser {
			// The extended resource claim's requests depend on the node.
			continue
		}
		for _, r := range c.Spec.Devices.Requests {
			switch {
			case r.Exactly != nil:
				if st := pl.checkClass(o, r.Exactly.DeviceClassName, r.Name); st != nil {
					return nil, st
				}
			case len(r.FirstAvailable) > 0:
				for _, sub := range r.FirstAvailable {
					if st := pl.checkClass(o, sub.DeviceClassName, strings.Join([]string{r.Name, sub.Name}, "/")); st != nil {
						return nil, st
					}
				}
			default:
				return nil, unresolvable(fmt.Sprintf("resource claim %s/%s, request %s: unknown request type", c.Namespace, c.Name, r.Name))
			}
		}
	}
	s.claims = claims
	if len(s.toAllocate) > 0 {
		in := dra.Input{
			InUse:      pl.inUse(o),
			Compiler:   pl.compiler,
			Features:   pl.features,
			MatchCache: pl.matches,
		}
		for c := range cluster.AllObjects[api.DeviceClass](o) {
			in.Classes = append(in.Classes, c)
		}
		in.Index = pl.sliceIndex(o)
		extToAllocate := false
		for _, i := range s.toAllocate {
			if i >= s.numUser {
				extToAllocate = true
				continue
			}
			in.Claims = append(in.Claims, claims[i])
		}
		if extToAllocate {
			// Filter builds one allocator per set of resources DRA
			// provides on a node.
			s.ext.base = in
			return nil, nil
		}
		a, err := dra.NewAllocator(ctx, in)
		if err != nil {
			return nil, framework.AsStatus(err)
		}
		s.allocator = a
	}
	return nil, nil
}

func (pl *DynamicResources) checkClass(o *cluster.Objects, class, request string) *framework.Status {
	if class == "" {
		return framework.AsStatus(fmt.Errorf("request %s: unsupported request type", request))
	}
	if _, ok := cluster.GetObject[api.DeviceClass](o, "", class); !ok {
		return unresolvable(fmt.Sprintf("request %s: device class %s does not exist", request, class))
	}
	return nil
}

// PreFilterExtensions returns nil, as upstream's: preemption's dry run
// does not see the devices of victims freed.
func (pl *DynamicResources) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks that the node can use the pod's allocated claims and
// that the allocator finds devices for the others on it, keeping them
// for Score and Reserve. Reasons, UnschedulableAndUnresolvable, are
// upstream's: "cannot allocate all claims", the allocator's own node
// error, "resourceclaim not available on the node". A search that
// exceeds the filter timeout is an Error ("node n: timed out trying to
// allocate devices").
func (pl *DynamicResources) Filter(ctx context.Context, cs *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	s, err := getState(cs)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s.empty() {
		return nil
	}
	node := ni.Node()
	allocator, _, done, st := s.allocatorFor(ctx, ni)
	if st != nil {
		return st
	}
	if done {
		return nil
	}
	unavailable := false
	for i, sel := range s.onNodes {
		if sel == nil {
			continue
		}
		if ok, _ := sel.Match(node); !ok {
			unavailable = true
			s.mu.Lock()
			if s.unavailable == nil {
				s.unavailable = map[int]struct{}{}
			}
			s.unavailable[i] = struct{}{}
			s.mu.Unlock()
		}
	}
	if allocator != nil {
		// Fits searches as Allocate does without building the results
		// (Score and Reserve build them for the nodes they need) and
		// bounds the search without a timer.
		ok, err := allocator.Fits(ctx, node, pl.filterTimeout)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return framework.AsStatus(fmt.Errorf("node %s: timed out trying to allocate devices", node.Name))
		case errors.Is(err, dra.ErrFailedAllocationOnNode):
			return unresolvable(err.Error())
		case ctx.Err() != nil:
			return unresolvable(fmt.Sprintf("asked by caller to stop allocating devices: %v", context.Cause(ctx)))
		case err != nil:
			return framework.AsStatus(err)
		}
		if !ok {
			return errCannotAllocate
		}
	}
	if unavailable {
		return errNotAvailable
	}
	return nil
}

// Filter's fixed reasons, shared so that a rejection allocates nothing.
var (
	errCannotAllocate = unresolvable("cannot allocate all claims")
	errNotAvailable   = unresolvable("resourceclaim not available on the node")
)

// allocatorFor returns the allocator for the claims to allocate on ni
// (nil: none) and the extended resource claim's variant there; done
// when the plugin has nothing to check on the node (its extended
// resources are the device plugins'), or the node's rejection.
func (s *stateData) allocatorFor(ctx context.Context, ni *cluster.NodeInfo) (*dra.Allocator, *extVariant, bool, *framework.Status) {
	if s.ext == nil {
		return s.allocator, nil, false, nil
	}
	mask, st := s.filterExtended(ni.Node(), ni)
	if st != nil {
		return nil, nil, false, st
	}
	if mask == 0 && s.numUser == 0 {
		return nil, nil, true, nil
	}
	if s.extClaim().Status.Allocation != nil {
		return s.allocator, nil, false, nil
	}
	v := s.variant(ctx, mask)
	if v.err != nil {
		return nil, nil, false, framework.AsStatus(v.err)
	}
	return v.allocator, v, false, nil
}

// nodeResults returns the allocation of the claims to allocate on ni,
// built once per node, with the extended resource claim's variant; ok
// is false when the node was not feasible or needs no allocation.
func (s *stateData) nodeResults(ctx context.Context, ni *cluster.NodeInfo) ([]api.AllocationResult, *extVariant, bool) {
	name := ni.Node().Name
	s.mu.Lock()
	r, ok := s.nodeAllocations[name]
	v := s.nodeExt[name]
	s.mu.Unlock()
	if ok {
		return r, v, true
	}
	allocator, v, done, st := s.allocatorFor(ctx, ni)
	if st != nil || done || allocator == nil {
		return nil, nil, false
	}
	r, err := allocator.Allocate(ctx, ni.Node())
	if err != nil || r == nil {
		return nil, nil, false
	}
	s.mu.Lock()
	s.nodeAllocations[name] = r
	if v != nil {
		s.nodeExt[name] = v
	}
	s.mu.Unlock()
	return r, v, true
}

// PostFilter runs when no node fits. It frees what may keep the pod
// from fitting, as upstream's: an allocated claim some node could not
// use and that is reserved for nobody or only this pod is deallocated
// (Unschedulable "deallocation of ResourceClaim completed"); otherwise
// an extended resource claim made in an earlier cycle is deleted
// (Unschedulable "deletion of ResourceClaim completed"). The change goes
// into the plugin's assumed state, so the pod's next attempt and other
// pods see it, as they would see the API server's, and is kept as a
// claim event for TakeEvents. Upstream picks one
// of several unavailable claims at random; this picks the first. Else
// it returns Unschedulable.
func (pl *DynamicResources) PostFilter(_ context.Context, cs *framework.CycleState, pod *api.Pod, _ framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	s, err := getState(cs)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	if s.empty() {
		return nil, framework.NewStatus(framework.Unschedulable)
	}
	s.mu.Lock()
	unavailable := slices.Sorted(maps.Keys(s.unavailable))
	s.mu.Unlock()
	ext := s.extClaim()
	staleExt := ext != nil && ext.Name != specialClaimName
	for _, i := range unavailable {
		c := s.claims[i]
		if i >= s.numUser {
			if staleExt {
				break
			}
			continue
		}
		r := c.Status.ReservedFor
		if len(r) == 0 || (len(r) == 1 && isPodRef(r[0], pod)) {
			cp := *c
			cp.Status.ReservedFor, cp.Status.Allocation, cp.Status.Devices = nil, nil, nil
			pl.setAssumed(claimKey{namespaceOf(c), c.Name}, &cp)
			pl.mu.Lock()
			pl.events = append(pl.events, framework.Event{Kind: framework.ResourceClaimUpdate, Old: c, New: &cp})
			pl.mu.Unlock()
			return nil, framework.NewStatus(framework.Unschedulable, "deallocation of ResourceClaim completed")
		}
	}
	if staleExt {
		pl.setAssumed(claimKey{namespaceOf(ext), ext.Name}, nil)
		pl.mu.Lock()
		pl.events = append(pl.events, framework.Event{Kind: framework.ResourceClaimDelete, Old: ext})
		pl.mu.Unlock()
		return nil, framework.NewStatus(framework.Unschedulable, "deletion of ResourceClaim completed")
	}
	return nil, framework.NewStatus(framework.Unschedulable)
}
