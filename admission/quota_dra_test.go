package admission

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

func exactly(name, class string, mode api.DeviceAllocationMode, count int64) api.DeviceRequest {
	return api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{DeviceClassName: class, AllocationMode: mode, Count: count}}
}

func sub(name, class string, mode api.DeviceAllocationMode, count int64) api.DeviceSubRequest {
	return api.DeviceSubRequest{Name: name, DeviceClassName: class, AllocationMode: mode, Count: count}
}

// draClaim is upstream's testResourceClaim: an extended resource claim
// is annotated and owned by pod (uid "uid").
func draClaim(name string, extended bool, pod string, reqs ...api.DeviceRequest) *api.ResourceClaim {
	c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns"}}
	c.Spec.Devices.Requests = reqs
	if extended {
		c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
		c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod, UID: "uid", Controller: ptrTo(true)}}
	}
	return c
}

func ptrTo[T any](v T) *T { return &v }

// draPod is a pod "name" (uid "uid") of namespace ns with the init
// containers' and containers' requests given, naming claim "foo" in its
// status unless nilStatus.
func draPod(name string, nilStatus bool, init, containers []api.ResourceList) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns", UID: "uid"}}
	for _, r := range init {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{Resources: api.ResourceRequirements{Requests: r}})
	}
	for _, r := range containers {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Resources: api.ResourceRequirements{Requests: r}})
	}
	if !nilStatus {
		p.Status.ExtendedResourceClaimStatus = &api.PodExtendedResourceClaimStatus{ResourceClaimName: "foo"}
	}
	return p
}

