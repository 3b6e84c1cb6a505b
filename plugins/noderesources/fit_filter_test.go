package noderesources

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/resource"
)

func runFit(t *testing.T, args *config.NodeResourcesFitArgs, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	t.Helper()
	p, err := NewFit(args, nil)
	if err != nil {
		t.Fatal(err)
	}
	state := framework.NewCycleState()
	if _, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, nil); !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st)
	}
	return p.(framework.FilterPlugin).Filter(context.Background(), state, pod, ni)
}

// Pins upstream noderesources/fit_test.go TestEnoughRequests: every case
// without a DRA manager (the DRA-delegation cases are not modelled),
// pod-level resources enabled (the v1.37 default).
func TestEnoughRequests(t *testing.T) {
	q := resource.MustParse
	tests := []struct {
		pod      *api.Pod
		existing *api.Pod
		name     string
		args     config.NodeResourcesFitArgs
		want     []predicates.InsufficientResource
		status   *framework.Status
	}{
		{
			pod: &api.Pod{}, existing: newResourcePod(usage{cpu: 10, mem: 20}),
			name: "no resources requested always fits",
		},
		{
			pod: newResourcePod(usage{cpu: 1, mem: 1}), existing: newResourcePod(usage{cpu: 10, mem: 20}),
			name:   "too many resources fails",
			status: framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceCPU), insufficient(api.ResourceMemory)),
			want: []predicates.InsufficientResource{
				{ResourceName: api.ResourceCPU, Reason: insufficient(api.ResourceCPU), Requested: 1, Used: 10, Capacity: 10},
				{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 1, Used: 20, Capacity: 20},
			},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 3, mem: 1}),
			existing: newResourcePod(usage{cpu: 8, mem: 19}),
			name:     "too many resources fails due to init container cpu",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceCPU)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceCPU, Reason: insufficient(api.ResourceCPU), Requested: 3, Used: 8, Capacity: 10}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 3, mem: 1}, usage{cpu: 2, mem: 1}),
			existing: newResourcePod(usage{cpu: 8, mem: 19}),
			name:     "too many resources fails due to highest init container cpu",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceCPU)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceCPU, Reason: insufficient(api.ResourceCPU), Requested: 3, Used: 8, Capacity: 10}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 1, mem: 3}),
			existing: newResourcePod(usage{cpu: 9, mem: 19}),
			name:     "too many resources fails due to init container memory",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 3, Used: 19, Capacity: 20}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 1, mem: 3}, usage{cpu: 1, mem: 2}),
			existing: newResourcePod(usage{cpu: 9, mem: 19}),
			name:     "too many resources fails due to highest init container memory",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 3, Used: 19, Capacity: 20}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 1, mem: 1}),
			existing: newResourcePod(usage{cpu: 9, mem: 19}),
			name:     "init container fits because it's the max, not sum, of containers and init containers",
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 1, mem: 1}), usage{cpu: 1, mem: 1}, usage{cpu: 1, mem: 1}),
			existing: newResourcePod(usage{cpu: 9, mem: 19}),
			name:     "multiple init containers fit because it's the max, not sum, of containers and init containers",
		},
		{
			pod: newResourcePod(usage{cpu: 1, mem: 1}), existing: newResourcePod(usage{cpu: 5, mem: 5}),
			name: "both resources fit",
		},
		{
			pod: newResourcePod(usage{cpu: 2, mem: 1}), existing: newResourcePod(usage{cpu: 9, mem: 5}),
			name:   "one resource memory fits",
			status: framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceCPU)),
			want:   []predicates.InsufficientResource{{ResourceName: api.ResourceCPU, Reason: insufficient(api.ResourceCPU), Requested: 2, Used: 9, Capacity: 10}},
		},
		{
			pod: newResourcePod(usage{cpu: 1, mem: 2}), existing: newResourcePod(usage{cpu: 5, mem: 19}),
			name:   "one resource cpu fits",
			status: framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:   []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 2, Used: 19, Capacity: 20}},
		},
		{
			pod: newResourcePod(usage{cpu: 5, mem: 1}), existing: newResourcePod(usage{cpu: 5, mem: 19}),
			name: "equal edge case",
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{cpu: 4, mem: 1}), usage{cpu: 5, mem: 1}),
			existing: newResourcePod(usage{cpu: 5, mem: 19}),
			name:     "equal edge case for init container",
		},
		{
			pod:      newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{}),
			name:     "extended resource fits",
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{}),
			name:     "extended resource fits for init container",
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 10}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 0}}),
			name:     "extended resource capacity enforced",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 10}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 0}}),
			name:     "extended resource capacity enforced for init container",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 5}}),
			name:     "extended resource allocatable enforced",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 1, Used: 5, Capacity: 5}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 5}}),
			name:     "extended resource allocatable enforced for init container",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 1, Used: 5, Capacity: 5}},
		},
		{
			pod: newResourcePod(
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 3}},
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 3}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 2}}),
			name:     "extended resource allocatable enforced for multiple containers",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 6, Used: 2, Capacity: 5, Unresolvable: true}},
		},
		{
			pod: newResourceInitPod(newResourcePod(usage{}),
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 3}},
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 3}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 2}}),
			name:     "extended resource allocatable admits multiple init containers",
		},
		{
			pod: newResourceInitPod(newResourcePod(usage{}),
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 6}},
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 3}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 2}}),
			name:     "extended resource allocatable enforced for multiple init containers",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceA, Reason: insufficient(extendedResourceA), Requested: 6, Used: 2, Capacity: 5, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceB: 1}}),
			existing: newResourcePod(usage{}),
			name:     "extended resource allocatable enforced for unknown resource",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceB)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceB, Reason: insufficient(extendedResourceB), Requested: 1, Used: 0, Capacity: 0, Unresolvable: true}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceB: 1}}),
			existing: newResourcePod(usage{}),
			name:     "extended resource allocatable enforced for unknown resource for init container",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(extendedResourceB)),
			want:     []predicates.InsufficientResource{{ResourceName: extendedResourceB, Reason: insufficient(extendedResourceB), Requested: 1, Used: 0, Capacity: 0, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{kubernetesIOResourceA: 10}}),
			existing: newResourcePod(usage{}),
			name:     "kubernetes.io resource capacity enforced",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(kubernetesIOResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: kubernetesIOResourceA, Reason: insufficient(kubernetesIOResourceA), Requested: 10, Used: 0, Capacity: 0, Unresolvable: true}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{kubernetesIOResourceB: 10}}),
			existing: newResourcePod(usage{}),
			name:     "kubernetes.io resource capacity enforced for init container",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(kubernetesIOResourceB)),
			want:     []predicates.InsufficientResource{{ResourceName: kubernetesIOResourceB, Reason: insufficient(kubernetesIOResourceB), Requested: 10, Used: 0, Capacity: 0, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{hugePageResourceA: 10}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{hugePageResourceA: 0}}),
			name:     "hugepages resource capacity enforced",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(hugePageResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: hugePageResourceA, Reason: insufficient(hugePageResourceA), Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}},
		},
		{
			pod:      newResourceInitPod(newResourcePod(usage{}), usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{hugePageResourceA: 10}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{hugePageResourceA: 0}}),
			name:     "hugepages resource capacity enforced for init container",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(hugePageResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: hugePageResourceA, Reason: insufficient(hugePageResourceA), Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}},
		},
		{
			pod: newResourcePod(
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{hugePageResourceA: 3}},
				usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{hugePageResourceA: 3}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{hugePageResourceA: 2}}),
			name:     "hugepages resource allocatable enforced for multiple containers",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(hugePageResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: hugePageResourceA, Reason: insufficient(hugePageResourceA), Requested: 6, Used: 2, Capacity: 5, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceB: 1}}),
			existing: newResourcePod(usage{}),
			args:     config.NodeResourcesFitArgs{IgnoredResources: []string{"example.com/bbb"}},
			name:     "skip checking ignored extended resource",
		},
		{
			pod: newResourceOverheadPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("13")}),
			existing: newResourcePod(usage{cpu: 5, mem: 5}),
			name:     "resources + pod overhead fits",
		},
		{
			pod: newResourceOverheadPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceList{api.ResourceCPU: q("1m"), api.ResourceMemory: q("15")}),
			existing: newResourcePod(usage{cpu: 5, mem: 5}),
			name:     "requests + overhead does not fit for memory",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 16, Used: 5, Capacity: 20}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceB: 1, kubernetesIOResourceA: 1}}),
			existing: newResourcePod(usage{}),
			args:     config.NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com"}},
			name:     "skip checking ignored extended resource via resource groups",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(kubernetesIOResourceA)),
			want:     []predicates.InsufficientResource{{ResourceName: kubernetesIOResourceA, Reason: insufficient(kubernetesIOResourceA), Requested: 1, Used: 0, Capacity: 0, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{extendedResourceA: 0}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 6}}),
			name:     "skip checking extended resource request with quantity zero via resource groups",
		},
		{
			pod:      newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{cpu: 20, mem: 30, scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			name:     "skip checking resource request with quantity zero",
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("1m"), api.ResourceMemory: q("2")}}),
			existing: newResourcePod(usage{cpu: 5, mem: 5}),
			name:     "both pod-level and container-level resources fit",
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("7m"), api.ResourceMemory: q("2")}}),
			existing: newResourcePod(usage{cpu: 5, mem: 5}),
			name:     "pod-level cpu resource not fit",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceCPU)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceCPU, Reason: insufficient(api.ResourceCPU), Requested: 7, Used: 5, Capacity: 10}},
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("2")}}),
			existing: newResourcePod(usage{cpu: 5, mem: 19}),
			name:     "pod-level memory resource not fit",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 2, Used: 19, Capacity: 20}},
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("2"), hugePageResourceA: resource.NewQuantity(5, resource.BinarySI)}}),
			name: "pod-level hugepages resource fit",
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{hugePageResourceA: 3}}),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("2"), hugePageResourceA: resource.NewQuantity(5, resource.BinarySI)}}),
			name: "both pod-level and container-level hugepages resource fit",
		},
		{
			pod: newPodLevelResourcesPod(newResourcePod(),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("2"), hugePageResourceA: resource.NewQuantity(10, resource.BinarySI)}}),
			name:   "pod-level hugepages resource not fit",
			status: framework.NewStatus(framework.UnschedulableAndUnresolvable, insufficient(hugePageResourceA)),
			want:   []predicates.InsufficientResource{{ResourceName: hugePageResourceA, Reason: insufficient(hugePageResourceA), Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}},
		},
		{
			pod: newResourceInitPod(newPodLevelResourcesPod(newResourcePod(usage{cpu: 1, mem: 1}),
				api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("3m"), api.ResourceMemory: q("2")}}),
				usage{cpu: 1, mem: 1}),
			existing: newResourcePod(usage{cpu: 5, mem: 19}),
			name:     "one pod-level cpu resource fits and all init and non-init containers resources fit",
			status:   framework.NewStatus(framework.Unschedulable, insufficient(api.ResourceMemory)),
			want:     []predicates.InsufficientResource{{ResourceName: api.ResourceMemory, Reason: insufficient(api.ResourceMemory), Requested: 2, Used: 19, Capacity: 20}},
		},
		{
			pod:      newResourcePod(usage{cpu: 1, mem: 1, scalars: map[api.ResourceName]int64{"extended.resource.dra.io/something": 1}}),
			existing: newResourcePod(usage{}),
			name:     "extended resource backed by DRA not enabled",
			status:   framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient extended.resource.dra.io/something"),
			want:     []predicates.InsufficientResource{{ResourceName: "extended.resource.dra.io/something", Reason: "Insufficient extended.resource.dra.io/something", Requested: 1, Unresolvable: true}},
		},
		{
			pod:      newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 1}}),
			existing: newResourcePod(usage{scalars: map[api.ResourceName]int64{extendedResourceA: 0}}),
			name:     "extended resource was backed by Device Plugin (Allocatable: 0), global cache",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Status: api.NodeStatus{
				Capacity: makeAllocatableResources(10, 20, 32, 5, 20, 5), Allocatable: makeAllocatableResources(10, 20, 32, 5, 20, 5)}}
			var ni *cluster.NodeInfo
			if tc.existing != nil {
				ni = cluster.NewNodeInfo(node, tc.existing)
			} else {
				ni = cluster.NewNodeInfo(node)
			}
			checkStatus(t, "Filter", runFit(t, &tc.args, tc.pod, ni), tc.status)
			req := predicates.PodFitRequest(tc.pod)
			got := predicates.FitsRequest(&req, ni, tc.args.IgnoredResources, tc.args.IgnoredResourceGroups)
			want := tc.want
			if want == nil {
				want = []predicates.InsufficientResource{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("insufficient resources (-want,+got):\n%s", diff)
			}
		})
	}
}

