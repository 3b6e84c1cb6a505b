package cluster

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

const testNode = "test-node"

// upstreamNodeInfoPods are the two pods of upstream's TestNewNodeInfo and
// TestNodeInfoRemovePod (pkg/scheduler/framework/types_test.go).
func upstreamNodeInfoPods() []*api.Pod {
	return []*api.Pod{
		mkPod("node_info_cache_test", "test-1", "test-1", testNode).
			container(rl("cpu", "100m", "memory", "500"), tcp("127.0.0.1", 80)).obj(),
		mkPod("node_info_cache_test", "test-2", "test-2", testNode).
			container(rl("cpu", "200m", "memory", "1Ki"), tcp("127.0.0.1", 8080)).obj(),
	}
}

func usedPorts(ports ...HostPort) HostPortInfo {
	var h HostPortInfo
	for _, p := range ports {
		h.Add(p.IP, p.Protocol, p.Port)
	}
	return h
}

// TestNewNodeInfo ports upstream TestNewNodeInfo: two pods' requests,
// non-zero requests and host ports aggregate; Generation moves on.
func TestNewNodeInfo(t *testing.T) {
	pods := upstreamNodeInfoPods()
	ni := NewNodeInfo(nil, pods...)
	want := &NodeInfo{
		Requested:        Resource{MilliCPU: 300, Memory: 1524},
		NonZeroRequested: Resource{MilliCPU: 300, Memory: 1524},
		UsedPorts:        usedPorts(HostPort{"127.0.0.1", "TCP", 80}, HostPort{"127.0.0.1", "TCP", 8080}),
		Pods:             []*PodInfo{NewPodInfo(pods[0]), NewPodInfo(pods[1])},
	}
	if diff := cmp.Diff(want, ni, nodeInfoCmp...); diff != "" {
		t.Errorf("NewNodeInfo (-want +got):\n%s", diff)
	}
	if ni.Generation <= 0 {
		t.Errorf("Generation %d not incremented", ni.Generation)
	}
	if ni.Node() != nil || ni.Name() != "" {
		t.Errorf("node = %v, want nil", ni.Node())
	}
}

// TestNodeInfoAddPod ports upstream TestNodeInfoAddPod: overhead is
// added, an init container raises the maximum, missing requests count
// as the scheduler's defaults in NonZeroRequested, claims are counted.
func TestNodeInfoAddPod(t *testing.T) {
	pods := []*api.Pod{
		mkPod("node_info_cache_test", "test-1", "test-1", testNode).
			container(rl("cpu", "100m", "memory", "500"), tcp("127.0.0.1", 80)).
			overhead(rl("cpu", "500m")).pvc("pvc-1").obj(),
		mkPod("node_info_cache_test", "test-2", "test-2", testNode).
			container(rl("cpu", "200m"), tcp("127.0.0.1", 8080)).
			overhead(rl("cpu", "500m", "memory", "500")).pvc("pvc-1").obj(),
		mkPod("node_info_cache_test", "test-3", "test-3", testNode).
			container(rl("cpu", "200m"), tcp("127.0.0.1", 8080)).
			init(false, rl("cpu", "500m", "memory", "200Mi")).
			overhead(rl("cpu", "500m", "memory", "500")).pvc("pvc-2").obj(),
	}
	ni := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: testNode}})
	gen := ni.Generation
	for _, p := range pods {
		ni.AddPod(NewPodInfo(p))
		if ni.Generation <= gen {
			t.Errorf("Generation not incremented: %d <= %d", ni.Generation, gen)
		}
		gen = ni.Generation
	}
	want := Resource{MilliCPU: 2300, Memory: 209716700} // 1500 + 200Mi of the init container
	if !ni.Requested.Equal(want) {
		t.Errorf("Requested = %+v, want %+v", ni.Requested, want)
	}
	// 200Mi (init container) + 200Mi (default memory) + 1500 requested.
	if ni.NonZeroRequested.MilliCPU != 2300 || ni.NonZeroRequested.Memory != 419431900 {
		t.Errorf("NonZeroRequested = %+v, want cpu 2300 memory 419431900", ni.NonZeroRequested)
	}
	if got := ni.Pods[2].Requests; !got.Equal(Resource{MilliCPU: 1000, Memory: resource.DefaultMemoryRequest + 500}) {
		t.Errorf("test-3 requests = %+v", got)
	}
	wantPVC := map[string]int{"node_info_cache_test/pvc-1": 2, "node_info_cache_test/pvc-2": 1}
	if diff := cmp.Diff(wantPVC, ni.PVCRefCounts); diff != "" {
		t.Errorf("PVCRefCounts (-want +got):\n%s", diff)
	}
	// Upstream keeps a set; the two pods binding 127.0.0.1:8080 share one
	// entry here too.
	if diff := cmp.Diff([]HostPort{{"127.0.0.1", "TCP", 80}, {"127.0.0.1", "TCP", 8080}}, ni.UsedPorts.Ports()); diff != "" {
		t.Errorf("UsedPorts (-want +got):\n%s", diff)
	}
}

