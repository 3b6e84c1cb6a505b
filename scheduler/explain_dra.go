package scheduler

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
)

// NodeDevices is DynamicResources' part of a node's explanation, for a
// pod with ResourceClaims: its verdict on the node and the devices each
// claim has there.
type NodeDevices struct {
	// Status is DynamicResources' Filter verdict on the node, whatever
	// the other plugins say: nil when it found devices for every claim,
	// else its status (kube-scheduler's reasons). A node another plugin
	// rejected is filtered by DynamicResources alone for this report.
	Status *framework.Status
	// Claims are the pod's claims in spec order, each with its devices
	// on the node; empty when Status is not nil.
	Claims []ClaimDevices
}

// ClaimDevices is one of a pod's ResourceClaims on a node.
type ClaimDevices struct {
	// PodClaim is the pod's spec.resourceClaims entry the claim is for;
	// Claim the claim's name, in the pod's namespace.
	PodClaim, Claim string
	// Allocated is set for a claim allocated before the cycle: its
	// devices are fixed. Otherwise Devices are those the allocator
	// found on the node, the allocation Reserve would write.
	Allocated bool
	// Devices are the allocation's results, one per device, naming the
	// request ("request" or "request/subrequest"), driver, pool and
	// device as upstream's allocation result does.
	Devices []api.DeviceRequestAllocationResult
}

// explainDevices fills in Nodes[i].Devices for a pod with claims, when
// the profile runs DynamicResources and its PreFilter did not skip it.
func explainDevices(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, ex *Explanation, nodeInfo func(string) (*cluster.NodeInfo, bool)) {
	if len(pod.Spec.ResourceClaims) == 0 || inSkipped(ex.SkippedFilters, dynamicresources.Name) {
		return
	}
	p, ok := prof.Plugin(dynamicresources.Name)
	if !ok {
		return
	}
	fp, ok := p.(framework.FilterPlugin)
	if !ok {
		return
	}
	if st := ex.PreFilter; st != nil {
		if st.Plugin() != dynamicresources.Name {
			return
		}
		for i := range ex.Nodes {
			ex.Nodes[i].Devices = &NodeDevices{Status: st}
		}
		return
	}
	for i := range ex.Nodes {
		ne := &ex.Nodes[i]
		st := ne.Status
		switch {
		case st.IsSuccess():
		case st.Plugin() == dynamicresources.Name:
		default:
			ni, ok := nodeInfo(ne.Name)
			if !ok {
				continue
			}
			st = fp.Filter(ctx, state, pod, ni)
			if st != nil {
				st = st.WithPlugin(dynamicresources.Name)
			}
		}
		nd := &NodeDevices{Status: st}
		if st.IsSuccess() {
			ni, ok := nodeInfo(ne.Name)
			if !ok {
				continue
			}
			claims, allocs, ok := dynamicresources.NodeDevices(ctx, state, ni)
			if !ok {
				continue
			}
			for j, c := range claims {
				cd := ClaimDevices{PodClaim: podClaimEntry(pod, c.Name), Claim: c.Name, Allocated: c.Status.Allocation != nil}
				if a := allocs[j]; a != nil {
					cd.Devices = a.Devices.Results
				}
				nd.Claims = append(nd.Claims, cd)
			}
		}
		ne.Devices = nd
	}
}

func inSkipped(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// podClaimEntry is the name of pod's spec.resourceClaims entry that
// resolves to the claim named claim: by resourceClaimName, or by the
// generated name in status.resourceClaimStatuses.
func podClaimEntry(pod *api.Pod, claim string) string {
	for _, pc := range pod.Spec.ResourceClaims {
		if pc.ResourceClaimName != nil {
			if *pc.ResourceClaimName == claim {
				return pc.Name
			}
			continue
		}
		for _, st := range pod.Status.ResourceClaimStatuses {
			if st.Name == pc.Name && st.ResourceClaimName != nil && *st.ResourceClaimName == claim {
				return pc.Name
			}
		}
	}
	return ""
}