// Pins upstream TestPreFilterDisabled: Filter without PreFilter state is
// an Error.
func TestPreFilterDisabled(t *testing.T) {
	p, _ := NewFit(nil, nil)
	st := p.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(&api.Node{}))
	if st.Code() != framework.Error {
		t.Errorf("got %v, want Error", st)
	}
}

// Pins upstream TestNotEnoughRequests.
func TestNotEnoughRequests(t *testing.T) {
	tooMany := framework.NewStatus(framework.Unschedulable, "Too many pods")
	tests := []struct {
		pod, existing *api.Pod
		name          string
	}{
		{&api.Pod{}, newResourcePod(usage{cpu: 10, mem: 20}), "even without specified resources, predicate fails when there's no space for additional pod"},
		{newResourcePod(usage{cpu: 1, mem: 1}), newResourcePod(usage{cpu: 5, mem: 5}), "even if both resources fit, predicate fails when there's no space for additional pod"},
		{newResourcePod(usage{cpu: 5, mem: 1}), newResourcePod(usage{cpu: 5, mem: 19}), "even for equal edge case, predicate fails when there's no space for additional pod"},
		{newResourceInitPod(newResourcePod(usage{cpu: 5, mem: 1}), usage{cpu: 5, mem: 1}), newResourcePod(usage{cpu: 5, mem: 19}),
			"even for equal edge case, predicate fails when there's no space for additional pod due to init container"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{Status: api.NodeStatus{Capacity: api.ResourceList{}, Allocatable: makeAllocatableResources(10, 20, 1, 0, 0, 0)}}
			checkStatus(t, "Filter", runFit(t, nil, tc.pod, cluster.NewNodeInfo(node, tc.existing)), tooMany)
		})
	}
	// Beyond upstream: too many pods and too little cpu report both, in
	// that order, with the code of the unresolvable one.
	node := &api.Node{Status: api.NodeStatus{Allocatable: makeAllocatableResources(10, 20, 1, 0, 0, 0)}}
	got := runFit(t, nil, newResourcePod(usage{cpu: 11, mem: 1}), cluster.NewNodeInfo(node, newResourcePod(usage{cpu: 5})))
	checkStatus(t, "pods+cpu", got, framework.NewStatus(framework.UnschedulableAndUnresolvable, "Too many pods", "Insufficient cpu"))
}

