package dynamicresources

import (
	"context"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Allocations returns the devices Filter found on node for the pod of
// cs, one result per claim that needed allocation, in the pod's claim
// order (the extended resource claim, with the node's requests, last),
// with the claims they belong to; ok is false when the node was not
// filtered or the pod needs no allocation. explain reads it to show the
// devices per feasible node.
func Allocations(cs *framework.CycleState, node string) (claims []*api.ResourceClaim, results []api.AllocationResult, ok bool) {
	s, err := getState(cs)
	if err != nil || s.empty() || len(s.toAllocate) == 0 || s.nodeInfo == nil {
		return nil, nil, false
	}
	ni, found := s.nodeInfo(node)
	if !found {
		return nil, nil, false
	}
	results, variant, ok := s.nodeResults(context.Background(), ni)
	if !ok {
		return nil, nil, false
	}
	for _, i := range s.toAllocate {
		c := s.claims[i]
		if i >= s.numUser && variant != nil && variant.claim != nil {
			c = variant.claim
		}
		claims = append(claims, c)
	}
	return claims, results, true
}

// Reserve records, in the plugin's assumed state, the node's allocation
// for the pod's unallocated claims and the pod in every claim's
// reservedFor, so that the next PreFilter sees the devices in use.
func (pl *DynamicResources) Reserve(ctx context.Context, cs *framework.CycleState, pod *api.Pod, node string) *framework.Status {
	ni, ok := pl.nodeInfo(node)
	if !ok {
		return framework.AsStatus(fmt.Errorf("node %q not found", node))
	}
	updated, st := pl.reserved(ctx, cs, pod, ni)
	if st != nil {
		return st
	}
	for _, c := range updated {
		pl.setAssumed(claimKey{namespaceOf(c), c.Name}, c)
	}
	return nil
}

// reserved returns the pod's claims as Reserve leaves them on node. The
// extended resource claim gets its generated name, the pod as owner,
// the finalizer and the node's requests; it is left out when DRA
// provides none of the pod's extended resources on node.
func (pl *DynamicResources) reserved(ctx context.Context, cs *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) ([]*api.ResourceClaim, *framework.Status) {
	s, err := getState(cs)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	if s.empty() {
		return nil, nil
	}
	results, variant, ok := s.nodeResults(ctx, ni)
	needUser := false
	for _, i := range s.toAllocate {
		if i < s.numUser {
			needUser = true
		}
	}
	if len(s.toAllocate) > 0 && !ok {
		if !needUser {
			// Only the extended resource claim, and the node's device
			// plugins provide the resources.
			results = nil
		} else {
			return nil, framework.AsStatus(fmt.Errorf("claim allocation not found for node"))
		}
	}
	ref := api.ResourceClaimConsumerReference{Resource: "pods", Name: pod.Name, UID: pod.UID}
	out := make([]*api.ResourceClaim, 0, len(s.claims))
	next := 0
	for i, c := range s.claims {
		isExt := i >= s.numUser
		if c.Status.Allocation == nil {
			if next >= len(results) {
				continue
			}
			a := results[next]
			next++
			if isExt {
				if variant == nil || variant.claim == nil {
					continue
				}
				c = variant.claim
			}
			cp := *c
			cp.Status.Allocation = &a
			if isExt && cp.Name == specialClaimName {
				cp.Name, cp.UID = generatedName(pod)
			}
			if !slices.Contains(cp.Finalizers, api.ResourceClaimFinalizer) {
				cp.Finalizers = append(slices.Clone(cp.Finalizers), api.ResourceClaimFinalizer)
			}
			c = &cp
		}
		if !reservedFor(c, pod) {
			cp := *c
			cp.Status.ReservedFor = append(append([]api.ResourceClaimConsumerReference(nil), c.Status.ReservedFor...), ref)
			c = &cp
		}
		out = append(out, c)
	}
	return out, nil
}

func reservedFor(c *api.ResourceClaim, pod *api.Pod) bool {
	for _, r := range c.Status.ReservedFor {
		if isPodRef(r, pod) {
			return true
		}
	}
	return false
}

// isPodRef reports whether a reservedFor entry names pod. Upstream
// compares uids alone, every pod having one; a new pod read from a
// manifest has none yet, so without a uid the name must match too.
func isPodRef(r api.ResourceClaimConsumerReference, pod *api.Pod) bool {
	return r.UID == pod.UID && (pod.UID != "" || r.Resource == "pods" && r.APIGroup == "" && r.Name == pod.Name)
}

// Unreserve drops what Reserve assumed for the pod's claims, restoring
// the state before it.
func (pl *DynamicResources) Unreserve(_ context.Context, cs *framework.CycleState, pod *api.Pod, _ string) {
	s, err := getState(cs)
	if err != nil || s.empty() {
		return
	}
	keys := make([]claimKey, 0, len(s.claims))
	for i, c := range s.claims {
		name := c.Name
		if i >= s.numUser && name == specialClaimName {
			name, _ = generatedName(pod)
		}
		keys = append(keys, claimKey{namespaceOf(c), name})
	}
	pl.dropAssumed(keys...)
}

// Assumed is what AssumeClaims wrote for a pod.
type Assumed struct {
	// Events are the claim writes as events for the scheduling queue:
	// an add for the claim made for the pod's extended resources, an
	// update for the others.
	Events []framework.Event
	// ExtendedResourceClaimStatus is the pod's
	// status.extendedResourceClaimStatus as upstream's PreBind patches
	// it when it binds the claim for the pod's extended resources: the
	// claim's name and the node's container request mappings. It is nil
	// when the node's device plugins provide them all, or the claim was
	// reserved for the pod already.
	ExtendedResourceClaimStatus *api.PodExtendedResourceClaimStatus
}

// AssumeClaims is the plugin's part of the scheduler's Assume: it runs
// PreFilter and Filter for pod on node and writes the claims as Reserve
// leaves them (allocated, reserved for the pod) into snap, dropping them
// from the assumed state, and returns what it wrote. A pod without
// claims changes nothing; a pod whose claims do not fit the node is an
// error.
func (pl *DynamicResources) AssumeClaims(ctx context.Context, snap *cluster.Snapshot, pod *api.Pod, ni *cluster.NodeInfo) (Assumed, error) {
	var out Assumed
	cs := framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, pod, nil); st != nil {
		if st.IsSkip() {
			return out, nil
		}
		return out, fmt.Errorf("dynamicresources: %s", st.Message())
	}
	if st := pl.Filter(ctx, cs, pod, ni); st != nil {
		return out, fmt.Errorf("dynamicresources: node %s: %s", ni.Node().Name, st.Message())
	}
	updated, st := pl.reserved(ctx, cs, pod, ni)
	if st != nil {
		return out, st.AsError()
	}
	out.ExtendedResourceClaimStatus = extendedStatus(ctx, cs, pod, ni)
	out.Events = make([]framework.Event, 0, len(updated))
	for _, c := range updated {
		old, ok := cluster.GetObject[api.ResourceClaim](snap.Objects(), namespaceOf(c), c.Name)
		if !ok {
			if err := snap.AddObjects(c); err != nil {
				return out, err
			}
			out.Events = append(out.Events, framework.Event{Kind: framework.ResourceClaimAdd, New: c})
			continue
		}
		if err := snap.UpdateObject(c); err != nil {
			return out, err
		}
		out.Events = append(out.Events, framework.Event{Kind: framework.ResourceClaimUpdate, Old: old, New: c})
	}
	keys := make([]claimKey, 0, len(updated))
	for _, c := range updated {
		keys = append(keys, claimKey{namespaceOf(c), c.Name})
	}
	pl.dropAssumed(keys...)
	return out, nil
}

// extendedStatus is the status PreBind's patchPodExtendedResourceClaimStatus
// writes for the cycle of cs on ni: the extended resource claim's name
// (generated for a new one) and the node's request mappings; nil when
// DRA provides none of the pod's extended resources there or the claim
// is already reserved for the pod (PreBind does not bind it again).
func extendedStatus(ctx context.Context, cs *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *api.PodExtendedResourceClaimStatus {
	s, err := getState(cs)
	if err != nil || s.empty() || s.ext == nil {
		return nil
	}
	ext := s.extClaim()
	if reservedFor(ext, pod) {
		return nil
	}
	_, variant, ok := s.nodeResults(ctx, ni)
	if !ok || variant == nil || variant.claim == nil || len(variant.mappings) == 0 {
		return nil
	}
	name := ext.Name
	if name == specialClaimName {
		name, _ = generatedName(pod)
	}
	return &api.PodExtendedResourceClaimStatus{RequestMappings: slices.Clone(variant.mappings), ResourceClaimName: name}
}
