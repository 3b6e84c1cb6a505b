package dynamicresources

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
)

// Fixtures of upstream's extended resource rows (dynamicresources_test.go).
const (
	extName     = "example.com/gpu"
	extName2    = "example.com/gpu2"
	implicitExt = api.ResourceDeviceClassPrefix + className
)

func classWithExt(name, ext string) *api.DeviceClass {
	c := &api.DeviceClass{}
	c.Name = name
	c.Spec.ExtendedResourceName = ptr(ext)
	return c
}

// podRequesting is upstream's st.MakePod().Req(...) with one container
// per list.
func podRequesting(containers ...map[api.ResourceName]string) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace, p.UID = podName, "default", podUID
	for _, reqs := range containers {
		c := api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{}}}
		for n, v := range reqs {
			c.Resources.Requests[n] = quantity.MustParse(v)
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	return p
}

func nodeWith(ext map[api.ResourceName]string) *api.Node {
	n := mkNode(nodeName)
	n.Status.Allocatable = api.ResourceList{}
	for k, v := range ext {
		n.Status.Allocatable[k] = quantity.MustParse(v)
	}
	return n
}

// oldExtClaim is upstream's extendedResourceClaim: the claim made for the
// pod in an earlier cycle, with requests and an allocation.
func oldExtClaim(onNode string) *api.ResourceClaim {
	c := mkClaim("my-pod-extended-resources-0", exact("container-0-request-0", className))
	c.GenerateName = "my-pod-extended-resources-"
	c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
	c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: podName, UID: podUID, Controller: ptr(true)}}
	c.Status.Allocation = &api.AllocationResult{Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{
		{Request: "container-0-request-0", Driver: driver, Pool: onNode, Device: "instance-1"}}}}
	return c
}