// Pins upstream TestStorageRequests.
func TestStorageRequests(t *testing.T) {
	tests := []struct {
		pod, existing *api.Pod
		name          string
		want          *framework.Status
	}{
		{newResourcePod(usage{cpu: 1, mem: 1}), newResourcePod(usage{cpu: 2, mem: 10}), "empty storage requested, and pod fits", nil},
		{newResourcePod(usage{eph: 25}), newResourcePod(usage{cpu: 2, mem: 2}), "storage ephemeral local storage request exceeds allocatable",
			framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient ephemeral-storage")},
		{newResourceInitPod(newResourcePod(usage{eph: 5})), newResourcePod(usage{cpu: 2, mem: 2, eph: 10}), "ephemeral local storage is sufficient", nil},
		{newResourcePod(usage{eph: 10}), newResourcePod(usage{cpu: 2, mem: 2}), "pod fits", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{Status: api.NodeStatus{Allocatable: makeAllocatableResources(10, 20, 32, 5, 20, 5)}}
			checkStatus(t, "Filter", runFit(t, nil, tc.pod, cluster.NewNodeInfo(node, tc.existing)), tc.want)
		})
	}
}

// Pins upstream TestRestartableInitContainers.
func TestRestartableInitContainers(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	newPod := func(request, sidecar api.ResourceList) *api.Pod {
		p := &api.Pod{Spec: api.PodSpec{
			Containers:     []api.Container{{Name: "regular", Resources: api.ResourceRequirements{Requests: request}}},
			InitContainers: []api.Container{{Name: "restartable-init", RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: sidecar}}},
		}}
		return p
	}
	cpu := func(m int64) api.ResourceList {
		return api.ResourceList{api.ResourceCPU: resource.NewMilliQuantity(m, resource.DecimalSI)}
	}
	tests := []struct {
		name string
		pod  *api.Pod
		want *framework.Status
	}{
		{"allow pod without restartable init containers", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "regular"}}}}, nil},
		{"allow pod with restartable init containers", newPod(nil, nil), nil},
		{"allow pod if the total requested resources do not exceed the node's allocatable resources", newPod(cpu(1), cpu(1)), nil},
		{"not allow pod if the total requested resources do exceed the node's allocatable resources", newPod(cpu(1), cpu(2)),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient cpu")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &api.Node{Status: api.NodeStatus{Allocatable: makeAllocatableResources(2, 0, 1, 0, 0, 0)}}
			checkStatus(t, "Filter", runFit(t, nil, tc.pod, cluster.NewNodeInfo(node)), tc.want)
		})
	}
}

func TestNewNodeResourcesFitArgs(t *testing.T) {
	for _, args := range []any{nil, config.NodeResourcesFitArgs{}, &config.NodeResourcesFitArgs{IgnoredResources: []string{"example.com/x"}}} {
		p, err := NewFit(args, nil)
		if err != nil || p.Name() != "NodeResourcesFit" {
			t.Errorf("%T: %v", args, err)
		}
	}
	if _, err := NewFit(&config.NodeResourcesBalancedAllocationArgs{}, nil); err == nil ||
		err.Error() != "want args to be of type NodeResourcesFitArgs, got *config.NodeResourcesBalancedAllocationArgs" {
		t.Errorf("wrong type: %v", err)
	}
	if _, err := NewFit(config.NodeResourcesFitArgs{IgnoredResourceGroups: []string{"a/b"}}, nil); err == nil {
		t.Error("invalid args accepted")
	}
}