// TestNodeInfoRemovePod ports upstream TestNodeInfoRemovePod: removing
// an unknown pod fails and changes nothing; removing test-1 leaves
// test-2's requests with overhead (700m, 1524) and releases its port and
// claim.
func TestNodeInfoRemovePod(t *testing.T) {
	build := func() (*NodeInfo, []*api.Pod) {
		pods := upstreamNodeInfoPods()
		pods[0].Spec.Volumes = []api.Volume{{Name: "v", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "pvc-1"}}}
		for _, p := range pods {
			p.Spec.Overhead = rl("cpu", "500m", "memory", "500")
		}
		return NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: testNode}}, pods...), pods
	}
	tests := []struct {
		name    string
		pod     func(pods []*api.Pod) *api.Pod
		wantErr bool
		want    func(pods []*api.Pod) *NodeInfo
	}{{
		name:    "non-existent pod",
		pod:     func([]*api.Pod) *api.Pod { return mkPod("node_info_cache_test", "", "non-exist", testNode).obj() },
		wantErr: true,
		want: func(pods []*api.Pod) *NodeInfo {
			return &NodeInfo{
				node:             &api.Node{ObjectMeta: api.ObjectMeta{Name: testNode}},
				Requested:        Resource{MilliCPU: 1300, Memory: 2524},
				NonZeroRequested: Resource{MilliCPU: 1300, Memory: 2524},
				UsedPorts:        usedPorts(HostPort{"127.0.0.1", "TCP", 80}, HostPort{"127.0.0.1", "TCP", 8080}),
				PVCRefCounts:     map[string]int{"node_info_cache_test/pvc-1": 1},
				Pods:             []*PodInfo{NewPodInfo(pods[0]), NewPodInfo(pods[1])},
			}
		},
	}, {
		name: "existing pod",
		pod:  func(pods []*api.Pod) *api.Pod { return pods[0] },
		want: func(pods []*api.Pod) *NodeInfo {
			return &NodeInfo{
				node:             &api.Node{ObjectMeta: api.ObjectMeta{Name: testNode}},
				Requested:        Resource{MilliCPU: 700, Memory: 1524},
				NonZeroRequested: Resource{MilliCPU: 700, Memory: 1524},
				UsedPorts:        usedPorts(HostPort{"127.0.0.1", "TCP", 8080}),
				Pods:             []*PodInfo{NewPodInfo(pods[1])},
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni, pods := build()
			gen := ni.Generation
			err := ni.RemovePod(tt.pod(pods))
			if (err != nil) != tt.wantErr {
				t.Fatalf("RemovePod error = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), testNode) {
				t.Errorf("error %q does not name the node", err)
			}
			if err == nil && ni.Generation <= gen {
				t.Errorf("Generation not incremented")
			}
			if diff := cmp.Diff(tt.want(pods), ni, nodeInfoCmp...); diff != "" {
				t.Errorf("NodeInfo (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpdateUsedPorts ports upstream TestUpdateUsedPorts_PodAdd and
// _PodRemove: container ports without a host port are ignored, init
// containers count only when they are sidecars.
func TestUpdateUsedPorts(t *testing.T) {
	tests := []struct {
		name string
		pod  *api.Pod
		want []HostPort
	}{
		{"no host port", mkPod("", "p", "", "").container(nil, api.ContainerPort{ContainerPort: 8001, Protocol: "TCP"}).obj(), nil},
		{"host port", mkPod("", "p", "", "").container(nil, api.ContainerPort{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"}).obj(),
			[]HostPort{{"0.0.0.0", "TCP", 8001}}},
		{"init container", mkPod("", "p", "", "").init(false, nil, api.ContainerPort{ContainerPort: 8001, HostPort: 8001}).obj(), nil},
		{"sidecar", mkPod("", "p", "", "").init(true, nil, api.ContainerPort{ContainerPort: 8001, HostPort: 8001}).obj(),
			[]HostPort{{"0.0.0.0", "TCP", 8001}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := NewNodeInfo(nil)
			ni.UsedPorts.Add("", "", 8000)
			ni.AddPod(NewPodInfo(tt.pod))
			want := append([]HostPort{{"0.0.0.0", "TCP", 8000}}, tt.want...)
			if diff := cmp.Diff(want, ni.UsedPorts.Ports()); diff != "" {
				t.Errorf("after add (-want +got):\n%s", diff)
			}
			if err := ni.RemovePod(tt.pod); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]HostPort{{"0.0.0.0", "TCP", 8000}}, ni.UsedPorts.Ports()); diff != "" {
				t.Errorf("after remove (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPodsWithAffinity pins upstream's podWithAffinity and
// podWithRequiredAntiAffinity: any PodAffinity or PodAntiAffinity puts a
// pod in PodsWithAffinity; only required anti-affinity terms put it in
// PodsWithRequiredAntiAffinity; node affinity counts for neither.
func TestPodsWithAffinity(t *testing.T) {
	plain := mkPod("ns", "plain", "1", "").obj()
	nodeAff := mkPod("ns", "nodeaff", "2", "").obj()
	nodeAff.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
	pref := mkPod("ns", "pref", "3", "").preferredAffinity("zone").obj()
	anti := mkPod("ns", "anti", "4", "").antiAffinity("zone").obj()
	emptyAnti := mkPod("ns", "emptyanti", "5", "").obj()
	emptyAnti.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{}}

	ni := NewNodeInfo(nil, plain, nodeAff, pref, anti, emptyAnti)
	names := func(ps []*PodInfo) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Pod.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"pref", "anti", "emptyanti"}, names(ni.PodsWithAffinity)); diff != "" {
		t.Errorf("PodsWithAffinity (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"anti"}, names(ni.PodsWithRequiredAntiAffinity)); diff != "" {
		t.Errorf("PodsWithRequiredAntiAffinity (-want +got):\n%s", diff)
	}
	for _, p := range []*api.Pod{anti, pref, emptyAnti} {
		if err := ni.RemovePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if ni.PodsWithAffinity != nil || ni.PodsWithRequiredAntiAffinity != nil {
		t.Errorf("lists not emptied to nil: %v %v", ni.PodsWithAffinity, ni.PodsWithRequiredAntiAffinity)
	}
}

// TestRemovePodMatching: pods match by UID when both have one, else by
// namespace (empty meaning default) and name.
func TestRemovePodMatching(t *testing.T) {
	withUID := mkPod("", "a", "uid-a", "").obj()
	noUID := mkPod("default", "b", "", "").obj()
	ni := NewNodeInfo(nil, withUID, noUID)
	if err := ni.RemovePod(mkPod("default", "a", "other-uid", "").obj()); err == nil {
		t.Error("removed a pod with the same name but another UID")
	}
	if err := ni.RemovePod(mkPod("x", "renamed", "uid-a", "").obj()); err != nil {
		t.Errorf("UID match: %v", err)
	}
	if err := ni.RemovePod(mkPod("", "b", "", "").obj()); err != nil {
		t.Errorf("name match with default namespace: %v", err)
	}
	if len(ni.Pods) != 0 {
		t.Errorf("pods left: %d", len(ni.Pods))
	}
}

// TestNodeInfoClone: a clone shares nothing mutable with the original.
func TestNodeInfoClone(t *testing.T) {
	node := mkNode("n", rl("cpu", "4", "example.com/gpu", "2"), nil, img(10, "a:v1"))
	pods := upstreamNodeInfoPods()
	pods[0] = mkPod("ns", "pvc", "u9", "").pvc("c").container(rl("example.com/gpu", "1")).obj()
	ni := NewNodeInfo(node, pods...)
	c := ni.Clone()
	if diff := cmp.Diff(ni, c, cmp.AllowUnexported(NodeInfo{}, HostPortInfo{}, hostPortEntry{}, PodInfo{}), cmpopts.IgnoreFields(NodeInfo{}, "images"), cmp.Comparer(qEq)); diff != "" {
		t.Fatalf("clone differs (-orig +clone):\n%s", diff)
	}
	c.AddPod(NewPodInfo(mkPod("ns", "x", "ux", "").container(rl("cpu", "1", "example.com/gpu", "1"), tcp("", 99)).pvc("c").obj()))
	c.ImageStates["a:v1"].NumNodes = 7
	if err := c.RemovePod(pods[1]); err != nil {
		t.Fatal(err)
	}
	if ni.Requested.Scalar("example.com/gpu") != 1 || len(ni.Pods) != 2 || ni.UsedPorts.Len() != 1 ||
		ni.PVCRefCounts["ns/c"] != 1 || ni.ImageStates["a:v1"].NumNodes != 1 {
		t.Errorf("original changed through its clone: %v pvc=%v", ni, ni.PVCRefCounts)
	}
}

// TestNormalizedImageName pins upstream imagelocality's
// normalizedImageName.
func TestNormalizedImageName(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                        "nginx:latest",
		"nginx:1.27":                   "nginx:1.27",
		"gcr.io/a/b":                   "gcr.io/a/b:latest",
		"localhost:5000/tool":          "localhost:5000/tool:latest",
		"localhost:5000/tool:v1":       "localhost:5000/tool:v1",
		"registry.example/db@sha256:0": "registry.example/db@sha256:0",
	} {
		if got := NormalizedImageName(in); got != want {
			t.Errorf("NormalizedImageName(%q) = %q, want %q", in, got, want)
		}
	}
	ni := NewNodeInfo(mkNode("n", nil, nil, img(5, "nginx:latest"), img(7, "nginx")))
	if s, ok := ni.ImageState("nginx"); !ok || s.Size != 5 {
		t.Errorf("ImageState(nginx) = %v, %v; want the nginx:latest entry", s, ok)
	}
	// Keys are the node's names as reported, as upstream.
	if _, ok := ni.ImageStates["nginx"]; !ok {
		t.Errorf("raw name nginx missing from ImageStates")
	}
}

// TestNewNodeInfoAllocatable: the scheduler takes status.allocatable as
// is, without falling back to capacity; AllocatableWithDefault does the
// API server's defaulting.
func TestNewNodeInfoAllocatable(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Status: api.NodeStatus{Capacity: rl("cpu", "8", "pods", "110")}}
	if ni := NewNodeInfo(node); !ni.Allocatable.IsZero() {
		t.Errorf("Allocatable = %+v, want zero (no capacity fallback)", ni.Allocatable)
	}
	node.Status.Allocatable = AllocatableWithDefault(node)
	if ni := NewNodeInfo(node); ni.Allocatable.MilliCPU != 8000 || ni.Allocatable.AllowedPodNumber != 110 {
		t.Errorf("defaulted Allocatable = %+v", ni.Allocatable)
	}
	node.Status.Allocatable = rl("cpu", "7")
	if got := AllocatableWithDefault(node); got.Cpu().MilliValue() != 7000 {
		t.Errorf("AllocatableWithDefault overrode allocatable: %v", got)
	}
}

// TestNodeInfoCopyInto: a copy made in another NodeInfo's memory equals
// a Clone but for its Slot (-1: it belongs to no snapshot), changing it
// leaves the original as it was, and copying again into the same memory
// allocates nothing.
func TestNodeInfoCopyInto(t *testing.T) {
	node := mkNode("n", rl("cpu", "4", "example.com/gpu", "2"), nil, img(10, "a:v1"))
	pods := upstreamNodeInfoPods()
	pods[0] = mkPod("ns", "pvc", "u9", "").pvc("c").container(rl("example.com/gpu", "1")).obj()
	ni := NewNodeInfo(node, pods...)
	other := NewNodeInfo(mkNode("m", rl("cpu", "1"), nil), mkPod("ns", "o", "uo", "").container(rl("cpu", "1"), tcp("", 7)).pvc("d").obj())
	var c NodeInfo
	other.CopyInto(&c)
	ni.CopyInto(&c)
	want := ni.Clone()
	want.slot = 0
	opts := []cmp.Option{cmp.AllowUnexported(NodeInfo{}, HostPortInfo{}, hostPortEntry{}, PodInfo{}), cmpopts.IgnoreFields(NodeInfo{}, "images"), cmp.Comparer(qEq)}
	if diff := cmp.Diff(want, &c, opts...); diff != "" {
		t.Fatalf("copy differs from a clone (-clone +copy):\n%s", diff)
	}
	if c.Slot() != -1 {
		t.Errorf("copy's Slot = %d, want -1", c.Slot())
	}
	c.AddPod(NewPodInfo(mkPod("ns", "x", "ux", "").container(rl("cpu", "1", "example.com/gpu", "1"), tcp("", 99)).pvc("c").obj()))
	if err := c.RemovePod(pods[1]); err != nil {
		t.Fatal(err)
	}
	if ni.Requested.Scalar("example.com/gpu") != 1 || len(ni.Pods) != 2 || ni.UsedPorts.Len() != 1 || ni.PVCRefCounts["ns/c"] != 1 {
		t.Errorf("original changed through its copy: %v pvc=%v", ni, ni.PVCRefCounts)
	}
	ni.CopyInto(&c)
	if raceEnabled {
		return // allocation counts vary under the race detector
	}
	if allocs := testing.AllocsPerRun(20, func() { ni.CopyInto(&c) }); allocs != 0 {
		t.Errorf("CopyInto into a used copy: %v allocations, want 0", allocs)
	}
}