// TestExtendedResources runs upstream's TestPlugin rows for extended
// resources backed by DRA (DRAExtendedResource on), each named as
// upstream names it: statuses per extension point and the claim Reserve
// makes (its requests and devices).
func TestExtendedResources(t *testing.T) {
	req := func(n int64, name, class string) api.DeviceRequest {
		r := exact(name, class)
		r.Exactly.Count = n
		return r
	}
	type want struct {
		preFilter  string
		filter     string
		postFilter string
		// requests and devices of the claim Reserve makes; nil: none.
		requests []api.DeviceRequest
		devices  []string
	}
	tests := []struct {
		name string
		pod  *api.Pod
		node *api.Node
		objs []any
		want want
	}{
		// upstream "extended-resource-name-with-node-resource": a device
		// plugin provides it; NodeResourcesFit decides.
		{name: "extended-resource-name-with-node-resource", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			node: nodeWith(map[api.ResourceName]string{extName: "1"}), objs: []any{classWithExt(className, extName)}},
		// upstream "extended-resource-one-device-plugin-one-dra"
		{name: "extended-resource-one-device-plugin-one-dra", pod: podRequesting(map[api.ResourceName]string{extName: "1", extName2: "1"}),
			node: nodeWith(map[api.ResourceName]string{extName: "1"}),
			objs: []any{classWithExt(className, extName), classWithExt(className+"2", extName2), mkSlice(nodeName)},
			want: want{requests: []api.DeviceRequest{req(1, "container-0-request-1", className+"2")}, devices: []string{"instance-1"}}},
		// upstream "extended-resource-name-with-zero-allocatable"
		{name: "extended-resource-name-with-zero-allocatable", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			node: nodeWith(map[api.ResourceName]string{extName: "0"}), objs: []any{classWithExt(className, extName), mkSlice(nodeName)},
			want: want{requests: []api.DeviceRequest{req(1, "container-0-request-0", className)}, devices: []string{"instance-1"}}},
		// upstream "non-DRA-extended-resource-name-with-zero-allocatable"
		{name: "non-DRA-extended-resource-name-with-zero-allocatable", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			node: nodeWith(map[api.ResourceName]string{extName: "0"}), objs: []any{mkClass(), mkSlice(nodeName)},
			want: want{preFilter: "Skip: "}},
		// upstream "extended-resource-name-no-resource"
		{name: "extended-resource-name-no-resource", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			objs: []any{classWithExt(className, extName)},
			want: want{filter: "UnschedulableAndUnresolvable: cannot allocate all claims", postFilter: "Unschedulable: "}},
		// upstream "extended-resource-name-with-resources"
		{name: "extended-resource-name-with-resources", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName)},
			want: want{requests: []api.DeviceRequest{req(1, "container-0-request-0", className)}, devices: []string{"instance-1"}}},
		// upstream "implicit-extended-resource-name-with-resources"
		{name: "implicit-extended-resource-name-with-resources", pod: podRequesting(map[api.ResourceName]string{implicitExt: "1", extName: "2"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName, api.Device{Name: "instance-1"}, api.Device{Name: "instance-2"}, api.Device{Name: "instance-3"}, api.Device{Name: "instance-4"})},
			want: want{requests: []api.DeviceRequest{req(1, "container-0-request-0", className), req(2, "container-0-request-1", className)},
				devices: []string{"instance-1", "instance-2", "instance-3"}}},
		// upstream "implicit-extended-resource-name-two-containers-with-resources"
		{name: "implicit-extended-resource-name-two-containers-with-resources",
			pod:  podRequesting(map[api.ResourceName]string{implicitExt: "1"}, map[api.ResourceName]string{extName: "2"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName, api.Device{Name: "instance-1"}, api.Device{Name: "instance-2"}, api.Device{Name: "instance-3"}, api.Device{Name: "instance-4"})},
			want: want{requests: []api.DeviceRequest{req(1, "container-0-request-0", className), req(2, "container-1-request-0", className)},
				devices: []string{"instance-1", "instance-2", "instance-3"}}},
		// upstream "extended-resource-name-with-resources-has-claim"
		{name: "extended-resource-name-with-resources-has-claim", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName), oldExtClaim(nodeName)},
			want: want{filter: "UnschedulableAndUnresolvable: cannot schedule extended resource claim",
				postFilter: "Unschedulable: deletion of ResourceClaim completed"}},
		// upstream "extended-resource-name-with-resources-delete-claim"
		{name: "extended-resource-name-with-resources-delete-claim", pod: podRequesting(map[api.ResourceName]string{extName: "1"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName), oldExtClaim(node2Name)},
			want: want{filter: "UnschedulableAndUnresolvable: cannot schedule extended resource claim",
				postFilter: "Unschedulable: deletion of ResourceClaim completed"}},
		// filterExtendedResources: a resource neither allocatable nor
		// backed by a class does not fit.
		{name: "cannot-fit-resource", pod: podRequesting(map[api.ResourceName]string{extName: "1", "example.com/other": "1"}),
			objs: []any{classWithExt(className, extName), mkSlice(nodeName)},
			want: want{filter: "UnschedulableAndUnresolvable: cannot fit resource"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := tc.node
			if node == nil {
				node = mkNode(nodeName)
			}
			pl, snap := setup(t, []*api.Node{node}, tc.objs...)
			ctx := context.Background()
			cs := framework.NewCycleState()
			_, st := pl.PreFilter(ctx, cs, tc.pod, nil)
			if got := statusString(st); got != or(tc.want.preFilter, "Success") {
				t.Fatalf("PreFilter: %s, want %s", got, or(tc.want.preFilter, "Success"))
			}
			if st != nil {
				return
			}
			ni := snap.View().Nodes()[0]
			if got := statusString(pl.Filter(ctx, cs, tc.pod, ni)); got != or(tc.want.filter, "Success") {
				t.Fatalf("Filter: %s, want %s", got, or(tc.want.filter, "Success"))
			}
			if tc.want.postFilter != "" {
				_, st := pl.PostFilter(ctx, cs, tc.pod, nil)
				if got := statusString(st); got != tc.want.postFilter {
					t.Errorf("PostFilter: %s, want %s", got, tc.want.postFilter)
				}
				return
			}
			claims, st := pl.reserved(ctx, cs, tc.pod, ni)
			if st != nil {
				t.Fatal(st)
			}
			if tc.want.requests == nil {
				if len(claims) != 0 {
					t.Errorf("Reserve makes %d claims, want none", len(claims))
				}
				return
			}
			if len(claims) != 1 {
				t.Fatalf("Reserve makes %d claims, want 1", len(claims))
			}
			c := claims[0]
			if diff := cmp.Diff(tc.want.requests, c.Spec.Devices.Requests); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			var devs []string
			for _, r := range c.Status.Allocation.Devices.Results {
				devs = append(devs, r.Device)
			}
			if diff := cmp.Diff(tc.want.devices, devs); diff != "" {
				t.Errorf("devices (-want +got):\n%s", diff)
			}
			name, _ := generatedName(tc.pod)
			if c.Name != name || c.Annotations[api.ExtendedResourceClaimAnnotation] != "true" || len(c.Status.ReservedFor) != 1 {
				t.Errorf("claim %s %v reserved for %v", c.Name, c.Annotations, c.Status.ReservedFor)
			}
		})
	}
}

// TestExtendedClaimAssumed: AssumeClaims adds the extended resource
// claim to the snapshot, so the next pod finds the device in use, and
// the pod's own next attempt finds its claim from the earlier cycle.
func TestExtendedClaimAssumed(t *testing.T) {
	pl, snap := setup(t, []*api.Node{mkNode(nodeName)}, classWithExt(className, extName), mkSlice(nodeName))
	ctx := context.Background()
	ni := snap.View().Nodes()[0]
	p1 := podRequesting(map[api.ResourceName]string{extName: "1"})
	if _, err := pl.AssumeClaims(ctx, snap, p1, ni); err != nil {
		t.Fatal(err)
	}
	name, _ := generatedName(p1)
	if c, ok := cluster.GetObject[api.ResourceClaim](snap.Objects(), "default", name); !ok || c.Status.Allocation == nil {
		t.Fatalf("claim %s not assumed: %v", name, c)
	}
	p2 := podRequesting(map[api.ResourceName]string{extName: "1"})
	p2.Name, p2.UID = "p2", "uid-2"
	cs := framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, p2, nil); st != nil {
		t.Fatal(st)
	}
	if got := statusString(pl.Filter(ctx, cs, p2, ni)); got != "UnschedulableAndUnresolvable: cannot allocate all claims" {
		t.Errorf("p2: %s", got)
	}
	cs = framework.NewCycleState()
	if _, st := pl.PreFilter(ctx, cs, p1, nil); st != nil {
		t.Fatal(st)
	}
	if got := statusString(pl.Filter(ctx, cs, p1, ni)); got != "UnschedulableAndUnresolvable: cannot schedule extended resource claim" {
		t.Errorf("p1 again: %s", got)
	}
}