// TestResourceClaimQuotaUsage ports TestResourceClaimEvaluatorUsage
// (pkg/quota/v1/evaluator/core/resource_claims_test.go), one row per
// upstream case, DRAExtendedResource on as in v1.37.2.
func TestResourceClaimQuotaUsage(t *testing.T) {
	const ec = api.DeviceAllocationModeExactCount
	gpu := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	gpu.Spec.ExtendedResourceName = ptrTo("example.com/gpu")
	implicit := api.ResourceList{"deviceclass.resource.kubernetes.io/gpu": resourceMust("1")}
	explicit := api.ResourceList{"example.com/gpu": resourceMust("1")}
	both := api.ResourceList{"example.com/gpu": resourceMust("1"), "deviceclass.resource.kubernetes.io/gpu": resourceMust("1")}
	pods := []*api.Pod{
		draPod("pod-implicit", false, nil, []api.ResourceList{implicit}),
		draPod("pod-explicit", false, []api.ResourceList{explicit}, nil),
		draPod("pod-hybrid", false, []api.ResourceList{both}, []api.ResourceList{both}),
		draPod("pod-nil-status", true, []api.ResourceList{explicit}, []api.ResourceList{implicit}),
		draPod("pod-init", false, []api.ResourceList{both, both}, []api.ResourceList{both}),
	}
	mapped := &DRAQuota{DeviceClasses: []*api.DeviceClass{gpu}, Pods: pods}
	one := exactly("req-0", "gpu", ec, 1)
	list := api.DeviceRequest{Name: "req-0", FirstAvailable: []api.DeviceSubRequest{sub("subreq-0", "gpu", ec, 1)}}
	nilStatus := draClaim("foo-copy", true, "pod-nil-status", exactly("request-0", "gpu", ec, 1), exactly("container-1-request-0", "gpu", ec, 1))
	nilStatusOther := draClaim("foo", true, "pod-nil-status", nilStatus.Spec.Devices.Requests...)
	for _, c := range []struct {
		name  string
		q     *DRAQuota
		claim *api.ResourceClaim
		want  api.ResourceList
	}{
		{"implicit-extended-resource-claim", mapped, draClaim("foo", true, "pod-implicit", exactly("container-0-request-0", "gpu", ec, 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.example.com/gpu=1")},
		{"explicit-extended-resource-claim", mapped, draClaim("foo", true, "pod-explicit", exactly("container-0-request-0", "gpu", ec, 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.deviceclass.resource.kubernetes.io/gpu=1")},
		{"hybrid-extended-resource-claim", mapped, draClaim("foo", true, "pod-hybrid", exactly("container-1-request-0", "gpu", ec, 1), exactly("container-1-request-1", "gpu", ec, 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=2", "requests.deviceclass.resource.kubernetes.io/gpu=1", "requests.example.com/gpu=1")},
		{"nil-status-extended-resource-claim", mapped, nilStatus,
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=2", "requests.deviceclass.resource.kubernetes.io/gpu=1", "requests.example.com/gpu=1")},
		// Both claims are the pod's: the later name gets no exemption.
		{"nil-status-two-extended-resource-claims", &DRAQuota{DeviceClasses: mapped.DeviceClasses, Pods: pods, Claims: []*api.ResourceClaim{nilStatusOther}}, nilStatus,
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=2", "requests.deviceclass.resource.kubernetes.io/gpu=2", "requests.example.com/gpu=2")},
		{"init-extended-resource-claim", mapped, draClaim("foo", true, "pod-init", exactly("container-2-request-0", "gpu", ec, 1), exactly("container-2-request-1", "gpu", ec, 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=2", "requests.deviceclass.resource.kubernetes.io/gpu=1", "requests.example.com/gpu=1")},
		{"simple", nil, draClaim("foo", false, "", one),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.deviceclass.resource.kubernetes.io/gpu=1")},
		{"many-requests", nil, draClaim("foo", false, "", one, one, one, one, one),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=5", "requests.deviceclass.resource.kubernetes.io/gpu=5")},
		{"count", nil, draClaim("foo", false, "", exactly("req-0", "gpu", ec, 5)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=5", "requests.deviceclass.resource.kubernetes.io/gpu=5")},
		{"all", nil, draClaim("foo", false, "", exactly("req-0", "gpu", api.DeviceAllocationModeAll, 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=32", "requests.deviceclass.resource.kubernetes.io/gpu=32")},
		{"unknown-count-mode", nil, draClaim("foo", false, "", exactly("req-0", "gpu", "future-mode", 1)),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=0")},
		// Admins are not exempt from quota.
		{"admin", nil, func() *api.ResourceClaim {
			r := exactly("req-0", "gpu", ec, 1)
			r.Exactly.AdminAccess = ptrTo(true)
			return draClaim("foo", false, "", r)
		}(), rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.deviceclass.resource.kubernetes.io/gpu=1")},
		{"prioritized-list", nil, draClaim("foo", false, "", list),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.deviceclass.resource.kubernetes.io/gpu=1")},
		{"prioritized-list-multiple-subrequests", nil, draClaim("foo", false, "", api.DeviceRequest{Name: "req-0", FirstAvailable: []api.DeviceSubRequest{
			sub("subreq-0", "gpu", ec, 2), sub("subreq-1", "gpu", ec, 1)}}),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=2", "requests.deviceclass.resource.kubernetes.io/gpu=2")},
		{"prioritized-list-multiple-subrequests-allocation-mode-all", nil, draClaim("foo", false, "", api.DeviceRequest{Name: "req-0", FirstAvailable: []api.DeviceSubRequest{
			sub("subreq-0", "gpu", ec, 1), sub("subreq-1", "gpu", api.DeviceAllocationModeAll, 0)}}),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=32", "requests.deviceclass.resource.kubernetes.io/gpu=32")},
		{"prioritized-list-multiple-subrequests-different-device-classes", nil, draClaim("foo", false, "", api.DeviceRequest{Name: "req-0", FirstAvailable: []api.DeviceSubRequest{
			sub("subreq-0", "gpu", ec, 1), sub("subreq-1", "tpu", api.DeviceAllocationModeAll, 0)}}),
			rl("count/resourceclaims.resource.k8s.io=1", "gpu.deviceclass.resource.k8s.io/devices=1", "requests.deviceclass.resource.kubernetes.io/gpu=1",
				"tpu.deviceclass.resource.k8s.io/devices=32", "requests.deviceclass.resource.kubernetes.io/tpu=32")},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ResourceClaimQuotaUsage(c.claim, c.q, time.Time{})
			if diff := cmp.Diff(listText(c.want), listText(got)); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
		})
	}
}

func resourceMust(s string) quantity.Quantity { return rl("x=" + s)["x"] }

// TestResourceClaimQuotaMatching ports
// TestResourceClaimEvaluatorMatchingResources.
func TestResourceClaimQuotaMatching(t *testing.T) {
	gpu := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	gpu.Spec.ExtendedResourceName = ptrTo("example.com/gpu")
	e := resourceClaimEval{claim: &api.ResourceClaim{}, q: &DRAQuota{DeviceClasses: []*api.DeviceClass{gpu}}}
	for _, c := range []struct {
		name        string
		items, want []api.ResourceName
	}{
		{"supported-resources",
			[]api.ResourceName{"count/resourceclaims.resource.k8s.io", "gpu.deviceclass.resource.k8s.io/devices", "requests.example.com/gpu", "requests.deviceclass.resource.kubernetes.io/gpu"},
			[]api.ResourceName{"count/resourceclaims.resource.k8s.io", "gpu.deviceclass.resource.k8s.io/devices", "requests.example.com/gpu", "requests.deviceclass.resource.kubernetes.io/gpu"}},
		{"unsupported-resources",
			[]api.ResourceName{"resourceclaims", "storage", "ephemeral-storage", "bronze.deviceclass.resource.k8s.io/storage", "gpu.storage.k8s.io/requests.storage"},
			[]api.ResourceName{}},
		// Not upstream's: an extended resource no class maps, and the
		// implicit name of an unknown class, are not the claims'.
		{"unmapped", []api.ResourceName{"requests.example.com/tpu", "requests.deviceclass.resource.kubernetes.io/tpu"}, []api.ResourceName{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := e.matching(c.items); !reflect.DeepEqual(got, c.want) {
				t.Errorf("matching %v, want %v", got, c.want)
			}
		})
	}
}

// TestResourceClaimQuotaAdmission: the ResourceQuota plugin on a claim
// being created, with the API server's texts.
func TestResourceClaimQuotaAdmission(t *testing.T) {
	const ec = api.DeviceAllocationModeExactCount
	gpu := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	gpu.Spec.ExtendedResourceName = ptrTo("example.com/gpu")
	q := &DRAQuota{DeviceClasses: []*api.DeviceClass{gpu}}
	quota := func(hard, used api.ResourceList) []api.ResourceQuota {
		r := rq("quota", hard, used)
		r.Namespace = "ns"
		return []api.ResourceQuota{r}
	}
	claim := draClaim("foo", false, "", exactly("req-0", "gpu", ec, 2))
	for _, c := range []struct {
		name   string
		quotas []api.ResourceQuota
		want   string
	}{
		{"devices fit", quota(rl("gpu.deviceclass.resource.k8s.io/devices=4"), rl("gpu.deviceclass.resource.k8s.io/devices=2")),
			"gpu.deviceclass.resource.k8s.io/devices=4"},
		{"devices exceeded", quota(rl("gpu.deviceclass.resource.k8s.io/devices=3"), rl("gpu.deviceclass.resource.k8s.io/devices=2")),
			`resourceclaims.resource.k8s.io "foo" is forbidden: exceeded quota: quota, requested: gpu.deviceclass.resource.k8s.io/devices=2, used: gpu.deviceclass.resource.k8s.io/devices=2, limited: gpu.deviceclass.resource.k8s.io/devices=3`},
		{"count exceeded", quota(rl("count/resourceclaims.resource.k8s.io=1"), rl("count/resourceclaims.resource.k8s.io=1")),
			`resourceclaims.resource.k8s.io "foo" is forbidden: exceeded quota: quota, requested: count/resourceclaims.resource.k8s.io=1, used: count/resourceclaims.resource.k8s.io=1, limited: count/resourceclaims.resource.k8s.io=1`},
		{"extended resource exceeded", quota(rl("requests.example.com/gpu=1"), rl("requests.example.com/gpu=0")),
			`resourceclaims.resource.k8s.io "foo" is forbidden: exceeded quota: quota, requested: requests.example.com/gpu=2, used: requests.example.com/gpu=0, limited: requests.example.com/gpu=1`},
		{"status unknown", quota(rl("gpu.deviceclass.resource.k8s.io/devices=3"), rl()),
			`resourceclaims.resource.k8s.io "foo" is forbidden: status unknown for quota: quota, resources: gpu.deviceclass.resource.k8s.io/devices`},
		{"other class", quota(rl("tpu.deviceclass.resource.k8s.io/devices=0"), rl("tpu.deviceclass.resource.k8s.io/devices=0")),
			"tpu.deviceclass.resource.k8s.io/devices=0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := CheckQuota(c.quotas, CountedResourceClaim(claim, q), time.Time{})
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = listText(out[0].Status.Used)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestResourceClaimQuotaStatus: the quota controller sums the claims'
// devices per class and the extended resources, pods' and claims'.
func TestResourceClaimQuotaStatus(t *testing.T) {
	const ec = api.DeviceAllocationModeExactCount
	gpu := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: "gpu"}}
	gpu.Spec.ExtendedResourceName = ptrTo("example.com/gpu")
	r := rq("quota", rl("count/resourceclaims.resource.k8s.io=10", "gpu.deviceclass.resource.k8s.io/devices=10", "requests.example.com/gpu=10"), nil)
	r.Namespace = "ns"
	r.Status = api.ResourceQuotaStatus{}
	pod := draPod("p", true, nil, []api.ResourceList{{"example.com/gpu": resourceMust("1")}})
	st := QuotaStatus(&r, NamespaceObjects{
		Pods:           []*api.Pod{pod},
		ResourceClaims: []*api.ResourceClaim{draClaim("a", false, "", exactly("r", "gpu", ec, 2)), draClaim("b", false, "", exactly("r", "gpu", ec, 1))},
		DeviceClasses:  []*api.DeviceClass{gpu},
	})
	want := "count/resourceclaims.resource.k8s.io=2,gpu.deviceclass.resource.k8s.io/devices=3,requests.example.com/gpu=4"
	if got := listText(st.Used); got != want {
		t.Errorf("used %s, want %s", got, want)
	}
}
