package noderesources

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

type fitDRAHandle struct{ s *cluster.Snapshot }

func (h fitDRAHandle) Snapshot() *cluster.Snapshot { return h.s }

// extendedResourceDRA is the resource upstream's test DeviceClass maps.
const extendedResourceDRA = api.ResourceName("extended.resource.dra.io/something")

// Pins the DRAExtendedResource rows of upstream noderesources/fit_test.go
// TestEnoughRequests (a DRA manager whose only DeviceClass maps
// extended.resource.dra.io/something): a resource a class backs and the
// node does not have allocatable is left to DynamicResources.
func TestEnoughRequestsDRA(t *testing.T) {
	class := &api.DeviceClass{}
	class.Name = "device-class-name"
	class.Spec.ExtendedResourceName = fitPtr(string(extendedResourceDRA))
	tests := []struct {
		name     string
		pod      *api.Pod
		existing *api.Pod
		// nodeExtra is added to the node's allocatable.
		nodeExtra api.ResourceList
		status    *framework.Status
	}{
		{name: "extended resource backed by device plugin",
			pod: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 1}}), existing: newResourcePod(usage{})},
		{name: "extended resource backed by DRA",
			pod: newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceDRA: 1}}), existing: newResourcePod(usage{})},
		{name: "extended resource NOT backed by DRA",
			pod: newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceB: 1}}), existing: newResourcePod(usage{}),
			status: framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceB))},
		{name: "extended resource was backed by Device Plugin (Allocatable: 0)",
			pod:       newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceDRA: 1}}),
			existing:  newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceDRA: 0}}),
			nodeExtra: api.ResourceList{extendedResourceDRA: resource.MustParse("0")}},
		// shouldDelegateResourceToDRA: a node whose device plugin
		// advertises the resource keeps it, and NodeResourcesFit checks it.
		{name: "DRA-backed resource a device plugin advertises is checked",
			pod: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceDRA: 2}}), existing: newResourcePod(usage{}),
			nodeExtra: api.ResourceList{extendedResourceDRA: resource.MustParse("1")},
			status:    framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceDRA))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}}
			node.Status.Allocatable = makeAllocatableResources(10, 20, 32, 5, 20, 5)
			for k, v := range tc.nodeExtra {
				node.Status.Allocatable[k] = v
			}
			node.Status.Capacity = node.Status.Allocatable
			tc.existing.Spec.NodeName = "n"
			snap := snapshot(t, []*api.Node{node}, []*api.Pod{tc.existing})
			if err := snap.AddObjects(class); err != nil {
				t.Fatal(err)
			}
			p, err := NewFit(&config.NodeResourcesFitArgs{}, fitDRAHandle{snap})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			state := framework.NewCycleState()
			if _, st := p.(framework.PreFilterPlugin).PreFilter(ctx, state, tc.pod, nil); !st.IsSuccess() {
				t.Fatal(st)
			}
			ni := snap.View().Nodes()[0]
			checkStatus(t, "Filter", p.(framework.FilterPlugin).Filter(ctx, state, tc.pod, ni), tc.status)
			statuses := make([]*framework.Status, 1)
			p.(*Fit).FilterNodes(ctx, state, tc.pod, []*cluster.NodeInfo{ni}, statuses)
			checkStatus(t, "FilterNodes", statuses[0], tc.status)
		})
	}
}

func fitPtr[T any](v T) *T { return &v }
